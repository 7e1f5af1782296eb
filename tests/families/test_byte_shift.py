"""Byte shift: a GBK stream read one byte out of phase is re-read in phase.

Each case simulates the channel on a simplified sentence written for the test:
encode as GBK, lose the first byte, decode as GB18030 with replacement, and
delete the private-use characters that out-of-phase pairs in the user-defined
areas became (as the seeds show).  The bytes cannot give everything back, so
the test checks the family, the exact span, that long stretches of the
sentence come back, that the holes are slots, and that clean text around the
run is left alone.
"""

from __future__ import annotations

import difflib
import re

import pytest

PLACEHOLDER = "〓"
PUA_RE = re.compile("[\ue000-\uf8ff]")

SENTENCES = {
    "laozi": "天下皆知美之为美斯恶已皆知善之为善斯不善已故有无相生难易相成长短相形高下相倾",
    "lunyu": "子曰学而时习之不亦说乎有朋自远方来不亦乐乎人不知而不愠不亦君子乎",
    "mengzi": "孟子说人皆有不忍人之心先王有不忍人之心斯有不忍人之政矣以不忍人之心行不忍人之政",
    "kana": "长者先幼者后去者不追来者不拒此乃古之君子所以待人之道也今之人则不然矣",
}


def shifted(sentence: str) -> str:
    text = sentence.encode("gbk")[1:].decode("gb18030", errors="replace")
    return PUA_RE.sub("", text)


def restored_share(sentence: str, repaired: str) -> tuple[float, int]:
    """Share of the sentence found in order in the repair, and the longest stretch."""
    matcher = difflib.SequenceMatcher(None, sentence, repaired, autojunk=False)
    blocks = matcher.get_matching_blocks()
    return sum(b.size for b in blocks) / len(sentence), max(b.size for b in blocks)


KNOWN_PROBLEMS: dict[str, str] = {}

# (sentence key, clean text before the run, clean text after the run)
CASES = [
    pytest.param(
        key,
        prefix,
        suffix,
        id=f"{key}-{where}",
        marks=[pytest.mark.xfail(strict=True, reason=KNOWN_PROBLEMS[key])] if key in KNOWN_PROBLEMS else [],
    )
    for key in SENTENCES
    for where, prefix, suffix in (
        ("alone", "", ""),
        ("after-clean-sentence", "子曰：学而时习之。", ""),
        ("own-line", "子曰：学而时习之。\n", "\n有朋自远方来。"),
    )
]


@pytest.mark.parametrize(("key", "prefix", "suffix"), CASES)
def test_byte_shift(repaired, observed, key, prefix, suffix):
    sentence = SENTENCES[key]
    run = shifted(sentence)
    assert run.endswith("\ufffd") and len(sentence) >= 30
    result = repaired(prefix + run + suffix)

    assert observed(result) == [("byte_shift", run, len(prefix))]
    (edit,) = result.edits
    assert edit.applied
    # The clean text around the run is untouched.
    assert result.text.startswith(prefix) and result.text.endswith(suffix)
    assert result.text[len(prefix) : len(result.text) - len(suffix)] == edit.after
    # Long stretches of the sentence come back; the holes are slots with
    # placeholders.  (Half, not more: a re-read character that may be a glued
    # pair is marked rather than written, so a run loses more to holes and
    # writes fewer wrong characters; laozi's 知+善 read as 制 is now a hole.)
    share, longest = restored_share(sentence, edit.after)
    assert share >= 0.5 and longest >= 8, (share, longest, edit.after)
    assert edit.slots
    assert all(edit.after[s.offset : s.offset + s.length] == PLACEHOLDER * s.length for s in edit.slots)
    assert edit.after.count(PLACEHOLDER) == sum(s.length for s in edit.slots)
    # The character cut at the start and the one cut at the end are holes,
    # unless the model filled them from their surviving byte: then rightly.
    assert edit.after[0] in (PLACEHOLDER, sentence[0])
    assert edit.after[-1] in (PLACEHOLDER, sentence[-1])
    assert (edit.slots[0].offset == 0) == (edit.after[0] == PLACEHOLDER)


def test_clean_text_glued_to_shifted_run_is_kept(repaired, observed):
    # No punctuation between: where the run starts is decided by the re-reading.
    prefix = "学而时习之"
    run = shifted(SENTENCES["kana"])
    result = repaired(prefix + run)
    assert observed(result) == [("byte_shift", run, len(prefix))]
    assert result.text.startswith(prefix)


def test_clean_text_alone_has_no_byte_shift(repaired):
    for sentence in SENTENCES.values():
        assert repaired(sentence).edits == ()


@pytest.mark.parametrize("key", ["laozi", "lunyu", "mengzi"])
def test_byte_shift_applies_no_wrong_character(repaired, key):
    sentence = SENTENCES[key]
    (edit,) = repaired(shifted(sentence)).edits
    # Every piece between holes is text the sentence really has.
    pieces = [p for p in edit.after.split(PLACEHOLDER) if p]
    assert all(p in sentence for p in pieces), pieces
