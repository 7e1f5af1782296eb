"""A byte-shifted run read whole from another copy, checked byte for byte (repair.fill.byte_witness)."""

from __future__ import annotations

from fill_support import needs_model

import repair
from repair.fill import byte_witness
from repair.fill.byte_witness import run_reading, shifted
from repair.fill.witness import fold

# A simplified GBK line whose first byte was lost: the whole line out of phase.
LINE = "是故朝廷同爵则尚齿七十杖于朝君问则席八十不俟朝"
BEFORE = "作烹非是礼也\n"
AFTER = "\n延平周氏曰孔子之言"
CLEAN = BEFORE + LINE + AFTER


def _damaged(line: str = LINE) -> str:
    return BEFORE + shifted(line, "gb18030") + AFTER


def _copies(*texts: str) -> list[tuple[str, str]]:
    return [(t, fold(t)) for t in texts]


def test_the_channel_drops_a_byte_and_the_private_use_pairs():
    # 之 乎: D6 AE BA F5; without D6, AE BA is a private-use code and goes.
    assert shifted("之乎", "gb18030") == "\ufffd"
    assert "\ue000" not in shifted(LINE, "gb18030") and shifted(LINE, "gb18030").endswith("\ufffd")


def test_the_stretch_whose_bytes_give_back_the_run_is_its_text():
    text = _damaged()
    start = len(BEFORE)
    end = start + len(shifted(LINE, "gb18030"))
    assert run_reading(text, start, end, "gb18030", _copies(CLEAN), True) == (start, end, LINE, 1)


def test_another_reading_there_decides_nothing():
    # Another edition with one character otherwise: its bytes do not give back the run.
    variant = CLEAN.replace("尚齿", "上齿")
    text = _damaged()
    start = len(BEFORE)
    end = start + len(shifted(LINE, "gb18030"))
    assert run_reading(text, start, end, "gb18030", _copies(variant), True) is None


def test_a_copy_that_breaks_its_lines_elsewhere_still_anchors():
    copy = CLEAN.replace("\n", "")
    text = _damaged()
    start = len(BEFORE)
    end = start + len(shifted(LINE, "gb18030"))
    assert run_reading(text, start, end, "gb18030", _copies(copy), True)[2] == LINE


def test_a_traditional_copy_witnesses_a_simplified_run():
    copy = "作烹非是禮也\n是故朝廷同爵則尚齒七十杖於朝君問則席八十不俟朝\n延平周氏曰孔子之言"
    text = _damaged()
    start = len(BEFORE)
    end = start + len(shifted(LINE, "gb18030"))
    got = run_reading(text, start, end, "gb18030", _copies(copy), True)
    assert got is not None and got[2] == LINE


def test_the_detected_span_may_be_a_character_off():
    text = _damaged()
    start = len(BEFORE)
    end = start + len(shifted(LINE, "gb18030"))
    assert run_reading(text, start + 1, end, "gb18030", _copies(CLEAN), True) == (start, end, LINE, 1)


def test_no_copy_no_reading():
    text = _damaged()
    assert run_reading(text, len(BEFORE), len(text) - len(AFTER), "gb18030", [], True) is None


@needs_model
def test_a_reference_restores_the_run_exactly_and_the_report_can_undo_it():
    text = _damaged()
    result = repair.Repairer(references=(CLEAN,), same_edition=True).repair_text(text)
    assert result.text == CLEAN
    (e,) = [e for e in result.edits if e.kind == "byte_shift"]
    assert e.applied and e.detail["byte_witness"] == 1 and not e.slots
    assert result.undo() == text


def test_a_character_the_bytes_do_not_show_is_not_attested():
    from repair.fill.byte_witness import attested

    # 玄 ends in the byte AB: with the comma after it (A3 AC) both out-of-phase
    # pairs are private-use codes, deleted, so the run is the same with or without it.
    with_comma, without = "子曰玄，天而时习之", "子曰玄天而时习之"
    assert shifted(with_comma, "gb18030").rstrip("\ufffd") == shifted(without, "gb18030").rstrip("\ufffd")
    assert not attested(with_comma, "gb18030") and attested(without, "gb18030")
    assert attested("子曰学而时习之", "gb18030")


def test_what_the_bytes_do_not_show_stays_marked_unless_the_copy_is_the_same_edition():
    unseen = byte_witness.hidden(LINE, "gb18030")
    assert unseen
    result = repair.Repairer(references=(CLEAN,)).repair_text(_damaged())
    (e,) = [e for e in result.edits if e.kind == "byte_shift"]
    assert e.applied and e.detail["byte_witness_hidden"] == [LINE[i] for i in unseen]
    assert [s.offset for s in e.slots] == unseen and all(e.after[i] == "〓" for i in unseen)
    # Every other character is the copy's, shown by the bytes.
    assert all(a == b for i, (a, b) in enumerate(zip(e.after, LINE, strict=True)) if i not in unseen)


@needs_model
def test_without_a_reference_the_run_keeps_its_holes():
    result = repair.Repairer().repair_text(_damaged())
    (e,) = [e for e in result.edits if e.kind == "byte_shift"]
    assert "byte_witness" not in e.detail
    assert result.text != CLEAN


def test_the_aligned_search_gives_up_past_its_budget_instead_of_growing_as_a_cube():
    from repair.fill import byte_witness

    # Every character is a possible left and right neighbour: every stretch would be shifted.
    region = "之" * 600
    assert byte_witness._aligned_readings([region], "gbk", False, 400, {"之"}, {"之"}) == {}
    # A region of ordinary text: only stretches between the right neighbours are shifted, and read.
    clean = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎"
    got = byte_witness._aligned_readings([clean], "gbk", False, 40, {"而"}, {"有"})
    assert got == {byte_witness.shifted("時習之不亦說乎", "gbk").rstrip("\ufffd"): {("而", "時習之不亦說乎", "有")}}
