"""Private-use code points are marked as one run each; the text is never changed."""

from __future__ import annotations

import pytest

# (input, [(kind, exact span, start)])
CASES = [
    pytest.param("子曰\ue000而時習之", [("private_use", "\ue000", 2)], id="bmp-start-of-area"),
    pytest.param("子曰\ue4c6\ue4c7而", [("private_use", "\ue4c6\ue4c7", 2)], id="run-of-two-gbk-user-area"),
    pytest.param("\uf8ff", [("private_use", "\uf8ff", 0)], id="bmp-end-of-area"),
    pytest.param("\U000f0001字", [("private_use", "\U000f0001", 0)], id="plane-15"),
    pytest.param("字\U00100000", [("private_use", "\U00100000", 1)], id="plane-16"),
    pytest.param(
        "學\ue234時習之，不亦\ue234乎。",
        [("private_use", "\ue234", 1), ("private_use", "\ue234", 8)],
        id="same-code-twice",
    ),
    # Neighbours of the area are not private use.
    pytest.param("\uf900不爾思", [], id="compatibility-ideograph-after-area"),
    pytest.param("\ud7a3字", [], id="hangul-before-area"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_private_use(repaired, observed, text, expected):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == text
    assert all(not e.applied for e in result.edits)


def test_gbk_user_area_code_is_reported():
    from repair.families.private_use import gbk_user_bytes

    # GB18030 decodes the GBK user-defined code A140 to U+E4C6.
    assert b"\xa1\x40".decode("gb18030") == "\ue4c6"
    assert gbk_user_bytes("\ue4c6") == "A140"
