"""Placeholders an editor left for unknown characters (囗 □ 〓 ■) are marked as runs."""

from __future__ import annotations

import pytest

# (input, [(kind, exact span, start)]); the text is never changed.
CASES = [
    pytest.param("子曰囗而時習之", [("placeholder", "囗", 2)], id="enclosure"),
    pytest.param("子曰□□而", [("placeholder", "□□", 2)], id="white-squares"),
    pytest.param("子曰〓而", [("placeholder", "〓", 2)], id="geta"),
    pytest.param("子曰■而", [("placeholder", "■", 2)], id="black-square"),
    pytest.param("□〓囗", [("placeholder", "□〓囗", 0)], id="mixed-run"),
    pytest.param(
        "學〓時習之，不亦說□。",
        [("placeholder", "〓", 1), ("placeholder", "□", 9)],
        id="two-runs",
    ),
    pytest.param("學而時習之○不亦說乎", [], id="circle-is-an-editorial-mark"),
    pytest.param("【經】學而時習之", [], id="lenticular-brackets"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_placeholders(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)


def test_placeholder_setting_does_not_change_detection(repaired, observed):
    # The chosen output placeholder is a setting; the family still marks 〓 found in the input.
    result = repaired("子曰〓而", placeholder="□")
    assert observed(result) == [("placeholder", "〓", 2)]
