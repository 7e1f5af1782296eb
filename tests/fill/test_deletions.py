"""Silent deletions: found where a reference reads one more character, reported, written only on request."""

from __future__ import annotations

import json
import pickle

import pytest
from fill_support import BASE, needs_model, run_repair

import repair
from repair.fill.deletions import SAME_EDITION_CONFIDENCE, WITNESSED_CONFIDENCE, boundaries
from repair.fill.witness import WitnessIndex
from repair.types import Edit

DROPPED = BASE.replace("有朋自遠方來", "有朋自方來")


def deletions(result: repair.Result) -> list[Edit]:
    return [e for e in result.edits if e.kind == "deletion"]


def test_boundaries_skip_punctuation_and_other_repairs():
    text = "子曰學而時習之，不亦說乎〓有朋自遠方來"
    offsets = [at for at, _, _ in boundaries(text, [], 2)]
    assert text.index("，") not in offsets and text.index("，") + 1 not in offsets
    assert text.index("時") in offsets  # between 而 and 時
    near = Edit(text.index("時"), text.index("時") + 1, "時", "時", "lookalike", 0.0)
    assert text.index("時") not in [at for at, _, _ in boundaries(text, [near], 2)]
    # Context is read across the comma but not across the placeholder.
    left_right = {at: (lt, rt) for at, lt, rt in boundaries(text, [], 2)}
    assert left_right[text.index("亦")] == ("之不", "亦說")
    assert all("〓" not in lt + rt for lt, rt in left_right.values())


def test_a_reference_reports_the_lost_character_without_writing_it():
    result = repair.Repairer(references=(BASE,), model=None).repair_text(DROPPED)
    assert result.text == DROPPED
    (edit,) = deletions(result)
    assert (edit.before, edit.after, edit.applied) == ("", "", False)
    assert edit.start == DROPPED.index("方")
    assert edit.candidates[0].text == "遠" and edit.confidence == WITNESSED_CONFIDENCE
    assert "自遠方來" in edit.note


def test_references_of_the_same_edition_have_it_written():
    result = repair.Repairer(references=(BASE,), model=None, same_edition=True).repair_text(DROPPED)
    assert result.text == BASE
    (edit,) = deletions(result)
    assert edit.applied and edit.confidence == SAME_EDITION_CONFIDENCE
    assert result.undo() == DROPPED


def test_same_edition_from_the_command_line(tmp_path):
    src, ref, out = tmp_path / "in.txt", tmp_path / "ref.txt", tmp_path / "out"
    src.write_text(DROPPED + "\n", encoding="utf-8")
    ref.write_text(BASE + "\n", encoding="utf-8")
    run_repair("clean", src, "-o", out, "--reference", ref)
    assert (out / "in.txt").read_text(encoding="utf-8") == DROPPED + "\n"
    run_repair("clean", src, "-o", out, "--reference", ref, "--same-edition")
    assert (out / "in.txt").read_text(encoding="utf-8") == BASE + "\n"
    report = json.loads((out / "_repair_reports" / "in.txt.report.json").read_text(encoding="utf-8"))
    assert report["settings"]["same_edition"] is True


@needs_model
def test_simplified_document_gets_the_simplified_form():
    text = "子曰学而时习之不亦说乎有朋自方来不亦乐乎"
    result = repair.Repairer(references=(BASE,), same_edition=True).repair_text(text)
    assert result.text == "子曰学而时习之不亦说乎有朋自远方来不亦乐乎"


def test_nothing_without_a_reference_or_where_the_reference_also_reads_it_joined():
    assert not deletions(repair.Repairer(model=None).repair_text(DROPPED))
    both = repair.Repairer(references=(BASE, DROPPED), model=None).repair_text(DROPPED)
    assert not deletions(both)


def test_disagreeing_references_decide_nothing():
    other = BASE.replace("有朋自遠方來", "有朋自他方來")
    result = repair.Repairer(references=(BASE, other), model=None).repair_text(DROPPED)
    assert not deletions(result)


def test_only_a_complete_index_can_witness_a_deletion():
    assert WitnessIndex([BASE]).joined is not None
    assert WitnessIndex([BASE], only={"自遠方來不亦樂"}).joined is None


def test_a_pickled_repairer_keeps_the_reference_index():
    clone = pickle.loads(pickle.dumps(repair.Repairer(references=(BASE,), model=None)))
    assert deletions(clone.repair_text(DROPPED))


@needs_model
@pytest.mark.parametrize(
    ("damaged", "restored"),
    [
        ("人不知而不慍，亦君子乎。學而時習之", "人不知而不慍，不亦君子乎。學而時習之"),  # after the comma
        ("人不知而不，不亦君子乎。學而時習之", "人不知而不慍，不亦君子乎。學而時習之"),  # before it
        # Between two marks, and across a question mark, which is punctuation
        # where it is not an edit.
        ("所金反又七南反）（息暫反又如字", "所金反又七南反）三（息暫反又如字"),
        ("上曰何為不能顧為柰何？」劉敬對：「陛下誠能以適", "上曰何為不能顧為柰何？」劉敬對曰：「陛下誠能以適"),
    ],
)
def test_a_character_lost_beside_punctuation_goes_where_the_reference_puts_it(damaged, restored):
    reference = (
        "人不知而不慍，不亦君子乎。學而時習之，不亦說乎。所金反又七南反）三（息暫反又如字。"
        "上曰何為不能顧為柰何？」劉敬對曰：「陛下誠能以適長公主妻之"
    )
    result = repair.Repairer(references=(reference,), same_edition=True).repair_text(damaged)
    assert result.text == restored


@needs_model
def test_an_unpunctuated_reference_cannot_place_a_character_beside_punctuation():
    reference = "人不知而不慍不亦君子乎學而時習之不亦說乎"
    damaged = "人不知而不慍，亦君子乎。學而時習之"
    result = repair.Repairer(references=(reference,), same_edition=True).repair_text(damaged)
    assert result.text == damaged and not result.edits


@needs_model
@pytest.mark.parametrize("same_edition", [True, False])
def test_a_character_lost_from_a_run_of_itself_is_put_back_once(same_edition):
    # 蠕蠕 read 蠕: both boundaries of the run read right with 蠕 put back.
    reference = "何許人也世祖初為白道守將蠕蠕大檀入塞圍之力屈被執進"
    damaged = reference.replace("蠕蠕", "蠕")
    result = repair.Repairer(references=(reference,), same_edition=same_edition).repair_text(damaged)
    assert len(deletions(result)) == 1
    assert result.text == (reference if same_edition else damaged)
