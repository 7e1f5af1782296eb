"""The collation stage: gaps read from the references, aligned with the document.

Needs no model: where every reference that aligns solidly around a gap shows
the same word, it is written in the document's own form.  In a batch, the
document's partners (other files sharing its passages) are aligned after the
references and read the gaps the references leave: a partner is another damaged
file, so it must not veto what a reference reads.  What is left goes on to the fill.
"""

from __future__ import annotations

from repair.fill.collation import COLLATED_KINDS, SPLIT, aligned, read_gaps, read_runs
from repair.partners import credit
from repair.pipeline.job import Job


def run(job: Job) -> None:
    tools, doc = job.tools, job.doc
    assert doc is not None
    if not job.edits:
        return
    partners = tools.partners(doc.text) if any(e.kind in (*COLLATED_KINDS, SPLIT) for e in job.edits) else ()
    if not tools.references and not partners:
        return
    references = tools.collations()
    every = aligned(doc.text, job.edits, (*references, *(p.index for p in partners)))
    job.alignments, job.partner_alignments = every[: len(references)], every[len(references) :]
    settings = tools.settings
    job.edits = read_gaps(
        doc.text, job.edits, job.alignments, min_confidence=settings.min_confidence, script=doc.script
    )
    job.edits = read_runs(
        doc.text,
        job.edits,
        job.alignments,
        min_confidence=settings.min_confidence,
        same_edition=tools.same_edition,
    )
    if partners:
        left = job.edits
        job.edits = read_gaps(
            doc.text, left, job.partner_alignments, min_confidence=settings.min_confidence, script=doc.script
        )
        job.edits = credit(left, job.edits, partners, len(references))
