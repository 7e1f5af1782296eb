"""Detection: every family's spans, overlaps resolved by family priority.

A long mojibake run contains kana and private-use characters that other
families would claim; the family with the lower priority number (the one whose
channel explains more) keeps the text, and a later span overlapping it is
dropped.  A span marked ``late`` (debris that no channel read) waits until
every family has spoken and keeps only what none of them claimed: garbage is
never left unmarked, and never hides what a family can explain.
"""

from __future__ import annotations

import re

from repair.families import REGISTRY, families
from repair.families.base import Document, Family, outside
from repair.pipeline.job import Job
from repair.types import Span


def run(job: Job) -> None:
    assert job.doc is not None
    job.spans = detect(job.doc)


# One compiled scan for every family's trigger characters: on clean text it
# finds nothing, and no family that needs a marker is asked.
SCAN_RE = re.compile("[" + "".join(f.trigger for f in REGISTRY if f.trigger) + "]")


def scan(text: str) -> str:
    """The distinct trigger characters ``text`` holds.

    >>> sorted(scan("子曰□學而時習之？"))
    ['□', '？']
    """
    return "".join(set(SCAN_RE.findall(text)))


def detect(doc: Document) -> list[tuple[Family, Span]]:
    claimed = doc.claimed
    claimed.clear()
    found: list[tuple[Family, Span]] = []
    late: list[tuple[Family, Span]] = []
    doc.present = scan(doc.text)
    for family in families(doc.settings.families):
        if family.trigger is not None and not doc.holds(family.trigger):
            continue  # none of the characters its spans need
        for span in family.detect(doc):
            if span.info.get("late"):
                late.append((family, span))
                continue
            if any(s < span.end and span.start < e for s, e in claimed):
                continue
            claimed.append((span.start, span.end))
            found.append((family, span))
    for family, span in late:
        for a, b in outside(span.start, span.end, claimed):
            # What is left between other families' spans may be clean: the
            # family says which of it is still debris.
            for x, y in family.debris(doc.text, a, b):  # type: ignore[attr-defined]
                claimed.append((x, y))
                found.append((family, Span(x, y, span.kind, doc.text[x:y], span.info)))
    found.sort(key=lambda fs: fs[1].start)
    return found
