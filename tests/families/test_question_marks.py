"""Question marks standing for lost characters are marked; real question marks are not."""

from __future__ import annotations

import pytest

BUG_FULLWIDTH_STYLE = (
    "punctuation_style counts only ，。 and ASCII ,. : a text punctuated with ？：「」 but no ，。 "
    "counts as unpunctuated, so every ？ followed by a Han character is taken for a lost character"
)
BUG_ASCII_PARTICLE = (
    "in an ASCII-punctuated text a '?' directly followed by a Han character is always damage, even "
    "after a question particle (此何也?對曰), although the module says a '?' after a particle is real there"
)

# (input, [(kind, exact span, start)]); the text is never changed.
CASES = [
    pytest.param("反?至取矢。何也?”", [("question_mark", "?", 1)], id="docstring-example"),
    pytest.param("子曰?而時習之", [("question_mark", "?", 2)], id="ascii-between-han"),
    pytest.param("子曰??而時習之", [("question_mark", "??", 2)], id="doubled"),
    pytest.param("子曰？？而時習之，不亦說乎。", [("question_mark", "？？", 2)], id="doubled-fullwidth"),
    # A full-width ？ is punctuation the text uses, even when it is the only mark.
    pytest.param("學而時習之不亦說乎？有朋", [], id="fullwidth-as-the-only-punctuation"),
    pytest.param("（?）", [("question_mark", "?", 1)], id="after-opening-bracket"),
    pytest.param("學而，?時", [("question_mark", "?", 3)], id="after-stop"),
    pytest.param("學?，而時", [("question_mark", "?", 1)], id="before-stop"),
    pytest.param("其?也", [("question_mark", "?", 1)], id="between-han-before-particle"),
    pytest.param(
        "子曰?而時習之，不?亦說乎。",
        [("question_mark", "?", 2), ("question_mark", "?", 9)],
        id="two-in-fullwidth-text",
    ),
    # Real question marks.
    pytest.param("何也？", [], id="fullwidth-ends-question"),
    pytest.param("何也?", [], id="ascii-ends-question"),
    pytest.param("何也?\n", [], id="ascii-ends-line"),
    pytest.param("學而時習之，不亦說乎？有朋自遠方來。", [], id="fullwidth-mid-text"),
    pytest.param("子曰：「不亦說乎？」", [], id="before-closing-quote"),
    pytest.param("此何也? 對曰: 不知也.", [], id="ascii-text-space-after"),
    pytest.param("a?b", [], id="latin"),
    pytest.param("What? 學", [], id="english-question"),
    # Known problems.
    pytest.param(
        "與朋友交而不信乎？傳不習乎？",
        [],
        id="fullwidth-question-without-commas",
    ),
    pytest.param(
        "問曰：此何也?對曰：不知也.",
        [],
        id="ascii-question-after-particle-before-han",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_question_marks(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)
