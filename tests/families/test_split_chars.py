"""A lost lead byte: a mark and the byte that survived are one character, marked as one span."""

from __future__ import annotations

import pytest

# (input, [(kind, exact span, start)]): what a reader of a narrower code page
# shows for a character it lacks, and look-alikes that are not that.
CASES = [
    pytest.param("有朋自\ufffdR方来", [("split_char", "\ufffdR", 3)], id="gbk-read-as-gb2312"),
    pytest.param("有朋自?R方来", [("split_char", "?R", 3)], id="question-mark-converter"),
    pytest.param("一名\ufffd3\ufffd0负", [("split_char", "\ufffd3\ufffd0", 2)], id="four-byte-digits"),
    pytest.param("一名?3?0〓及", [("split_char", "?3?0", 2), ("placeholder", "〓", 6)], id="before-other-damage"),
    pytest.param("\ufffd@方百里", [("split_char", "\ufffd@", 0)], id="line-start-after-fffd"),
    pytest.param(
        "王\ufffd8\ufffd3\ufffd8\ufffd3之母",
        [("split_char", "\ufffd8\ufffd3", 1), ("split_char", "\ufffd8\ufffd3", 5)],
        id="two-lost-side-by-side",
    ),
    pytest.param("公侯\ufffd@\n伯", [("split_char", "\ufffd@", 2)], id="line-end-after-fffd"),
    # Not this channel: a real question mark closing a bracket, or before Latin text.
    pytest.param("[何也?]", [], id="bracket"),
    pytest.param("何也?OK", [], id="latin-word"),
    pytest.param("A?B", [], id="ascii"),
    pytest.param("为什么?A股大涨，你知道吗?B超", [], id="question-then-latin-word"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_split_chars(repaired, observed, text, expected):
    result = repaired(text, min_confidence=1.0)
    assert [s for s in observed(result) if s[0] in ("split_char", "placeholder")] == expected
    assert result.text == text


def test_surviving_bytes_are_recorded(repaired):
    (edit,) = repaired("有朋自\ufffdR方来", min_confidence=1.0).edits
    assert edit.detail["bytes"] == "?? 52"
