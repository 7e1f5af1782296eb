"""The deletion stage: characters lost without a trace, found against references.

Needs no model but needs references: the references alone say what is missing,
by the same four characters on each side (``witnessed``) or, where another
edition's punctuation, variant forms or notes break those, by the collation's
alignment (``collated``).
"""

from __future__ import annotations

from repair.fill.collation import aligned
from repair.fill.deletions import collated, witnessed
from repair.pipeline.job import Job
from repair.plausibility import script_of


def run(job: Job) -> None:
    tools, doc = job.tools, job.doc
    assert doc is not None
    if tools.reference_index is None or not tools.wants("deletion"):
        return
    simplified = (doc.script if doc.script != "neutral" else script_of(doc.text)) == "simplified"
    job.edits = witnessed(
        doc.text,
        job.edits,
        tools.reference_index,
        min_confidence=tools.settings.min_confidence,
        simplified=simplified,
        same_edition=tools.same_edition,
        raw=tools.references_as_written(),
    )
    if not tools.references:
        return
    if not job.alignments:
        job.alignments = aligned(doc.text, job.edits, tools.collations(), always=True)
    job.edits = collated(
        doc.text,
        job.edits,
        # The references only (a batch's other files are damaged copies, and
        # --same-edition speaks of the references).
        job.alignments,
        min_confidence=tools.settings.min_confidence,
        simplified=simplified,
        same_edition=tools.same_edition,
    )
