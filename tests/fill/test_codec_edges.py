"""The model checks where a re-read mojibake run begins and ends (a common character at an end reads either way)."""

from __future__ import annotations

from fill_support import needs_model

import repair

# Big5 read as GB18030: 魚 reads as 辰, a common character, so the model-free
# search cannot tell it from clean text beside the run.
CLEAN = "魚其名為鯤鯤之大不知其幾千里"
GARBLED = CLEAN.encode("big5hkscs").decode("gb18030")


def test_the_model_free_reading_misses_the_first_character():
    # The premise: without the model the run starts a character late.
    result = repair.Repairer(model=None).repair_text(GARBLED)
    assert result.text != CLEAN and result.text[1:] == CLEAN[1:]


@needs_model
def test_the_model_moves_the_end_and_says_so():
    result = repair.Repairer().repair_text(GARBLED)
    assert result.text == CLEAN
    (edit,) = [e for e in result.edits if e.kind == "codec_confusion"]
    # The channel's search reads the whole run, ends included; where it does
    # not, the edge check moves the ends and says so.
    assert edit.detail.get("channel") or "ends moved by the language model" in edit.note
    assert result.undo() == GARBLED


@needs_model
def test_clean_neighbours_are_not_taken_in():
    text = "子曰：" + GARBLED + "。此之謂也。"
    result = repair.Repairer().repair_text(text)
    assert result.text == "子曰：" + CLEAN + "。此之謂也。"


class _WantsTheSeparator:
    """A stand-in model that likes 珨, which the separator 一 re-reads as in either run."""

    def sentence_logp(self, chars: str) -> float:
        return float(chars.count("珨"))


def test_two_runs_never_take_the_same_character():
    from repair.fill.codec_edges import refine
    from repair.pipeline.apply import apply_edits
    from repair.types import Edit

    first = "學而時習之".encode("big5hkscs").decode("gb18030")
    second = "不亦說乎".encode("big5hkscs").decode("gb18030")
    text = first + "一" + second  # 一 re-reads as Han with either run
    codecs = {"codecs": ["Big5 read as GBK"]}
    edits = [
        Edit(0, len(first), first, "學而時習之", "codec_confusion", 1.0, applied=True, detail=codecs),
        Edit(len(first) + 1, len(text), second, "不亦說乎", "codec_confusion", 1.0, applied=True, detail=codecs),
    ]
    moved = refine(text, edits, _WantsTheSeparator(), placeholder="〓", margin=0.0)
    assert moved[0].end <= moved[1].start
    assert moved[0].end == len(first) + 1  # the first run took 一; the second could not
    apply_edits(text, moved)  # no overlap


# 其 in GBK (C6 E4) reads as ［ in Big5-HKSCS: a bracket the Han-only model cannot weigh.
def _gbk_as_big5(text: str) -> str:
    return text.encode("gb18030").decode("big5hkscs")


def _big5_as_gbk(text: str) -> str:
    return text.encode("big5hkscs").decode("gb18030")


@needs_model
def test_an_unpaired_bracket_at_the_end_of_a_run_is_read_as_the_character_it_garbles():
    text = "子曰：" + _gbk_as_big5("故常无欲以观其妙常有欲以观其") + "徼此两者。\n"
    assert "［徼" in text
    result = repair.Repairer().repair_text(text)
    assert result.text == "子曰：故常无欲以观其妙常有欲以观其徼此两者。\n"
    (edit,) = [e for e in result.edits if e.kind == "codec_confusion"]
    assert edit.detail.get("channel") or "bracket" in edit.note
    assert result.undo() == text


@needs_model
def test_a_clean_character_is_not_read_as_a_bracket_left_unpaired():
    # The other way: the re-reading would turn the clean 其 after the run into ［.
    text = _big5_as_gbk("不從太師之言凡是其屬（案") + "其各本訛作之）\n"
    result = repair.Repairer().repair_text(text)
    assert result.text == "不從太師之言凡是其屬（案其各本訛作之）\n"


@needs_model
def test_paired_brackets_stay_punctuation():
    text = "（" + GARBLED + "）"
    result = repair.Repairer().repair_text(text)
    assert result.text == "（" + CLEAN + "）"


@needs_model
def test_the_start_moves_back_by_two_when_both_read_better():
    # Big5 宴宴 reads as GBK 産産, two common characters the search leaves out.
    text = "爾雅注䟽卷三\n" + _big5_as_gbk("宴宴粲粲陸本宴宴作燕燕") + "\n室中謂之時堂上謂之"
    result = repair.Repairer().repair_text(text)
    assert result.text.split("\n")[1] == "宴宴粲粲陸本宴宴作燕燕"
