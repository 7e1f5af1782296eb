"""A mark and the character after it, read as one glyph in two codes (repair.fill.code_pairs)."""

from __future__ import annotations

import pytest

import repair
from repair.fill.glyphs import GlyphTable
from repair.types import Edit
from tests.fill.fill_support import BASE, needs_model, run_repair

pytestmark = needs_model

# 習 spelled as a private-use code and 羽 (its top): no copy has 羽 there.
PAIRED = "子曰學而時\ue000羽之不亦說乎"


# 習 twice, in two passages, both times as the same two codes.
TWICE_BASE = "子曰學而時習之不亦說乎\n子曰性相近也習相遠也唯上知與下愚不移\n"
TWICE = "子曰學而時\ue000羽之不亦說乎\n子曰性相近也\ue000羽相遠也唯上知與下愚不移\n"


@pytest.fixture(scope="module")
def witnessed() -> repair.Repairer:
    return repair.Repairer(references=(BASE,), same_edition=True)


def _only_edit(result: repair.Result) -> Edit:
    (e,) = [e for e in result.edits if e.kind == "private_use"]
    return e


def test_two_codes_read_as_the_one_character_other_copies_have(witnessed):
    result = witnessed.repair_text(PAIRED)
    assert result.text == "子曰學而時習之不亦說乎"
    e = _only_edit(result)
    assert (e.before, e.after, e.end - e.start) == ("\ue000羽", "習", 2)
    assert e.detail["spelled_with"] == "羽"
    assert "with the 羽 after it" in e.candidates[0].source


@pytest.mark.parametrize(("mark", "kind"), [("ス", "foreign_symbol"), ("?", "question_mark")])
def test_a_stand_in_symbol_or_question_mark_pairs_too(witnessed, mark, kind):
    result = witnessed.repair_text(PAIRED.replace("\ue000", mark))
    assert result.text == "子曰學而時習之不亦說乎"
    (e,) = [e for e in result.edits if e.kind == kind]
    assert e.before == mark + "羽"


def test_a_pair_reading_is_undone_from_the_report(witnessed):
    result = witnessed.repair_text(PAIRED)
    assert result.undo() == PAIRED


def test_a_code_alone_stays_one_character_and_keeps_the_next(witnessed):
    # The next character is the text's own (之 follows 習 in every copy):
    # the plain lookup answers, so the pair is never asked.
    result = witnessed.repair_text("子曰學而時\ue000之不亦說乎")
    assert result.text == "子曰學而時習之不亦說乎"
    assert _only_edit(result).end - _only_edit(result).start == 1


def test_no_pair_without_a_copy():
    # The model never reads a pair: calibration saw no such channel.
    result = repair.Repairer().repair_text(PAIRED)
    assert "羽之" in result.text
    e = _only_edit(result)
    assert not e.applied and e.before == "\ue000"


def test_one_occurrence_against_another_edition_is_reported_not_read():
    # The reference may be another edition that lacks the 羽 (a variant).
    result = repair.Repairer(references=(BASE,)).repair_text(PAIRED)
    assert result.text == PAIRED
    e = _only_edit(result)
    assert not e.applied and e.before == "\ue000"
    assert (e.detail["pair_reading"], e.detail["pair_with"]) == ("習", "羽")


def test_a_recurring_pair_is_read_against_any_copy():
    result = repair.Repairer(references=(TWICE_BASE,)).repair_text(TWICE)
    assert result.text == TWICE_BASE


def test_every_occurrence_must_be_followed_by_the_same_character():
    text = "子曰學而時\ue000羽之不亦說乎。有朋自遠方來\ue000木亦樂乎"
    result = repair.Repairer(references=(BASE,), same_edition=True).repair_text(text)
    assert "\ue000羽" in result.text and "\ue000木" in result.text


def test_nothing_taken_in_across_punctuation(witnessed):
    result = witnessed.repair_text("子曰學而時\ue000，之不亦說乎")
    assert "，" in result.text
    assert all(e.before == "\ue000" for e in result.edits if e.kind == "private_use")


def test_a_glyph_table_of_two_codes_is_applied(tmp_path):
    learned = GlyphTable.learn([repair.Repairer(references=(BASE,), same_edition=True).repair_text(PAIRED)])
    path = tmp_path / "glyphs.tsv"
    learned.save(path)
    assert "U+E000 U+7FBD\t習" in path.read_text(encoding="utf-8")
    other = repair.Repairer(glyph_table=path).repair_text("溫故\ue000羽而知新")
    e = _only_edit(other)
    assert (e.before, e.detail.get("spelled_with")) == ("\ue000羽", "羽")
    assert e.candidates[0].text == "習"


def test_a_batch_witnesses_its_own_pairs(tmp_path):
    # One file has the passage whole, the other spells 習 in two codes; no reference.
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "a.txt").write_text(TWICE_BASE, encoding="utf-8")
    (src / "b.txt").write_text(TWICE, encoding="utf-8")
    run_repair("clean", "-r", src, "-o", out, "-q", "--no-html")
    assert (out / "b.txt").read_text(encoding="utf-8") == TWICE_BASE


def test_a_copy_without_the_mark_is_no_pair():
    # The reference has no character where the mark is, only 羽: what it
    # puts in the pair's place is 羽 itself, and a glyph is never its own part.
    result = repair.Repairer(references=("子曰學而時羽之不亦說乎",), same_edition=True).repair_text(PAIRED)
    assert "\ue000羽" in result.text


def test_a_pair_left_unapplied_keeps_the_marks_own_confidence_and_is_learned_as_two_codes():
    # Above the witnesses' confidence nothing is applied: the mark alone must
    # not inherit the pair's confidence, and a table learns the two codes.
    result = repair.Repairer(references=(BASE,), same_edition=True, min_confidence=1.0).repair_text(PAIRED)
    e = _only_edit(result)
    assert not e.applied and e.before == "\ue000"
    assert e.detail["pair_reading"] == "習" and e.detail["pair_confidence"] > 0.99
    assert e.confidence < 0.5
    table = GlyphTable.learn([result])
    assert table.get("\ue000") is None
    assert table.get("\ue000羽").char == "習" and table.get("\ue000羽").source == "witness"
