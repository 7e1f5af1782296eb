"""Placeholders an editor put for an unknown character: 囗 □ 〓 ■.

The channel: a human or a converter marked the gap knowingly, so any
character may stand behind it.  Only the language model can choose; the
family marks each run.  (□ is also a lacuna mark of printed editions: it is
reported the same way, since it too stands for characters that are missing.)
囗 is also a real character, the enclosure radical, which dictionaries cite
as a head-word; it is only taken for a placeholder between two Han characters.
"""

from __future__ import annotations

import re

from repair.charclass import is_han
from repair.families.base import Document, MarkOnly
from repair.types import Span

PLACEHOLDERS = "囗□〓■▢◻⬜"
PLACEHOLDER_RUN_RE = re.compile(f"[{PLACEHOLDERS}]+")


class Placeholders(MarkOnly):
    kind = "placeholder"
    priority = 45
    trigger = PLACEHOLDERS

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans = []
        for m in PLACEHOLDER_RUN_RE.finditer(text):
            if m.group(0) == "囗" and not (_han_at(text, m.start() - 1) and _han_at(text, m.end())):
                continue  # 囗，回也: the character itself, as a dictionary head-word
            spans.append(Span(m.start(), m.end(), self.kind, m.group(0), {"chars": len(m.group(0))}))
        return spans


def _han_at(text: str, i: int) -> bool:
    return 0 <= i < len(text) and is_han(text[i])
