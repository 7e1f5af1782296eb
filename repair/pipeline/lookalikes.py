"""The look-alike stage: a real character where its twin belongs (己 for 已).

Only the model can see these, so without one nothing is done.
"""

from __future__ import annotations

from repair.fill.lookalike import check
from repair.pipeline.job import Job


def run(job: Job) -> None:
    tools = job.tools
    assert job.doc is not None
    if tools.lm is None or not tools.wants("lookalike"):
        return
    job.edits = check(job.doc.text, job.edits, tools.lm, min_confidence=tools.settings.min_confidence)
