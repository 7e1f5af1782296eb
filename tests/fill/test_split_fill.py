"""Filling a lost lead byte: the surviving byte narrows the candidates, and the bytes name the form."""

from __future__ import annotations

import pytest
from fill_support import needs_model

import repair
from repair.fill.channel import SPLIT_CHANNELS, split_candidates

SIMPLIFIED = "子曰：学而时习之，不亦说乎。有朋自逺方来，不亦乐乎。人不知而不愠，不亦君子乎。"


def _shown(ch: str, reader: str, source: str) -> str | None:
    try:
        return ch.encode(source).decode(reader, errors="replace")
    except UnicodeEncodeError:
        return None


@pytest.mark.parametrize(
    ("run", "page"), [("\ufffdR", "gb2312"), ("?f", "gb2312"), ("\ufffdd", "big5"), ("?9?8", "gbk")]
)
def test_every_candidate_reads_as_the_run(run, page):
    cands = split_candidates(run, page)
    assert cands
    mark = run.replace("?", "\ufffd")
    for ch in cands:
        assert any(_shown(ch, r, s) == mark for r, s in SPLIT_CHANNELS), ch


def test_a_traditional_document_read_as_big5_cannot_have_lost_a_big5_character():
    # 齊 is C6 52 in GBK, so GBK read as GB2312 shows it as "�R"; a Big5 reader reads it.
    assert "齊" in split_candidates("\ufffdR", "gb2312")
    assert "齊" not in split_candidates("\ufffdR", "big5")


@needs_model
def test_the_bytes_name_the_form_even_in_a_simplified_document():
    damaged = SIMPLIFIED.encode("gbk").decode("gb2312", errors="replace")
    assert "\ufffdR" in damaged
    result = repair.Repairer(references=(SIMPLIFIED,)).repair_text(damaged)
    (edit,) = result.edits
    assert edit.kind == "split_char" and edit.applied
    assert result.text == SIMPLIFIED  # 逺 as the file had it, not the standard 远
    assert result.undo() == damaged


@needs_model
def test_a_witness_the_bytes_rule_out_does_not_decide():
    damaged = SIMPLIFIED.encode("gbk").decode("gb2312", errors="replace")
    result = repair.Repairer(references=(SIMPLIFIED.replace("逺", "近"),)).repair_text(damaged)
    (edit,) = result.edits
    assert edit.after != "近" and all(c.text != "近" and "witness" not in c.source for c in edit.candidates)
