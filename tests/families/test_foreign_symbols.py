"""Foreign symbols amid Han text (kana, bopomofo, Greek, circled numbers …) are marked."""

from __future__ import annotations

import pytest

BUG_JAPANESE = (
    "foreign_symbol judges each kana run by its two neighbours only: in a Japanese sentence the "
    "kana between kanji (の, は, です) are reported as stand-ins for rare characters"
)

# (input, [(kind, exact span, start)]); the text is never changed.
CASES = [
    pytest.param(
        "鹑β。饮い鳖 αβγ表",
        [("foreign_symbol", "β", 1), ("foreign_symbol", "い", 4)],
        id="docstring-example",
    ),
    pytest.param("子曰ㄅ而時習之", [("foreign_symbol", "ㄅ", 2)], id="bopomofo"),
    pytest.param("其字ㄅㄆ而", [("foreign_symbol", "ㄅㄆ", 2)], id="run-of-two"),
    pytest.param("子曰ア而時", [("foreign_symbol", "ア", 2)], id="katakana"),
    pytest.param("子曰①而", [("foreign_symbol", "①", 2)], id="circled-number"),
    pytest.param("學而Ⅱ時", [("foreign_symbol", "Ⅱ", 2)], id="roman-numeral"),
    pytest.param("學而ā時", [("foreign_symbol", "ā", 2)], id="pinyin-letter"),
    pytest.param("子曰ａ而", [("foreign_symbol", "ａ", 2)], id="fullwidth-latin"),
    pytest.param("學而─時", [("foreign_symbol", "─", 2)], id="box-drawing"),
    pytest.param("п學", [("foreign_symbol", "п", 0)], id="cyrillic-at-start"),
    pytest.param("甲、β、乙", [("foreign_symbol", "β", 2)], id="list-item"),
    pytest.param("鹑、β。", [("foreign_symbol", "β", 2)], id="list-item-before-stop"),
    # Text, not damage.
    pytest.param("αβγ", [], id="greek-word"),
    pytest.param("希臘文 αβγ 者", [], id="greek-word-between-spaces"),
    pytest.param("其字ㄅㄆㄇ而", [], id="run-longer-than-two"),
    pytest.param("學而Ā時", [], id="pinyin-capital"),
    pytest.param("(β)", [], id="latin-brackets"),
    pytest.param("β-carotene 是", [], id="latin-context"),
    pytest.param(
        "これは日本語です。",
        [],
        id="japanese-sentence",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_foreign_symbols(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)


def test_kana_inside_mojibake_do_not_make_the_text_japanese():
    # Big5 read as GBK is full of kana (ゑぃア…); they belong to the codec
    # confusion, and the lone ラ elsewhere is still a stand-in.
    from repair import Repairer

    garbled = "履得其位比不失賢處不失位".encode("big5hkscs").decode("gb18030")
    result = Repairer(model=None).repair_text("子曰：" + garbled + "。又曰：王韓ラ有罪削爵徙邊。")
    assert [(e.kind, e.before) for e in result.edits if e.kind == "foreign_symbol"] == [("foreign_symbol", "ラ")]
