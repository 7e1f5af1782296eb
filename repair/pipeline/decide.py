"""Decision: turn a family's proposal into an edit, applied or left marked.

Precision first: an edit is applied only when its confidence reaches the
threshold; otherwise the text stays as it was and the report lists the
candidates.
"""

from __future__ import annotations

from repair.families.base import Document, Family
from repair.types import Edit, Span


def decide(family: Family, span: Span, doc: Document) -> Edit:
    proposal = family.propose(span, doc)
    best = proposal.candidates[0] if proposal.candidates else None
    applied = best is not None and proposal.confidence >= doc.settings.min_confidence and best.text != span.text
    return Edit(
        start=span.start,
        end=span.end,
        before=span.text,
        after=best.text if applied and best is not None else span.text,
        kind=family.kind,
        confidence=proposal.confidence,
        candidates=proposal.candidates,
        applied=applied,
        slots=proposal.slots if applied else (),
        note=proposal.note,
        detail=proposal.detail,
    )
