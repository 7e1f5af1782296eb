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

KNOWN_PROBLEMS = {
    "曾子曰：「吾日三省吾身：為人謀而不忠乎？與朋友交而不信乎？傳不習乎？」": (
        "question_mark: punctuation_style counts only ，。 (and ASCII ,.): a line punctuated with "
        "？：「」 is 'unpunctuated', so each ？ followed by Han is taken for a lost character"
    ),
    "問曰：此何也?對曰：不知也.": (
        "question_mark: in an ASCII-punctuated text a '?' followed directly by Han is damage even "
        "after the question particle 也"
    ),
    "囗，回也。象回帀之形。": (
        "placeholder: 囗 is always a placeholder, also where it is the dictionary head-word (Shuowen)"
    ),
    "儗，从亻从疑，疑亦聲。": (
        "component: a bare side form followed by any Han character is a spelling, so 从亻从疑 reports the span 亻从"
    ),
    "これは日本語です。": (
        "foreign_symbol: kana runs are judged by their two neighbours only, so です after the kanji 語 is reported"
    ),
    "《禮記》有〈學記〉、〈大學〉、〈中庸〉諸篇。": (
        "component: 〈…〉 around two or three Han characters (a chapter title) is taken for a component spelling"
    ),
}


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
