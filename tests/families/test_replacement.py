"""U+FFFD from a lossy decode is marked, with the raw bytes when the text came in as bytes."""

from __future__ import annotations

import pytest

from repair import repair_bytes

# (input, [(kind, exact span, start)]); the text is never changed.
CASES = [
    pytest.param("子曰\ufffd而時習之", [("replacement_char", "\ufffd", 2)], id="single"),
    pytest.param("子曰\ufffd\ufffd而", [("replacement_char", "\ufffd\ufffd", 2)], id="run-of-two"),
    pytest.param("\ufffd", [("replacement_char", "\ufffd", 0)], id="alone"),
    pytest.param(
        "學\ufffd時習之，不亦說\ufffd。",
        [("replacement_char", "\ufffd", 1), ("replacement_char", "\ufffd", 9)],
        id="two-separate",
    ),
    pytest.param("學而時習之。\n\ufffd", [("replacement_char", "\ufffd", 7)], id="own-line"),
    pytest.param("學而時習之", [], id="clean"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_replacement(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)


def test_replacement_from_bytes_is_reported_at_its_offset():
    data = "子曰".encode() + b"\xff" + "學而".encode()
    result = repair_bytes(data)
    assert result.text == "子曰\ufffd學而"
    assert [(e.kind, e.before, e.start, e.applied) for e in result.edits] == [("replacement_char", "\ufffd", 2, False)]
    assert result.undo() == result.source_text
