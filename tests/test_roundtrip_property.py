"""Property: on any mix of text and damage, the edits are exact, reversible and final."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from repair import repair_text
from repair.report import build_report, dumps, rebuild_input, schema

HAN = "之乎者也學而時習不亦說朋自遠方來樂人知慍君子"
CJK_PUNCTUATION = "，。、“”《》？"
ASCII = "abcXYZ019 .,;:!?-()'\"&#%\\"
MOJIBAKE_UTF8_AS_GBK = "中文用户".encode().decode("gb18030", "replace")
DAMAGE = (
    "\ue000",
    "\ue8f5",
    "\U000f0001",
    "?",
    "??",
    "\ufffd",
    "&#x5B78;",
    "&#23416;",
    "\\u4e00",
    "%E5%AD%B8",
    "⼈",
    "⼦",
    "⺡",
    "-abcshuwu.com",
    "【来源：读书之家-dushuzhijia.com】",
    "い",
    "囗",
    "□",
    "〓",
    "锟斤拷",
    "亻疑",
    MOJIBAKE_UTF8_AS_GBK,
    "學而時習之".encode().decode("gbk", "replace"),
    "子曰學而".encode("gbk").decode("cp1252", "replace"),
)

token = st.one_of(
    st.sampled_from(HAN),
    st.sampled_from(CJK_PUNCTUATION),
    st.sampled_from(ASCII),
    st.just("\n"),
    st.sampled_from(DAMAGE),
)
texts = st.lists(token, max_size=40).map("".join)

VALIDATOR = jsonschema.Draft202012Validator(schema())


def apply_applied(text: str, edits) -> str:
    """Replace input[start:end] by after for exactly the applied edits, in order."""
    out, pos = [], 0
    for e in sorted((e for e in edits if e.applied), key=lambda e: e.start):
        out.append(text[pos : e.start])
        out.append(e.after)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def check_exact(text: str) -> None:
    result = repair_text(text)
    assert result.source_text == text

    # (d) edits lie inside the input, name it exactly, and do not overlap.
    previous_end = 0
    for e in sorted(result.edits, key=lambda e: e.start):
        assert 0 <= e.start <= e.end <= len(text)
        assert e.before == text[e.start : e.end]
        assert e.start >= previous_end, "overlapping edits"
        previous_end = e.end
        if not e.applied:
            assert e.after == e.before
        assert result.text[e.out_start : e.out_end] == (e.after if e.applied else e.before)

    # (a) the applied edits alone turn the input into the output.
    assert apply_applied(text, result.edits) == result.text

    # (b) undo from the result.
    assert result.undo() == text

    # (c) undo from the JSON report alone, after a round trip through its serialised form.
    report = json.loads(dumps(build_report(result, input_path=None, output_path=None, input_bytes=None, settings={})))
    assert VALIDATOR.is_valid(report), [e.message for e in VALIDATOR.iter_errors(report)]
    assert rebuild_input(result.text, report) == text


@settings(max_examples=200, deadline=None)
@given(texts)
@example("子曰&#x5B78;而時習之")
@example("子曰" + MOJIBAKE_UTF8_AS_GBK + "學而時習之？")
@example("學而-abcshuwu.com\n⼈之??\ue000〓\ufffd")
@example("")
def test_edits_are_exact_and_reversible(text: str) -> None:
    check_exact(text)


clean_texts = st.lists(
    st.one_of(st.sampled_from(HAN), st.sampled_from(CJK_PUNCTUATION), st.sampled_from("\n \u3000")), max_size=60
).map("".join)


@settings(max_examples=200, deadline=None)
@given(clean_texts)
@example("子曰：學而時習之，不亦說乎？人不知而不慍，不亦君子乎？")
def test_clean_text_is_left_alone(text: str) -> None:
    """Ordinary characters and punctuation (慍 is rare but real) need no repair."""
    result = repair_text(text)
    assert result.applied == (), result.applied
    assert result.text == text


# Counterexamples hypothesis found for (e); each cause has its own test below.
BYTE_SHIFT_ON_MARKED = "之乎\ue000〓\ufffd者也"
MOJIBAKE_AFTER_RARE = "不慍" + MOJIBAKE_UTF8_AS_GBK + "也"
MOJIBAKE_AFTER_RADICAL = "⼈" + MOJIBAKE_UTF8_AS_GBK
MOJIBAKE_BEFORE_RADICAL = MOJIBAKE_UTF8_AS_GBK + "之之之⼈"
JUNK_CASCADE = "子曰\n-【来源：读书之家-dushuzhijia.com】\n學而"
WATERMARK_LINES = "-abcshuwu.com\n-abcshuwu.com\n學而"
RADICAL_BEFORE_LOSSY_MOJIBAKE = "⼈" + DAMAGE[-2]

IDEMPOTENCE_BUGS = (
    "not idempotent because of bugs in repair/, each with its own test below: codec_confusion misses mojibake "
    "next to a radical stand-in or rare character and finds it once the radical is repaired; junk removal "
    "leaves a '-' or '#' alone on its line, which the next run removes; and of two consecutive watermark lines "
    "only the first is removed (the second match starts with the newline the first one already took)"
)


# derandomize: the same 200 examples every run, so CI is reproducible; a
# counterexample found by a random run gets its own test below.
@settings(max_examples=200, deadline=None, derandomize=True)
@given(texts)
@example("子曰&#x5B78;而時習之")
@example("學而-abcshuwu.com\n⼈之??\ue000〓\ufffd")
@example(MOJIBAKE_AFTER_RADICAL)
@example(MOJIBAKE_BEFORE_RADICAL)
@example(JUNK_CASCADE)
@example(RADICAL_BEFORE_LOSSY_MOJIBAKE)
@example(WATERMARK_LINES)
def test_repair_is_idempotent(text: str) -> None:
    """(e) The output needs no further repair: a second run applies nothing."""
    result = repair_text(text)
    again = repair_text(result.text)
    assert again.applied == (), (result.text, again.applied)
    assert again.text == result.text


MOJIBAKE_AFTER_RADICAL_AND_QUOTE = "⼈“×ÓÔ»ŒW¶ø"  # 子曰學而 as GBK read as cp1252


def test_mojibake_after_radical_and_quote_is_repaired_in_one_run() -> None:
    """Found by (e) in a random run: “ is one byte in cp1252, so the GBK reading of the core was out
    of step and the confusion looked hopeless; both byte phases are now read."""
    result = repair_text(MOJIBAKE_AFTER_RADICAL_AND_QUOTE)
    assert result.text == "人“子曰學而"


def test_byte_shift_leaves_marked_damage_alone() -> None:
    """Found by (e): byte_shift once re-read PUA+〓+U+FFFD as '〓\\u3000〓' at confidence 0.999."""
    result = repair_text(BYTE_SHIFT_ON_MARKED)
    assert result.applied == ()
    assert result.text == BYTE_SHIFT_ON_MARKED


PREFILTER_SEES_NEIGHBOURS = (
    "codec_confusion.promising() reads the whole improbable core of the stretch, genuine neighbours included "
    "(⼈, 慍, ，, 人不知, 也不 re-encoded as GBK are not UTF-8, so >30% U+FFFD), finds no promising confusion and "
    "returns before the inward trims that would isolate the mojibake are tried"
)
SCRIPT_FROM_JUNK = (
    "Document.script is judged on the whole text, the watermark included: the simplified 来源/读书之家 make "
    "the document 'simplified', so the traditional re-reading 學〓時習之 is refused"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(MOJIBAKE_AFTER_RARE, "不慍中文用户也", id="rare-just-before"),
        pytest.param(MOJIBAKE_AFTER_RADICAL, "人中文用户", id="radical-just-before"),
        pytest.param(MOJIBAKE_BEFORE_RADICAL, "中文用户之之之人", id="radical-4-after"),
        pytest.param(
            "【来源：读书之家-dushuzhijia.com】" + MOJIBAKE_UTF8_AS_GBK, "中文用户", id="watermark-just-before"
        ),
        pytest.param(
            "人不慍，" + MOJIBAKE_UTF8_AS_GBK + "也",
            "人不慍，中文用户也",
            id="rare-2-before",
        ),
        pytest.param(
            "不慍，人不知" + MOJIBAKE_UTF8_AS_GBK + "也",
            "不慍，人不知中文用户也",
            id="rare-5-before",
        ),
        pytest.param(
            "子曰" + MOJIBAKE_UTF8_AS_GBK + "也不慍",
            "子曰中文用户也不慍",
            id="rare-2-after",
        ),
        pytest.param(
            RADICAL_BEFORE_LOSSY_MOJIBAKE,
            # 而 lost a byte (U+FFFD); the channel's 64 candidates and the model read it back.
            "人學而時習之",
            id="radical-just-before-lossy",
        ),
        pytest.param(
            MOJIBAKE_UTF8_AS_GBK + "乎⼈",
            "中文用户乎人",
            id="radical-2-after",
        ),
        pytest.param(
            "子曰" + MOJIBAKE_UTF8_AS_GBK + "，人不慍",
            "子曰中文用户，人不慍",
            id="rare-3-after",
        ),
        pytest.param(
            "【来源：读书之家-dushuzhijia.com】\n" + DAMAGE[-2],
            "學而時習之",
            id="traditional-after-simplified-watermark",
        ),
    ],
)
def test_mojibake_next_to_a_rare_character_is_repaired(text: str, expected: str) -> None:
    assert repair_text(text).text == expected


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("子曰" + MOJIBAKE_UTF8_AS_GBK + "也不慍", "也不慍"),
        ("子曰" + MOJIBAKE_UTF8_AS_GBK + "也", "也"),
        ("不慍" + MOJIBAKE_UTF8_AS_GBK + "也", "不慍"),
    ],
)
def test_mojibake_repair_never_eats_its_neighbours(text: str, kept: str) -> None:
    """Precision: whether or not the mojibake is repaired, the genuine characters next to it stay.

    (codec_confusion once took 也 = GBK D2 B2 into the span and wrote U+04B2 'Ҳ', valid UTF-8, for it.)
    """
    out = repair_text(text).text
    assert kept in out
    assert all(ord(c) < 0x80 or ord(c) >= 0x2E80 for c in out), out  # no Latin-1, Cyrillic, ...


def test_mojibake_alone_is_repaired() -> None:
    """The control for the test above: the same mojibake after common characters is repaired."""
    assert repair_text("人不知" + MOJIBAKE_UTF8_AS_GBK + "也").text == "人不知中文用户也"


@pytest.mark.parametrize("text", [JUNK_CASCADE, "#-abcshuwu.com"])
def test_junk_removal_reaches_a_fixed_point(text: str) -> None:
    once = repair_text(text).text
    assert repair_text(once).applied == (), once


def test_every_watermark_line_is_removed() -> None:
    assert repair_text(WATERMARK_LINES).text == "學而"
