"""The collation stage: gaps read from the references, aligned with the document.

Needs no model: where every reference that aligns solidly around a gap shows
the same word, it is written in the document's own form.  What it leaves goes
on to the fill.
"""

from __future__ import annotations

from repair.fill.collation import aligned, read_gaps
from repair.pipeline.job import Job


def run(job: Job) -> None:
    tools, doc = job.tools, job.doc
    assert doc is not None
    if not tools.references or not job.edits:
        return
    job.alignments = aligned(doc.text, job.edits, tools.collations())
    job.edits = read_gaps(
        doc.text,
        job.edits,
        job.alignments,
        min_confidence=tools.settings.min_confidence,
        script=doc.script,
    )
