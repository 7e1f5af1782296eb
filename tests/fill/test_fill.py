"""The fill stage: candidates from the channel, the model and witnesses; calibrated decisions."""

from __future__ import annotations

from fill_support import BASE, needs_model, run_repair

import repair
from repair.fill.channel import FILLABLE, candidate_set, narrow_code_page
from repair.fill.ranker import (
    CHANNEL_OF,
    LOST_GAPS,
    RELIABILITY,
    WITNESS_CONFIDENCE,
    calibrated,
    channel_of,
    observed_accuracy,
)
from repair.fill.witness import WitnessIndex, fold
from repair.types import Edit


def test_code_page_constrains_question_marks_to_what_it_lacks():
    assert narrow_code_page("学而时习之") == "gb2312"
    narrow = candidate_set("question_mark", "gb2312")
    assert narrow and all(not _in_gb2312(c) for c in narrow[:200])
    # A document that needed GBK lost only what GBK lacks: the extension blocks.
    beyond = candidate_set("question_mark", "gbk")
    assert beyond and all(not "\u4e00" <= c <= "\u9fa5" for c in beyond)
    # A document that needed more than GBK says nothing; nor does a placeholder.
    assert candidate_set("question_mark", None) == candidate_set("placeholder", "gb2312")


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
        return True
    except UnicodeEncodeError:
        return False


def test_calibration_is_monotone_and_below_certainty():
    # Every fillable kind has a calibrated channel, and so do the gaps the codec stage marks (锟斤拷).
    assert set(CHANNEL_OF.values()) == set(RELIABILITY) and set(CHANNEL_OF) == {*FILLABLE, LOST_GAPS}
    for channel in set(CHANNEL_OF.values()):
        values = [calibrated(lo, channel) for lo, _, _ in RELIABILITY[channel]]
        assert values == sorted(values)
        assert all(0 < v < 1 for v in values)
    assert 0.9 < WITNESS_CONFIDENCE < 1


def test_model_alone_may_fill_only_where_calibration_saw_at_most_one_percent_wrong():
    for channel, rows in RELIABILITY.items():
        for lo, n, k in rows:
            if observed_accuracy(lo, rows) >= 0.9:
                assert n - k <= 0.01 * n, channel
    # A home-made glyph is never filled on the model's word, however sure it is.
    assert calibrated(0.99999, channel_of("private_use", None)) < 0.5
    assert calibrated(0.99999, channel_of("foreign_symbol", "big5")) < 0.5
    assert (
        calibrated(0.9995, channel_of("placeholder", None)) > 0.9 > calibrated(0.995, channel_of("placeholder", None))
    )
    page_loss = channel_of("question_mark", "gb2312")
    assert calibrated(0.995, page_loss) > 0.9 > calibrated(0.98, page_loss)
    # A ``?`` with no known page is as open as a placeholder.
    assert channel_of("question_mark", None) == channel_of("placeholder", "gb2312")


def test_witness_index_finds_the_fill_across_scripts_and_punctuation():
    index = WitnessIndex(["學而時習之，不亦說乎"])
    assert index.lookup("學而時", "之不亦說") == {}  # three characters of context are too few
    assert dict(index.lookup("子曰學而時", "之不亦說")) == {}
    index.add("子曰學而時習之不亦說乎")
    assert dict(index.lookup("子曰學而時", "之不亦說")) == {"習": 1}


@needs_model
def test_witness_restores_a_lost_character():
    text = "子曰：學而時?之，不亦說乎？有朋自遠方來，不亦樂乎？"
    result = repair.Repairer(references=(BASE,)).repair_text(text)
    (edit,) = result.edits
    assert edit.kind == "question_mark" and edit.applied and edit.after == "習"
    assert edit.candidates[0].source.startswith("witness")
    assert result.undo() == text


@needs_model
def test_witness_in_simplified_document_writes_simplified():
    text = "子曰：学而时?之，不亦说乎？有朋自远方来，不亦乐乎？"
    result = repair.Repairer(references=(BASE,)).repair_text(text)
    assert result.text == "子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？"


@needs_model
def test_without_witness_the_model_ranks_but_does_not_guess():
    text = "子曰：學而時?之，不亦說乎？"
    result = repair.repair_text(text)
    (edit,) = result.edits
    assert not edit.applied and result.text == text
    assert 1 <= len(edit.candidates) <= 5 and edit.confidence < 0.9
    assert "raw_posterior" in edit.detail


@needs_model
def test_recurring_code_is_decided_once_for_all_occurrences():
    text = "子曰學而時\ue000之，不亦說乎。溫故而知新，子曰學而時\ue000之。"
    result = repair.Repairer(references=(BASE,)).repair_text(text)
    fills = {e.after for e in result.edits if e.kind == "private_use"}
    assert len(fills) == 1 and all(e.applied for e in result.edits if e.kind == "private_use")


@needs_model
def test_clean_reference_option(tmp_path):
    ref = tmp_path / "base.txt"
    ref.write_text(BASE, encoding="utf-8")
    src = tmp_path / "in.txt"
    src.write_text("子曰：學而時?之，不亦說乎？\n", encoding="utf-8")
    out = tmp_path / "out"
    run_repair("clean", src, "-o", out, "--reference", ref)
    assert (out / "in.txt").read_text(encoding="utf-8") == "子曰：學而時習之，不亦說乎？\n"


@needs_model
def test_batch_witnesses_each_other(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("論語曰：學而時?之，不亦說乎？\n", encoding="utf-8")
    out = tmp_path / "out"
    run_repair("clean", a, b, "-o", out)
    assert (out / "b.txt").read_text(encoding="utf-8") == "論語曰：學而時習之，不亦說乎？\n"
    # Alone, the same file keeps its mark: no witness, and the model does not guess.
    alone = repair.repair_text(b.read_text(encoding="utf-8"))
    assert alone.text == b.read_text(encoding="utf-8")


@needs_model
def test_batch_index_holds_only_the_gaps_contexts():
    texts = ["子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？", "論語曰：學而時?之，不亦說乎？"]
    repairer = repair.Repairer()
    repairer.with_batch_witnesses(lambda: iter(texts))
    fills = {k: dict(v) for k, v in repairer._witnesses.fills.items()}
    # The ``?`` and the 之 after it may be one glyph in two codes
    # (repair.fill.code_pairs), so the context past 之 is a gap's context too.
    assert fills == {fold("曰學而時之不亦說"): {"習": 1}, fold("曰學而時不亦說乎"): {"之": 1}}


def test_witness_keys_do_not_depend_on_how_opencc_splits_phrases():
    # Converted whole, 羑里 keeps 里; converted as a short context, 邪里操 gets 裏.
    index = WitnessIndex(["皇皇汲汲其敢已邪羑里操曰臣罪当诛兮"])
    assert index.lookup("其敢已邪", "里操曰臣") == {"羑": 1}
    assert index.lookup("其敢已邪", "裏操曰臣") == {"羑": 1}


def test_a_foreign_symbol_does_not_join_the_contexts_around_it():
    from repair.fill.ranker import left_context, masked_text

    text = "逐其帥薛ス薛ス奔洺州"
    edits = [Edit(i, i + 1, "ス", "ス", "foreign_symbol", 0.0) for i, ch in enumerate(text) if ch == "ス"]
    assert left_context(text, 6) == "逐其帥薛薛"  # the symbol vanishes from the projection
    assert left_context(masked_text(text, edits), 6) == "薛"


@needs_model
def test_a_code_that_recurs_next_to_itself_is_decided_by_witnesses_of_all_occurrences():
    reference = "酉昭義牙將裴志清逐其帥薛嵩薛嵩奔洺州上章待罪志清率衆"
    damaged = "酉昭义牙将裴志清逐其帅薛ス薛ス奔洺州上章待罪志清率众"
    result = repair.Repairer(references=(reference,)).repair_text(damaged)
    assert result.text == damaged.replace("ス", "嵩")
    assert all("witness" in e.candidates[0].source for e in result.edits)
    # Without the reference the code stays marked.
    assert repair.Repairer().repair_text(damaged).text == damaged


@needs_model
def test_a_run_of_two_marks_is_one_or_two_characters_as_other_copies_say():
    repairer = repair.Repairer(references=(BASE,))
    two = repairer.repair_text("不亦說乎有朋自??來不亦樂乎")
    assert two.text == "不亦說乎有朋自遠方來不亦樂乎" and two.edits[0].after == "遠方"
    one = repairer.repair_text("學而時習之不亦\ufffd\ufffd乎有朋自遠")
    assert one.text == "學而時習之不亦說乎有朋自遠"
    assert two.undo() == "不亦說乎有朋自??來不亦樂乎"


@needs_model
def test_copies_that_disagree_on_one_or_two_characters_decide_nothing():
    other = BASE.replace("自遠方來", "自方來")
    result = repair.Repairer(references=(BASE, other)).repair_text("不亦說乎有朋自??來不亦樂乎")
    assert result.text == "不亦說乎有朋自??來不亦樂乎"
    assert not result.edits[0].applied


@needs_model
def test_a_batch_witnesses_two_character_runs_too():
    texts = ["子曰：學而時習之，不亦說乎，有朋自遠方來，不亦樂乎？", "論語：不亦說乎，有朋自??來，不亦樂乎？"]
    repairer = repair.Repairer()
    repairer.with_batch_witnesses(lambda: iter(texts))
    assert repairer.repair_text(texts[1]).text == "論語：不亦說乎，有朋自遠方來，不亦樂乎？"


@needs_model
def test_the_model_alone_never_fills_a_run_of_two_marks_but_lists_two_character_readings():
    # 三皁為繫，繫一馭夫: the two placeholders are two characters, which a
    # one-character answer cannot be, however sure the model is of 繫.
    text = "地官司徒第二校人掌王馬之政三乘為皁皁一趣馬三皁為〓〓一馭夫六繫為廏"
    (edit,) = repair.Repairer().repair_text(text).edits
    assert not edit.applied and edit.confidence < 0.9
    pairs = [c.text for c in edit.candidates if c.source == "lm, 2 characters"]
    assert pairs and all(len(p) == 2 for p in pairs)


def test_the_clean_text_keeps_a_cut_where_a_gap_was():
    # Joined across the gap, 必先ス于闲隙 read 必先于闲隙: the document seemed to
    # witness its other gap (必先ス闲隙) with 于.
    from repair.fill.ranker import clean_text as _clean_text
    from repair.lm.tokens import han_projection

    text = "天子必先ス闲隙之地天子必先ス于闲隙之地"
    edits = [Edit(i, i + 1, "ス", "ス", "foreign_symbol", 0.0) for i, ch in enumerate(text) if ch == "ス"]
    assert han_projection(_clean_text(text, edits)) == ["天子必先", "闲隙之地天子必先", "于闲隙之地"]


@needs_model
def test_a_witnessed_question_mark_the_page_holds_lifts_the_page_constraint():
    # Everything here is GB2312, so a ? would stand for what GB2312 lacks,
    # unless another copy shows a ? that GB2312 holds (a home-made glyph lost
    # in a later conversion): then the other ? may be any character, too.
    text = "主人升自西阶宾降?堂西，主人揖让如初。司射?阶上北面告于公"
    witnessed = "主人升自西阶宾降适堂西，主人揖让如初"
    plain = repair.Repairer().repair_text(text)
    lifted = repair.Repairer(references=(witnessed,)).repair_text(text)
    first, second = lifted.edits
    assert first.applied and first.after == "适"
    assert all(not _in_gb2312(c.text) for c in plain.edits[1].candidates if "lm" in c.source)
    assert any(_in_gb2312(c.text) for c in second.candidates)
    # ... and is trusted as a placeholder is, not as a narrowed ``?``.
    assert second.confidence in {calibrated(lo) for lo, _, _ in RELIABILITY["any character"]}


@needs_model
def test_a_witness_keeps_its_own_characters_in_a_traditional_text():
    # 云 ("says") and 从 are characters of traditional texts too: a traditional
    # copy's reading is written as it is, not converted to 雲 or 從.
    reference = "兄弟交相為瘉斯干云兄及弟矣無相猶矣說文曰从之从土从寸守其制度也"
    text = "兄弟交相為瘉斯干□兄及弟矣無相猶矣說文曰从之从土\ufffd寸守其制度也"
    result = repair.Repairer(references=(reference,)).repair_text(text)
    assert [e.after for e in result.edits if e.applied] == ["云", "从"]
    assert result.text == reference
