"""The repair pipeline: one list of stages, each a module with one entry point.

Every document takes the same way: bytes are decoded, the families detect
their spans, each span's channel proposes a reading, the references aligned
with the document read its gaps, the model fills the gaps
left, checks look-alikes, the references find lost characters, and the edits
are applied.  A stage with nothing to do returns at once: clean text costs
the detection scan and the look-alike check.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from repair.pipeline import apply, channel, collate, decode, deletions, detect, fill, lookalikes
from repair.pipeline.job import Job, Tools

__all__ = ["STAGES", "Job", "Tools", "run"]

STAGES: tuple[tuple[str, Callable[[Job], None]], ...] = (
    ("decode", decode.run),
    ("detect", detect.run),
    ("channel", channel.run),
    ("collate", collate.run),
    ("fill", fill.run),
    ("lookalikes", lookalikes.run),
    ("deletions", deletions.run),
    ("apply", apply.run),
)


def run(job: Job) -> Job:
    """Take ``job`` through every stage, timing each."""
    for name, stage in STAGES:
        t0 = time.perf_counter()
        stage(job)
        job.seconds[name] = job.seconds.get(name, 0.0) + time.perf_counter() - t0
    return job
