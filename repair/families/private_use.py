"""Private-use code points (U+E000-U+F8FF and the supplementary planes).

The channel: a home-made glyph in a GBK user-defined area (A140-A7A0,
AAA1-AFFE, F8A1-FEFE) decoded by GB18030 into the private-use area.  Each code
point stands for one rare character, the same at every occurrence; adjacent
ones may together stand for one character.  The span is the whole run, and
the code point is recorded with the GBK bytes it came from.
"""

from __future__ import annotations

import re

from repair.channel.forward import strict_encode
from repair.families.base import Document, MarkOnly
from repair.types import Span

PUA_CLASS = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
PUA_RUN_RE = re.compile(f"[{PUA_CLASS}]+")


def gbk_user_bytes(ch: str) -> str | None:
    """The GBK user-defined code a private-use character came from, if any."""
    raw = strict_encode(ch, "gb18030")
    return raw.hex().upper() if raw is not None and len(raw) == 2 else None


class PrivateUse(MarkOnly):
    kind = "private_use"
    priority = 40
    trigger = PUA_CLASS

    def detect(self, doc: Document) -> list[Span]:
        return [
            Span(
                m.start(),
                m.end(),
                self.kind,
                m.group(0),
                {"codes": [f"U+{ord(c):04X}" for c in m.group(0)], "gbk": [gbk_user_bytes(c) for c in m.group(0)]},
            )
            for m in PUA_RUN_RE.finditer(doc.text)
        ]
