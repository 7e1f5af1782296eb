"""Question marks that stand for lost characters: ``?``, ``??``, ``？`` inside Han text.

The channel: the text was converted to a narrower code page (GB2312, GBK,
Big5) with ``errors="replace"``, so every character that page lacks became
``?``.  A question mark is damage when it sits where punctuation cannot: next
to a Han character on the right, doubled, after an opening bracket, or before
another stop.  A real question mark ends a question and is followed by a
closing quote, a stop or the end of the line; in a document punctuated with
ASCII marks it is real after a question particle, too.

>>> [s.text for s in QuestionMarks().detect(Document("反?至取矢。何也?”"))]
['?']
"""

from __future__ import annotations

import re

from repair.families.base import HAN_RE, Document, MarkOnly
from repair.types import Span

QUESTION_RUN_RE = re.compile(r"[?？]{1,4}")
OPENING = set("“‘「『（《〈【〔［([{")
STOPS = set("，。、；：,;:")
QUESTION_PARTICLES = set("乎哉歟欤耶邪與与焉何否夫也")


def _is_han(ch: str) -> bool:
    return bool(ch) and HAN_RE.match(ch) is not None


class QuestionMarks(MarkOnly):
    kind = "question_mark"
    priority = 40
    trigger = "?？"

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans = []
        for m in QUESTION_RUN_RE.finditer(text):
            run = m.group(0)
            left = text[m.start() - 1] if m.start() > 0 else ""
            right = text[m.end()] if m.end() < len(text) else ""
            if not (_is_han(left) or _is_han(right) or left in OPENING or left in STOPS):
                continue
            if self._is_damage(run, left, right, doc):
                spans.append(Span(m.start(), m.end(), self.kind, run, {"chars": len(run)}))
        return spans

    @staticmethod
    def _is_damage(run: str, left: str, right: str, doc: Document) -> bool:
        if len(run) > 1 or left in OPENING or right in STOPS:
            return True
        if run == "？":
            # Full-width: real punctuation unless the text has none at all
            # (an unpunctuated classical text does not ask questions in marks).
            return doc.punctuation_style == "none" and _is_han(left) and _is_han(right)
        # ASCII "?": real when it closes a question in an ASCII-punctuated text,
        # or after a question particle before a closing mark or line end.
        closes = right in ("", "\n", " ", "\u3000") or right in "”’」』）》〉】〕)]\"'"
        if closes and (doc.punctuation_style == "ascii" or left in QUESTION_PARTICLES):
            return False
        if left in QUESTION_PARTICLES and doc.uses_ascii_punctuation:
            return False  # 何也?對曰: a text that punctuates in ASCII asks questions so
        if doc.punctuation_style == "ascii" and not _is_han(right):
            return False
        return True
