"""U+FFFD replacement characters from a lossy decode.

The channel: bytes that the decoder could not read.  When the document came
in as bytes through this toolkit, the raw bytes behind each U+FFFD are kept
and reported, so nothing is lost; which character they were is for the
language model to decide.
"""

from __future__ import annotations

import re

from repair.families.base import Document, MarkOnly
from repair.types import Span

FFFD_RUN_RE = re.compile("\ufffd+")


class ReplacementChars(MarkOnly):
    kind = "replacement_char"
    priority = 40
    trigger = "\\ufffd"

    def detect(self, doc: Document) -> list[Span]:
        spans = []
        for m in FFFD_RUN_RE.finditer(doc.text):
            raw = [doc.undecodable[i].hex().upper() for i in range(m.start(), m.end()) if i in doc.undecodable]
            spans.append(Span(m.start(), m.end(), self.kind, m.group(0), {"bytes": raw} if raw else {}))
        return spans
