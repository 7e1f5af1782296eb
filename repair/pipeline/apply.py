"""Applying edits to the input, and undoing them from the output.

Edits never overlap (detection resolves that), so the output is the input with
each applied edit's ``before`` replaced by its ``after``; every edit learns
where it landed in the output, which is what makes undo possible.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from repair.pipeline.job import Job
from repair.types import Edit, Result, undo_edits

__all__ = ["apply_edits", "run", "undo_edits"]


def run(job: Job) -> None:
    assert job.doc is not None
    text, placed = apply_edits(job.doc.text, job.edits)
    job.result = Result(text, placed, job.doc.text, encoding=job.encoding, encoding_segments=job.encoding_segments)


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, tuple[Edit, ...]]:
    out: list[str] = []
    placed: list[Edit] = []
    pos = 0
    out_len = 0
    for e in sorted(edits, key=lambda e: e.start):
        if e.start < pos:
            raise ValueError(f"overlapping edits at {e.start}")
        out.append(text[pos : e.start])
        out_len += e.start - pos
        piece = e.after if e.applied else e.before
        out.append(piece)
        placed.append(replace(e, out_start=out_len, out_end=out_len + len(piece)))
        out_len += len(piece)
        pos = e.end
    out.append(text[pos:])
    return "".join(out), tuple(placed)
