"""A lone 囗 is the character itself unless other copies read it otherwise."""

from __future__ import annotations

from fill_support import needs_model

import repair

REFERENCE = "有朋自遠方來不亦樂乎人不知而不慍不亦君子乎"


@needs_model
def test_a_lone_box_other_copies_read_otherwise_is_a_placeholder():
    # At a line start 囗 is taken for the character itself, unless other
    # copies have another character in its place.
    text = "有朋自遠方來，不亦樂乎。\n囗不知而不慍，不亦君子乎。"
    alone = repair.repair_text(text)
    assert alone.text == text and not alone.edits
    (edit,) = repair.Repairer(references=(REFERENCE,)).repair_text(text).edits
    assert edit.kind == "placeholder" and edit.applied and edit.after == "人"
    assert edit.detail.get("witnessed")


@needs_model
def test_a_lone_box_other_copies_also_have_stays():
    text = "說文解字：囗，回也。象回帀之形。"
    result = repair.Repairer(references=("說文解字囗回也象回帀之形凡囗之屬皆从囗",)).repair_text(text)
    assert result.text == text
    assert not any(e.applied for e in result.edits)


@needs_model
def test_a_lone_box_is_left_alone_when_the_placeholder_family_is_off():
    text = "有朋自遠方來，不亦樂乎。\n囗不知而不慍，不亦君子乎。"
    result = repair.Repairer(references=(REFERENCE,), families=("junk",)).repair_text(text)
    assert result.text == text


@needs_model
def test_a_batch_reads_its_own_lone_boxes():
    texts = [
        "有朋自遠方來，不亦樂乎。人不知而不慍，不亦君子乎。",
        "有朋自遠方來，不亦樂乎。\n囗不知而不慍，不亦君子乎。",
    ]
    repairer = repair.Repairer()
    repairer.with_batch_witnesses(lambda: iter(texts))
    assert repairer.repair_text(texts[1]).text == texts[0].replace("。人", "。\n人")


@needs_model
def test_a_documents_own_parallel_phrase_is_no_other_copy():
    # The document itself reads 不知而 elsewhere; in a batch that is not another copy's witness.
    text = "有朋自遠方來，不亦樂乎。\n囗不知而不慍，不亦君子乎。有朋自遠方來，不亦樂乎。人不知而不慍。"
    repairer = repair.Repairer()
    repairer.with_batch_witnesses(lambda: iter([text]))
    assert repairer.repair_text(text).text == text
