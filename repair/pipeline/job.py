"""What the stages share: the text under repair, its edits so far, and the tools.

A ``Job`` is one document on its way through the stages; ``Tools`` is what a
``Repairer`` holds for every document (settings, model, witnesses), handed to
the stages so that they never reach back up into the library interface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from repair.families.base import Document, Family, Settings
from repair.partners import no_partners
from repair.types import Edit, Result, Span


@dataclass
class Tools:
    """A Repairer's set-up, as the stages see it."""

    settings: Settings
    lm: Any = None
    # Witnesses of every gap (references and, in a batch, the batch's texts),
    # and the references alone, indexed completely (for lost characters).
    witnesses: Any = None
    reference_index: Any = None
    glyphs: Any = None
    same_edition: bool = False
    # The references as given, and as witness keys fold them (built on first use).
    references: tuple[str, ...] = ()
    references_as_written: Callable[[], tuple[str, ...]] = tuple
    # Each reference's collation index (built on first use, once per Repairer).
    collations: Callable[[], tuple] = tuple
    # In a batch, the other files the document (known by its text) is collated
    # with: repair.partners.Partner each, indexed when asked for.
    partners: Callable[[str], tuple] = no_partners

    def wants(self, kind: str) -> bool:
        """Whether the user left the family ``kind`` on."""
        return self.settings.families is None or kind in self.settings.families


@dataclass
class Job:
    """One document's way through the stages; each stage fills in its part."""

    source: str | bytes
    tools: Tools
    doc: Document | None = None
    # From the decode stage, for bytes: the encoding found and its segments.
    encoding: str | None = None
    encoding_segments: tuple = ()
    spans: list[tuple[Family, Span]] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    # The document aligned with each reference (the collate stage, where it has gaps or garbled runs),
    # and with each of its partners in a batch (other files, damaged copies: they never decide a
    # lost character or a deletion).
    alignments: list = field(default_factory=list)
    partner_alignments: list = field(default_factory=list)
    result: Result | None = None
    # Seconds each stage took (what the benchmark's cost model reads).
    seconds: dict[str, float] = field(default_factory=dict)
