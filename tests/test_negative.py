"""Clean text comes through untouched: no edit, no detection, not one character changed.

Each line of ``tests/data/negative.txt`` is one case: classical sentences in
both scripts, variant forms, compatibility ideographs, Extension B characters,
punctuation used as punctuation, editorial marks, indentation with NBSP and
ideographic spaces, modern notes with Latin and numbers, dictionary lines,
rare characters, Japanese and Greek.  Lines that fail because of a known
limitation are listed in ``KNOWN_PROBLEMS`` with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repair import repair_text

NEGATIVE = Path(__file__).parent / "data" / "negative.txt"
LINES = [line for line in NEGATIVE.read_text(encoding="utf-8").split("\n") if line]

# Lines that fail for a known limitation, with the reason (none at present).
KNOWN_PROBLEMS: dict[str, str] = {}


def _case(number: int, line: str):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_PROBLEMS[line])] if line in KNOWN_PROBLEMS else []
    return pytest.param(line, id=f"line{number:02d}", marks=marks)


def test_negative_set_is_large_and_known_problems_are_in_it():
    assert len(LINES) >= 60
    assert set(KNOWN_PROBLEMS) <= set(LINES)


@pytest.mark.parametrize("line", [_case(n, line) for n, line in enumerate(LINES, 1)])
def test_clean_line_is_untouched(line):
    result = repair_text(line)
    assert result.edits == ()
    assert result.text == line
