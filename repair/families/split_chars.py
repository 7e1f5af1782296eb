"""One lost character shown as a mark and the byte that survived: ``�@``, ``?f``, ``�9�9``.

The channel: a file in a wide code page read with a narrower one (GBK read as
GB2312, Big5-HKSCS read as Big5, GB18030 read as GBK).  A character the reader
lacks loses its lead byte to a mark (U+FFFD, or ``?`` from converters that
replace so), but a trail byte in the ASCII range (0x40-0x7E) is a character
of its own to the reader, so it stays in the text: ``說`` (GBK D5 66) read as
GB2312 becomes ``�f``.  A GB18030 four-byte character (the rare characters
of CJK Extension A and beyond) read as GBK keeps its two digit bytes:
``㐀`` (81 39 EE 39) becomes ``�9�9``.  A question mark or U+FFFD followed by
such a byte is therefore one character, not a lost character and a stray
letter, and the surviving byte narrows which character it was to a few dozen
(``repair.fill.channel.split_candidates``).

>>> [(s.text, s.info) for s in SplitChars().detect(Document("公侯\ufffd@方百里"))]
[('�@', {'bytes': '?? 40'})]
>>> [s.text for s in SplitChars().detect(Document("何也?」曰：A?B 為什麼?A股"))]
[]
"""

from __future__ import annotations

import re

from repair.families.base import Document, MarkOnly
from repair.families.question_marks import QUESTION_PARTICLES
from repair.types import Span

MARK = "[?\ufffd]"
# Two bytes whose lead was lost: the trail byte, when a reader shows it as ASCII.
TRAIL = "[\x40-\x7e]"
SPLIT_RE = re.compile(f"{MARK}\\d{MARK}\\d|{MARK}{TRAIL}")
# A real question mark may close a bracket or a quote; a lost lead byte is
# read as such only between characters of the text.
CLOSERS = set("])}")
# A ``?`` after these closes a question (乎, 哉 …; 吗, 呢 … in modern text).
QUESTION_ENDS = set(QUESTION_PARTICLES) | set("吗嗎呢么麼吧啊哪谁誰")


def _text_at(text: str, i: int) -> bool:
    """Text goes on at ``i``: not an ASCII letter, digit or sign (Han, a stop, another mark)."""
    return 0 <= i < len(text) and not text[i].isascii()


class SplitChars(MarkOnly):
    kind = "split_char"
    # Before the single marks (40): "�@" is one character, not "�" and a stray "@".
    priority = 38
    trigger = MARK[1:-1]

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans = []
        for m in SPLIT_RE.finditer(text):
            run = m.group(0)
            # Text on both sides, not ASCII: a mark inside a Latin word or
            # before a bracket is not this.  A line may begin or end there only
            # when no writer would have put the mark (U+FFFD, or a four-byte run).
            sure = run[0] == "\ufffd" or len(run) == 4
            before = (
                _text_at(text, m.start() - 1)
                or (sure and text[m.start() - 1 : m.start()] in ("", "\n", "\r"))
                or (bool(spans) and spans[-1].end == m.start())  # right after another lost character
            )
            after = _text_at(text, m.end()) or (sure and text[m.end() : m.end() + 1] in ("", "\n", "\r"))
            if not (before and after):
                continue
            if len(run) == 2 and run[1] in CLOSERS:
                continue
            if run[0] == "?" and text[m.start() - 1 : m.start()] in QUESTION_ENDS:
                continue  # 为什么?A股: a question, then a Latin letter that is a word of its own
            spans.append(Span(m.start(), m.end(), self.kind, run, {"bytes": surviving_bytes(run)}))
        return spans


def surviving_bytes(run: str) -> str:
    """What is known of the character's bytes: ``??`` for each lost one.

    >>> surviving_bytes("?f"), surviving_bytes("\ufffd9\ufffd9")
    ('?? 66', '?? 39 ?? 39')
    """
    return " ".join("??" if c in "?\ufffd" else f"{ord(c):02X}" for c in run)
