"""The forward channel is what users' software does, error modes included."""

from __future__ import annotations

import pytest

from repair.channel.forward import garble

TEXT = "學而時習之，不亦說乎？有朋自遠方來。"
PAIRS = [("utf-8", w) for w in ("gbk", "gb2312", "big5", "cp1252", "latin-1", "shift_jis")] + [
    ("gbk", "big5"),
    ("big5", "gbk"),
    ("gbk", "utf-8"),
    ("big5", "utf-8"),
    ("gbk", "cp1252"),
    ("big5", "latin-1"),
]


@pytest.mark.parametrize(("true", "wrong"), PAIRS)
@pytest.mark.parametrize("errors", ["replace", "ignore"])
def test_garble_is_python_encode_then_decode(true: str, wrong: str, errors: str) -> None:
    assert garble(TEXT, true, wrong, errors) == TEXT.encode(true).decode(wrong, errors)


def test_question_marks_stand_where_python_writes_replacement_characters() -> None:
    assert garble(TEXT, "utf-8", "gbk", "?") == TEXT.encode("utf-8").decode("gbk", "replace").replace("\ufffd", "?")


def test_twice_is_double_mojibake() -> None:
    once = TEXT.encode("utf-8").decode("cp1252", "replace")
    assert garble(TEXT, "utf-8", "cp1252", twice=True) == once.replace("\ufffd", "?").encode("utf-8").decode(
        "cp1252", "replace"
    )
