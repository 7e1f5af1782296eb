"""Detection: every family's spans, overlaps resolved by family priority.

A long mojibake run contains kana and private-use characters that other
families would claim; the family with the lower priority number (the one whose
channel explains more) keeps the text, and a later span overlapping it is
dropped.
"""

from __future__ import annotations

from repair.families import families
from repair.families.base import Document, Family
from repair.types import Span


def detect(doc: Document) -> list[tuple[Family, Span]]:
    claimed = doc.claimed
    claimed.clear()
    found: list[tuple[Family, Span]] = []
    for family in families(doc.settings.families):
        for span in family.detect(doc):
            if any(s < span.end and span.start < e for s, e in claimed):
                continue
            claimed.append((span.start, span.end))
            found.append((family, span))
    found.sort(key=lambda fs: fs[1].start)
    return found
