"""The deletion stage: characters lost without a trace, found against references.

Needs no model but needs references: the references alone say what is missing.
"""

from __future__ import annotations

from repair.fill.deletions import witnessed
from repair.pipeline.job import Job
from repair.plausibility import script_of


def run(job: Job) -> None:
    tools, doc = job.tools, job.doc
    assert doc is not None
    if tools.reference_index is None or not tools.wants("deletion"):
        return
    job.edits = witnessed(
        doc.text,
        job.edits,
        tools.reference_index,
        min_confidence=tools.settings.min_confidence,
        simplified=(doc.script if doc.script != "neutral" else script_of(doc.text)) == "simplified",
        same_edition=tools.same_edition,
        raw=tools.references_as_written(),
    )
