"""The records every stage passes on: spans, candidates, edits, results.

They are plain frozen dataclasses so that a report can be rebuilt from them
and they pickle cheaply between worker processes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Candidate:
    """One possible reading of a damaged span, with the evidence for it.

    ``score`` is a log10 probability-like number: higher is better.  ``source``
    names the channel or model that proposed it (``"gbk<-utf-8"``,
    ``"ftfy"`` ...), so an auditor can see why it was offered.
    """

    text: str
    score: float = 0.0
    source: str = ""


@dataclass(frozen=True)
class Slot:
    """A character position inside a repair that the bytes could not give back.

    A byte-shifted run re-read at the right offset still has holes: pairs that
    were deleted and the boundary byte that became U+FFFD.  The repair writes a
    placeholder there and records the hole as a slot, so the language model can
    fill it later and the report shows it as left marked.  ``offset`` is within
    the edit's ``after`` text; ``chars`` is how many characters are missing.
    """

    offset: int
    length: int
    chars: int
    note: str = ""
    constraint: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Span:
    """A detection: the family's claim that ``text[start:end]`` is damaged."""

    start: int
    end: int
    kind: str
    text: str
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Edit:
    """A detection together with the decision taken on it.

    ``start``/``end`` are offsets in the input text and ``before`` is exactly
    ``input[start:end]``; when ``applied`` the output holds ``after`` in its
    place, at ``out_start``/``out_end``.  An edit that is not applied leaves the
    text as it was (or writes the chosen placeholder) and lists its ranked
    ``candidates`` for a human or a later model to decide.
    """

    start: int
    end: int
    before: str
    after: str
    kind: str
    confidence: float
    candidates: tuple[Candidate, ...] = ()
    applied: bool = False
    out_start: int = -1
    out_end: int = -1
    slots: tuple[Slot, ...] = ()
    note: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """What a repair returns: the output text and every edit, applied or not."""

    text: str
    edits: tuple[Edit, ...]
    source_text: str
    encoding: str | None = None
    encoding_segments: tuple[dict[str, Any], ...] = ()

    @property
    def applied(self) -> tuple[Edit, ...]:
        return tuple(e for e in self.edits if e.applied)

    @property
    def marked(self) -> tuple[Edit, ...]:
        """Damage that stays in the text: unapplied edits and the holes of applied ones."""
        return tuple(e for e in self.edits if not e.applied or e.slots)

    def undo(self) -> str:
        """Rebuild the input from the output and the edits alone."""
        return undo_edits(self.text, self.edits)


def undo_edits(output: str, edits: Iterable[Edit]) -> str:
    """The input, rebuilt from the output and the placed edits alone (each
    knows where it landed in the output: ``out_start``, ``out_end``).  Here,
    beside the types, so that the pipeline imports downward only."""
    parts: list[str] = []
    pos = 0
    for e in sorted(edits, key=lambda e: e.out_start):
        parts.append(output[pos : e.out_start])
        parts.append(e.before)
        pos = e.out_end
    parts.append(output[pos:])
    return "".join(parts)
