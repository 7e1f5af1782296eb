"""The per-file JSON report: every detection and edit, and how to undo them.

The schema is versioned (``SCHEMA_VERSION``) and published as a JSON Schema in
``repair/schema/report.schema.json``; a change that removes or renames a field
bumps the major version.  Offsets are in characters (code points) of the input
text; lines and columns are 1-based.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections import Counter
from dataclasses import asdict
from importlib import resources
from typing import Any

from repair.families import FAMILY_KINDS
from repair.types import Candidate, Edit, Result, Slot

SCHEMA_VERSION = "1.1"  # 1.1: the split_char family
SCHEMA_ID = "repair-report"


def _line_index(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def _line_col(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset) - 1
    return line + 1, offset - starts[line] + 1


def edit_to_json(e: Edit, starts: list[int], out_starts: list[int], number: int) -> dict[str, Any]:
    line, col = _line_col(starts, e.start)
    end_line, end_col = _line_col(starts, e.end)
    out_line, out_col = _line_col(out_starts, e.out_start)
    return {
        "id": number,
        "kind": e.kind,
        "applied": e.applied,
        "confidence": round(e.confidence, 6),
        "start": e.start,
        "end": e.end,
        "line": line,
        "column": col,
        "end_line": end_line,
        "end_column": end_col,
        "out_start": e.out_start,
        "out_end": e.out_end,
        "out_line": out_line,
        "out_column": out_col,
        "before": e.before,
        "after": e.after,
        "candidates": [asdict(c) for c in e.candidates],
        "slots": [asdict(s) for s in e.slots],
        "note": e.note,
        "detail": e.detail,
    }


def edit_from_json(d: dict[str, Any]) -> Edit:
    return Edit(
        start=d["start"],
        end=d["end"],
        before=d["before"],
        after=d["after"],
        kind=d["kind"],
        confidence=d["confidence"],
        candidates=tuple(Candidate(**c) for c in d["candidates"]),
        applied=d["applied"],
        out_start=d["out_start"],
        out_end=d["out_end"],
        slots=tuple(Slot(**s) for s in d["slots"]),
        note=d.get("note", ""),
        detail=d.get("detail", {}),
    )


def counts(result: Result) -> dict[str, dict[str, int]]:
    detected = Counter(e.kind for e in result.edits)
    applied = Counter(e.kind for e in result.edits if e.applied)
    marked = Counter(e.kind for e in result.edits if not e.applied)
    holes = Counter()
    for e in result.edits:
        if e.applied and e.slots:
            holes[e.kind] += sum(s.chars for s in e.slots)
    return {
        "detected": {k: detected[k] for k in FAMILY_KINDS if detected[k]},
        "applied": {k: applied[k] for k in FAMILY_KINDS if applied[k]},
        "marked": {k: marked[k] for k in FAMILY_KINDS if marked[k]},
        "missing_chars_in_applied": {k: holes[k] for k in FAMILY_KINDS if holes[k]},
    }


def glyph_summary(result: Result) -> list[dict[str, Any]]:
    """What each home-made glyph code of this file was read as (the file's glyph table)."""
    seen: dict[str, dict[str, Any]] = {}
    for e in result.edits:
        if e.kind in ("private_use", "foreign_symbol") and e.candidates:
            entry = seen.setdefault(
                e.before,
                {
                    "code": " ".join(f"U+{ord(c):04X}" for c in e.before),
                    "text": e.before,
                    "best": e.candidates[0].text,
                    "confidence": round(e.confidence, 6),
                    "applied": e.applied,
                    "occurrences": 0,
                },
            )
            entry["occurrences"] += 1
    return list(seen.values())


def settings_of(repairer: Any) -> dict[str, Any]:
    """The report's settings block for a ``Repairer`` (enough to replay the run)."""
    return {
        "min_confidence": repairer.min_confidence,
        "placeholder": repairer.placeholder,
        "families": repairer.families,
        "same_edition": repairer.same_edition,
    }


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def build_report(
    result: Result,
    *,
    input_path: str | None,
    output_path: str | None,
    input_bytes: bytes | None,
    settings: dict[str, Any],
) -> dict[str, Any]:
    from repair import __version__

    starts = _line_index(result.source_text)
    out_starts = _line_index(result.text)
    return {
        "schema": SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "tool_version": __version__,
        "input": {
            "path": input_path,
            "sha256": sha256(input_bytes) if input_bytes is not None else sha256(result.source_text),
            "bytes": len(input_bytes) if input_bytes is not None else None,
            "encoding": result.encoding,
            "encoding_segments": list(result.encoding_segments),
            "chars": len(result.source_text),
            "lines": len(starts),
        },
        "output": {
            "path": output_path,
            "sha256": sha256(result.text),
            "chars": len(result.text),
        },
        "settings": settings,
        "summary": counts(result),
        "glyphs": glyph_summary(result),
        "edits": [edit_to_json(e, starts, out_starts, i + 1) for i, e in enumerate(result.edits)],
    }


def rebuild_input(output_text: str, report: dict[str, Any]) -> str:
    """Undo every applied edit: the input text from the output and the report."""
    from repair.pipeline.apply import undo_edits

    return undo_edits(output_text, [edit_from_json(d) for d in report["edits"]])


def schema() -> dict[str, Any]:
    ref = resources.files("repair.schema").joinpath("report.schema.json")
    return json.loads(ref.read_text(encoding="utf-8"))


def dumps(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1)
