"""Runs of marks: how many characters a run stands for, and who may fill it."""

from __future__ import annotations

import pytest
from fill_support import BASE, needs_model

import repair
from repair.fill.glyphs import Glyph, GlyphTable
from repair.fill.ranker import run_widths
from repair.fill.witness import MAX_RUN, WitnessIndex

LONG = BASE + "子曰其為人也孝弟而好犯上者鮮矣"


@pytest.mark.parametrize(
    ("kind", "marks", "widths"),
    [
        ("placeholder", 1, (1,)),
        ("placeholder", 3, (3,)),
        ("private_use", 2, (2,)),
        ("foreign_symbol", 4, (4,)),
        ("question_mark", 2, (1, 2)),
        ("question_mark", 3, (3,)),
        ("question_mark", 4, (2, 4)),
        ("replacement_char", 2, (1, 2)),
        ("replacement_char", 6, (2, 3, 4)),
        ("split_char", 4, (1,)),
        ("placeholder", MAX_RUN + 1, ()),
    ],
)
def test_a_run_stands_for_as_many_characters_as_its_channel_allows(kind, marks, widths):
    assert run_widths(kind, marks) == widths


def test_the_index_answers_every_width_up_to_the_longest_run():
    index = WitnessIndex([LONG])
    assert index.lookup("而不慍不亦", "乎子曰其", 2) == {"君子": 1}
    assert index.lookup("而不慍不", "子乎子曰", 2) == {"亦君": 1}
    assert index.lookup("知而不慍", "乎子曰其", 4) == {"不亦君子": 1}
    assert index.lookup("知而不慍", "乎子曰其", MAX_RUN + 1) == {}


@needs_model
def test_a_run_of_placeholders_is_never_filled_with_one_character():
    (edit,) = repair.repair_text("有朋自遠方來不亦樂乎人不知而不慍不亦□□□乎子曰其為人也").edits
    assert not edit.applied and edit.after == "□□□"
    assert edit.candidates and all(len(c.text) == 3 for c in edit.candidates)


@needs_model
@pytest.mark.parametrize("run", ["□□", "\ue000\ue001", "〓〓"])
def test_another_copy_fills_a_run_of_one_per_character_marks(run):
    result = repair.Repairer(references=(LONG,)).repair_text(
        f"有朋自遠方來不亦樂乎人不知而不慍不亦{run}乎子曰其為人也孝弟"
    )
    assert "不亦君子乎" in result.text
    assert result.edits[0].candidates[0].source.startswith("witness")
    assert result.undo().count(run) == 1


@needs_model
def test_another_copy_fills_three_question_marks_as_three_characters():
    result = repair.Repairer(references=(LONG,)).repair_text("有朋自遠方來不亦樂乎人不知???不亦君子乎子曰其為人也孝弟")
    assert "人不知而不慍不亦君子乎" in result.text


@needs_model
def test_a_run_longer_than_any_copy_is_asked_about_is_left_to_the_reader():
    text = "有朋自遠方來不亦樂乎人□□□□□君子乎子曰其為人也孝弟"
    (edit,) = repair.Repairer(references=(LONG,)).repair_text(text).edits
    assert not edit.applied and edit.after == edit.before


def test_a_run_of_codes_is_read_code_by_code_from_the_glyph_table():
    table = GlyphTable({"\ue000": Glyph("君", 1.0, 3, "user"), "\ue001": Glyph("子", 0.95, 2, "witness")})
    run = table.get("\ue000\ue001")
    assert run is not None and run.char == "君子" and run.confidence == 0.95 and run.occurrences == 2
    assert table.get("\ue000\ue002") is None


@needs_model
def test_the_glyph_table_fills_a_run_of_codes_it_knows_one_by_one():
    table = GlyphTable({"\ue000": Glyph("君", 1.0, 3, "user"), "\ue001": Glyph("子", 1.0, 2, "user")})
    result = repair.Repairer(glyph_table=table).repair_text("人不知而不慍，不亦\ue000\ue001乎？")
    assert result.text == "人不知而不慍，不亦君子乎？"


@needs_model
def test_two_gaps_that_cut_each_others_context_are_witnessed_together():
    # One character between two lost ones: neither has four characters of
    # context on that side, so each is looked up with the other as a wildcard.
    damaged = "有朋自遠方來不亦樂乎人不知而□慍□亦君子乎子曰其為人也孝弟"
    result = repair.Repairer(references=(LONG,)).repair_text(damaged)
    assert "人不知而不慍不亦君子乎" in result.text
    assert all(e.candidates[0].source.startswith("witness") for e in result.edits)


@needs_model
def test_a_neighbour_that_many_readings_fit_decides_nothing():
    # Two copies disagree on the neighbour: no single reading of it makes the
    # context witnessed, so neither gap is filled by the other's witness.
    other = LONG.replace("而不慍不亦", "而弗慍弗亦")
    damaged = "有朋自遠方來不亦樂乎人不知而□慍□亦君子乎子曰其為人也孝弟"
    result = repair.Repairer(references=(LONG, other)).repair_text(damaged)
    assert not any(e.applied and e.candidates[0].source.startswith("witness") for e in result.edits)


@needs_model
def test_a_text_holding_the_wildcard_code_point_is_not_searched_with_wildcards():
    # The joint search writes U+9FFF for the neighbour; a text that has that
    # code point of its own could make a wrong context match, so it is skipped.
    damaged = "有朋自遠方來不亦樂乎人不知而□慍□亦君子乎子曰其為人也孝弟\u9fff"
    result = repair.Repairer(references=(LONG,)).repair_text(damaged)
    # (Collation aligns the text as it is, with no wildcard code point: its readings may stand.)
    joint = [e for e in result.edits if "collation" not in e.detail]
    assert not any(e.applied and e.candidates[0].source.startswith("witness") for e in joint)
    assert result.text.endswith("\u9fff")
