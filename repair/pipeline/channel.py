"""The channel stage: each detected span's family proposes what was written,
and the proposal becomes an edit, applied or left marked.

The families read bytes through the channel here (re-decoding, lost bytes,
code pages).  Precision first: an edit is applied only when its confidence
reaches the threshold; otherwise the text stays as it was and the report
lists the candidates.
"""

from __future__ import annotations

from repair.families.base import Document, Family
from repair.families.placeholders import Placeholders
from repair.pipeline.job import Job
from repair.types import Edit, Span


def run(job: Job) -> None:
    doc, tools = job.doc, job.tools
    assert doc is not None
    edits = [decide(family, span, doc) for family, span in job.spans]
    if tools.witnesses is not None and tools.wants("placeholder"):
        # A lone 囗 is the character itself unless other copies read it
        # otherwise: then it is a placeholder, the copies its channel.
        from repair.fill.lone_boxes import witnessed_boxes

        boxes = witnessed_boxes(doc.text, edits, tools.witnesses)
        if boxes:
            edits = sorted([*edits, *(decide(Placeholders(), span, doc) for span in boxes)], key=lambda e: e.start)
    job.edits = edits


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
