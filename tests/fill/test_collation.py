"""Gaps read from a reference aligned by collation, in the document's own form."""

from __future__ import annotations

import pytest

from repair import Repairer
from repair.pipeline import STAGES

REFERENCE = (
    "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎"
    "有子曰其爲人也孝弟而好犯上者鮮矣不好犯上而好作亂者未之有也君子務本本立而道生"
)


def repaired(document: str, *references: str, **settings):
    return Repairer(model=None, references=references, **settings).repair_text(document)


def collated(result):
    return [e for e in result.edits if "collation" in e.detail]


def test_the_stage_comes_between_the_channel_and_the_fill():
    names = [name for name, _ in STAGES]
    assert names.index("channel") < names.index("collate") < names.index("fill")


def test_a_gap_is_read_from_another_edition_despite_punctuation_and_variants():
    # The document writes 為 and punctuates; the reference writes 爲 and does not.
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    result = repaired(doc, REFERENCE)
    assert result.text == doc.replace("〓", "亂")
    (edit,) = collated(result)
    assert edit.applied and edit.detail["collation"]["reference"] == 1
    assert "亂" in edit.detail["collation"]["snippet"]


def test_the_document_s_own_form_is_written():
    # The reference writes 爲; the document writes 為 elsewhere, so the gap gets 為.
    doc = (
        "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。"
        "君子務本，本立而道生，孝弟也者，其〓仁之本與。子曰：巧言令色，鮮矣仁。"
    )
    ref = REFERENCE + "孝弟也者其爲仁之本與子曰巧言令色鮮矣仁"
    result = repaired(doc, ref)
    assert "其為仁之本與" in result.text


def test_a_gap_in_a_simplified_document_is_written_simplified():
    doc = "有子曰：其为人也孝弟，而好犯上者，鲜矣；不好犯上，而好作〓者，未之有也。君子务本，本立而道生。"
    assert repaired(doc, REFERENCE).text == doc.replace("〓", "乱")


def test_references_that_disagree_decide_nothing():
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    other = REFERENCE.replace("作亂", "作惡")
    result = repaired(doc, REFERENCE, other)
    assert result.text == doc
    assert not collated(result)


def test_a_gap_outside_what_the_reference_holds_is_left():
    doc = "天地玄黃宇宙洪荒日月盈昃辰宿列〓寒來暑往秋收冬藏閏餘成歲律呂調陽"
    result = repaired(doc, REFERENCE)
    assert result.text == doc


def test_a_reference_damaged_at_the_gap_fills_nothing():
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    result = repaired(doc, REFERENCE.replace("作亂", "作〓"))
    assert result.text == doc


@pytest.mark.parametrize("threshold", [0.999, 1.0])
def test_below_the_threshold_the_gap_stays_marked(threshold):
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    result = repaired(doc, REFERENCE, min_confidence=threshold)
    assert result.text == doc


def test_a_question_mark_is_not_read_as_a_character_its_code_page_holds():
    # A ? in a document whose characters all fit Big5 stood for one Big5 lacks: 亂 is in Big5.
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作?者，未之有也。君子務本，本立而道生。"
    assert repaired(doc, REFERENCE).text == doc


def test_references_are_texts_files_or_folders(tmp_path):
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "a.txt").write_bytes(REFERENCE.encode("gb18030"))
    (tmp_path / "refs" / ".hidden.txt").write_text("不相干", encoding="utf-8")
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    for given in ((tmp_path / "refs",), (tmp_path / "refs" / "a.txt",), (REFERENCE,)):
        repairer = Repairer(model=None, references=given)
        assert repairer.references == (REFERENCE,)
        assert repairer.repair_text(doc).text == doc.replace("〓", "亂")
    from repair import repair_text

    assert repair_text(doc, references=(tmp_path / "refs",)).text == doc.replace("〓", "亂")


def test_the_clean_command_takes_a_folder_of_references(tmp_path):
    from fill_support import run_repair

    refs = tmp_path / "refs"
    refs.mkdir()
    (refs / "base.txt").write_text(REFERENCE, encoding="utf-8")
    src = tmp_path / "in.txt"
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。\n"
    src.write_text(doc, encoding="utf-8")
    run_repair("clean", src, "-o", tmp_path / "out", "--reference", refs)
    assert (tmp_path / "out" / "in.txt").read_text(encoding="utf-8") == doc.replace("〓", "亂")


def test_a_lost_lead_byte_is_read_in_the_form_its_surviving_byte_allows():
    # 㑹 (a form of 会) is four bytes in GB18030; read as GBK, its lead bytes
    # are lost and two digits survive.  The reference writes 会; the bytes say 㑹.
    shown = "㑹".encode("gb18030").decode("gbk", errors="replace")
    assert shown == "\ufffd9\ufffd8"
    doc = f"子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？诸侯{shown}于京师，人不知而不愠，不亦君子乎？"
    ref = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎諸侯會於京師人不知而不慍不亦君子乎"
    result = repaired(doc, ref)
    assert result.text == doc.replace(shown, "㑹")
    (edit,) = collated(result)
    assert edit.kind == "split_char" and edit.detail["collation"]["reference_text"] == "會"


def test_a_lost_lead_byte_no_form_of_the_word_fits_is_left():
    # "98" survives of 㑹, not of any form of 侯 (the reference's word there).
    shown = "㑹".encode("gb18030").decode("gbk", errors="replace")
    doc = f"子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？诸{shown}会于京师，人不知而不愠，不亦君子乎？"
    ref = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎諸侯會於京師人不知而不慍不亦君子乎"
    result = repaired(doc, ref)
    assert not collated(result) and shown in result.text


# A note printed inside the reference, two characters after the place of a
# lost character: the same four characters on each side are not there.
WITH_NOTE = (
    "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦（注云慍怒也）君子乎？"
    "有子曰：其為人也孝弟，而好犯上者，鮮矣。"
)
CLEAN = WITH_NOTE.replace("（注云慍怒也）", "")


def test_a_silent_deletion_found_by_the_alignment_is_reported_not_written():
    doc = CLEAN.replace("而不慍", "而慍")
    result = repaired(doc, WITH_NOTE)
    assert result.text == doc
    (edit,) = [e for e in result.edits if e.kind == "deletion"]
    assert not edit.applied and edit.candidates[0].text == "不" and edit.start == doc.index("慍，不亦君")
    assert edit.detail["collation"]["reference"] == 1 and "不慍" in edit.detail["collation"]["snippet"]


def test_a_silent_deletion_is_written_against_the_same_edition():
    doc = CLEAN.replace("而不慍", "而慍")
    result = repaired(doc, WITH_NOTE, same_edition=True)
    assert result.text == CLEAN
    (edit,) = [e for e in result.edits if e.kind == "deletion"]
    assert edit.applied and "collation" in edit.detail


def test_a_deletion_beside_punctuation_goes_where_the_reference_has_it():
    # The lost 乎 ended the clause before the question mark.
    doc = CLEAN.replace("不亦說乎？", "不亦說？")
    result = repaired(doc, WITH_NOTE, same_edition=True)
    assert result.text == CLEAN


def test_references_that_disagree_about_a_deletion_decide_nothing():
    doc = CLEAN.replace("而不慍", "而慍")
    other = WITH_NOTE.replace("而不慍", "而慍")
    result = repaired(doc, WITH_NOTE, other, same_edition=True)
    assert result.text == doc
    assert not [e for e in result.edits if e.kind == "deletion" and "collation" in e.detail]


def test_a_clean_document_against_its_own_edition_gets_no_deletion():
    result = repaired(CLEAN, WITH_NOTE, same_edition=True)
    assert result.text == CLEAN and not result.edits


def test_a_lossy_mojibake_run_is_read_from_a_copy_of_the_same_edition():
    clean = "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？有子曰：其為人也孝弟。"
    run = "不亦樂乎？人不知而不慍"
    # Big5 read as GBK: the reader lost characters to U+FFFD that no model can give back.
    document = clean.replace(run, run.encode("big5").decode("gbk", errors="replace"))
    reference = clean.replace("孝弟", "孝悌")
    alone = Repairer(references=(reference,)).repair_text(document)
    assert not [e for e in alone.edits if e.kind == "codec_confusion" and "collation" in e.detail]
    same = Repairer(references=(reference,), same_edition=True).repair_text(document)
    (edit,) = [e for e in same.edits if e.kind == "codec_confusion"]
    assert same.text == clean and "collation" in edit.detail and edit.detail["collation"]["reference_text"] == run
