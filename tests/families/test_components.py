"""Component spellings: a rare character typed as its parts is marked (candidates need a model)."""

from __future__ import annotations

import pytest

BUG_IDS_ARITY = (
    "the IDS pattern takes 2-4 elements after the operator regardless of its arity: ⿰ has two "
    "operands, but ⿰亻疑而不進 yields the span ⿰亻疑而不, running into the following text"
)
BUG_TITLE_MARKS = (
    "〈…〉 with two or three Han characters is the usual mark for a chapter title (〈學記〉, "
    "〈大學〉), and is reported as a component spelling"
)
BUG_JUNK_EATS_BRACKET = (
    "junk 'stray symbol line' has no end-of-line anchor and runs first: the '<' of a <豸干> "
    "spelling at the start of a line is removed as junk and the component span is lost"
)

# (input, [(kind, exact span, start)]); the text is never changed.
CASES = [
    pytest.param("亻疑而不進", [("component", "亻疑", 0)], id="bare-side-form"),
    pytest.param("钅薄之器", [("component", "钅薄", 0)], id="bare-metal-side-form"),
    pytest.param("其人忄然", [("component", "忄然", 2)], id="bare-heart-side-form"),
    pytest.param("‹豸干›", [("component", "‹豸干›", 0)], id="single-angle-quotes"),
    pytest.param("字作<豸干>也", [("component", "<豸干>", 2)], id="ascii-angle-brackets"),
    # 〈…〉 is also how titles are marked (〈學記〉): only claimed with a side form in it.
    pytest.param("〈豸干〉", [], id="cjk-angle-brackets-without-side-form"),
    pytest.param("〈亻疑〉", [("component", "〈亻疑〉", 0)], id="cjk-angle-brackets-with-side-form"),
    pytest.param("〈氵去〉字", [("component", "〈氵去〉", 0)], id="brackets-with-side-form"),
    pytest.param("其字作[門@里]", [("component", "[門@里]", 3)], id="composition-formula-at"),
    pytest.param("[亻+疑]而不進", [("component", "[亻+疑]", 0)], id="composition-formula-plus"),
    pytest.param("⿰亻疑", [("component", "⿰亻疑", 0)], id="ids-left-right"),
    pytest.param(
        "⿰亻疑而不進",
        [("component", "⿰亻疑", 0)],
        id="ids-followed-by-text",
    ),
    pytest.param("⿱艹⿰氵去", [("component", "⿱艹⿰氵去", 0)], id="ids-nested"),
    pytest.param(
        "亻疑者，钅薄也。",
        [("component", "亻疑", 0), ("component", "钅薄", 4)],
        id="two-spellings",
    ),
    # Near misses.
    pytest.param("亻，人也。", [], id="side-form-as-dictionary-head"),
    pytest.param("部首：亻。", [], id="side-form-as-word"),
    pytest.param("見<b>之", [], id="html-tag-is-not-han"),
    pytest.param("a<b", [], id="less-than"),
    pytest.param(
        "見〈學記〉。",
        [],
        id="chapter-title-marks",
    ),
    pytest.param(
        "<豸干>也",
        [("component", "<豸干>", 0)],
        id="angle-brackets-at-line-start",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_components(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)
