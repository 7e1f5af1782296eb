"""Placeholders an editor put for an unknown character: 囗 □ 〓 ■.

The channel: a human or a converter marked the gap knowingly, so any
character may stand behind it.  Only the language model can choose; the
family marks each run.  (□ is also a lacuna mark of printed editions: it is
reported the same way, since it too stands for characters that are missing.)
"""

from __future__ import annotations

import re

from repair.families.base import Document, MarkOnly
from repair.types import Span

PLACEHOLDERS = "囗□〓■▢◻⬜"
PLACEHOLDER_RUN_RE = re.compile(f"[{PLACEHOLDERS}]+")


class Placeholders(MarkOnly):
    kind = "placeholder"
    priority = 45

    def detect(self, doc: Document) -> list[Span]:
        return [
            Span(m.start(), m.end(), self.kind, m.group(0), {"chars": len(m.group(0))})
            for m in PLACEHOLDER_RUN_RE.finditer(doc.text)
        ]
