"""Byte-shifted runs read from another edition: forms, marks and notes varied within what the bytes allow."""

from __future__ import annotations

from repair import Repairer
from repair.fill.byte_witness import attested, hidden, shifted
from repair.fill.run_forms import readings

RUN = "诱天下而为邪读四方之事书则以纳罔欺而已书王命而藏之则以记过恶而已"
BEFORE, AFTER = "听虽有爵禄赏赐适足", "王之丧车五乘木车蒲"


def read(stretch: str, run: str = RUN):
    observed = shifted(run, "gb18030")
    n = len(observed.rstrip("\ufffd"))
    return readings(BEFORE + stretch + AFTER, len(BEFORE), observed, {n: {AFTER[0]}}, "gb18030")


def test_the_reference_as_it_stands_is_read_with_no_change():
    assert read(RUN) == (0, {RUN: {(len(shifted(RUN, "gb18030").rstrip("\ufffd")), "王")}})


def test_another_form_a_changed_mark_and_a_note_are_read_through_the_bytes():
    # The reference writes 亊 for 事, has a 、 the document lacks, and a note in brackets.
    edition = RUN.replace("之事书", "之亊书").replace("而已书", "而已、书").replace("藏之则", "藏之（藏府也）则")
    cost, texts = read(edition)
    assert list(texts) == [RUN] and cost == 3


def test_a_stretch_the_bytes_do_not_give_is_no_reading():
    other = RUN.replace("纳罔欺", "纳其欺")
    assert read(other)[1] == {}


def test_a_run_read_from_another_edition_end_to_end():
    # Every character of this run shows in its bytes (``attested``), so another
    # edition may give it: its 爲 for 为 and its note in brackets are read through.
    run = "其为人也孝弟而好犯上者鲜矣不好犯上而好作乱者未之有也"
    assert attested(run, "gb18030")
    clean = BEFORE + run + "\n" + AFTER
    document = BEFORE + shifted(run, "gb18030") + "\n" + AFTER
    edition = BEFORE + run.replace("其为", "其爲").replace("孝弟而", "孝弟（善事父母）而") + "\n" + AFTER
    result = Repairer(references=(edition,)).repair_text(document)
    assert result.text == clean


def test_a_character_the_bytes_do_not_show_is_left_marked_unless_the_same_edition():
    # Three of RUN's characters put their bytes only into deleted pairs: another
    # edition could have anything there.  Against the same edition they are read.
    unseen = hidden(RUN, "gb18030")
    assert unseen == [4, 22, 31]
    document = BEFORE + shifted(RUN, "gb18030") + "\n" + AFTER
    edition = BEFORE + RUN.replace("之事书", "之亊书") + "\n" + AFTER
    result = Repairer(references=(edition,)).repair_text(document)
    (run,) = [e for e in result.edits if "byte_witness" in e.detail]
    assert run.after == "".join("〓" if i in unseen else c for i, c in enumerate(RUN))
    assert run.detail["byte_witness_hidden"] == [RUN[i] for i in unseen]
    # The same edition, as it stands, is trusted where the bytes are silent;
    # read through another form it is not (a note's character could hide so).
    same = Repairer(references=(BEFORE + RUN + "\n" + AFTER,), same_edition=True).repair_text(document)
    assert same.text == BEFORE + RUN + "\n" + AFTER
    varied = Repairer(references=(edition,), same_edition=True).repair_text(document)
    (run,) = [e for e in varied.edits if "byte_witness" in e.detail]
    assert run.detail["byte_witness_hidden"] == [RUN[i] for i in unseen]
