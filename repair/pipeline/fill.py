"""The fill stage: the model ranks what could fill each gap the channel left.

Three passes, each over the edits so far: gaps (placeholders, ``?``, U+FFFD,
private-use codes, lost bytes) are ranked and written at the calibrated
threshold; the ends of re-read mojibake runs are checked; byte-shifted runs
are re-decided within what their bytes allow.  Without a model, or with no
edit to work on, nothing is done.
"""

from __future__ import annotations

from repair.fill.byte_holes import fill_runs
from repair.fill.codec_edges import refine
from repair.fill.ranker import fill
from repair.pipeline.job import Job


def run(job: Job) -> None:
    tools, doc = job.tools, job.doc
    assert doc is not None
    if tools.lm is None or not job.edits:
        return
    settings = tools.settings
    edits = fill(
        doc.text,
        job.edits,
        tools.lm,
        min_confidence=settings.min_confidence,
        script=doc.script,
        witnesses=tools.witnesses,
        glyphs=tools.glyphs,
        same_edition=tools.same_edition,
    )
    edits = refine(doc.text, edits, tools.lm, placeholder=settings.placeholder)
    job.edits = fill_runs(
        doc.text,
        edits,
        tools.lm,
        min_confidence=settings.min_confidence,
        simplified=(doc.script if doc.script != "neutral" else "traditional") == "simplified",
        placeholder=settings.placeholder,
        # The references as written (a batch keeps only the contexts of its
        # gaps, not its texts, so its files are not searched).
        copies=tuple(zip(tools.references, tools.references_as_written(), strict=True)),
        alignments=(*job.alignments, *job.partner_alignments),
        same_edition=tools.same_edition,
    )
