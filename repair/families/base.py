"""The one interface every damage family implements, and the document it reads.

A family is a channel model: ``detect`` finds the spans its channel could have
produced, ``propose`` says which clean text could lie behind a span and how
sure the channel alone is.  The pipeline only ever talks to this interface.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Protocol

from repair.charclass import HAN_CLASS
from repair.types import Candidate, Slot, Span

HAN_RE = re.compile(f"[{HAN_CLASS}]")
# Characters of one script only that it takes to call a document's script.
MIN_SCRIPT_EVIDENCE = 10
FULLWIDTH_STOPS_RE = re.compile("[，。；：！？、]")
ASCII_STOPS_RE = re.compile(f"[{HAN_CLASS}][,.;:!](?=[{HAN_CLASS}\\s]|$)")


@dataclass(frozen=True)
class Settings:
    """What a user can set; part of the report so a run can be replayed."""

    min_confidence: float = 0.9
    placeholder: str = "〓"
    families: tuple[str, ...] | None = None  # None: every registered family


@dataclass
class Document:
    """The text under repair plus the facts about it that several families use."""

    text: str
    settings: Settings = field(default_factory=Settings)
    # Raw bytes behind U+FFFD characters produced while decoding, by offset.
    undecodable: dict[int, bytes] = field(default_factory=dict)
    # Stretches already claimed by families of higher priority (set by the
    # detect stage): a family that searches widely keeps out of them.
    claimed: list[tuple[int, int]] = field(default_factory=list)
    # The character model the channel's search reads lost bytes with (None:
    # the unigram prior alone, enough for lossless re-readings).
    lm: Any = None
    # The characters of the families' triggers that the text holds, found by
    # the detect stage's one scan (None: not scanned, so any may be there).
    present: str | None = None

    def holds(self, chars: str) -> bool:
        """Whether the text holds one of ``chars`` (a regex class body)."""
        if not chars:
            return False
        if self.present is None:
            return _char_class(chars).search(self.text) is not None
        return _char_class(chars).search(self.present) is not None

    @cached_property
    def stretches(self) -> list:
        """Improbable stretches, shared by the two re-decoding families."""
        from repair.redecode import suspicious_stretches

        return suspicious_stretches(self.text)

    @cached_property
    def script(self) -> str:
        """'traditional', 'simplified' or 'neutral'."""
        from repair.plausibility import script_of

        # Judged on the text outside the improbable stretches: mojibake has
        # a script of its own that says nothing about the document's.
        parts, pos = [], 0
        for st in self.stretches:
            parts.append(self.text[pos : st.start])
            pos = max(pos, st.end)
        parts.append(self.text[pos:])
        return script_of("".join(parts), min_evidence=MIN_SCRIPT_EVIDENCE)

    @cached_property
    def scorer(self):
        """The channel's scorer for this document: the model, the document's
        punctuation habits and its script (one per document, for every family
        that reads bytes through the channel's search)."""
        from repair.channel.scorer import scorer_for

        return scorer_for(self.lm, self.text, self.script)

    @cached_property
    def han_count(self) -> int:
        return len(HAN_RE.findall(self.text))

    @cached_property
    def punctuation_style(self) -> str:
        """'fullwidth', 'ascii' or 'none': how this document punctuates.

        A question mark is real punctuation in a document that punctuates that
        way, and a lost character in one that uses the other style.
        """
        full = len(FULLWIDTH_STOPS_RE.findall(self.text))
        ascii_ = len(ASCII_STOPS_RE.findall(self.text))
        if full == 0 and ascii_ == 0:
            return "none"
        return "ascii" if ascii_ > full else "fullwidth"

    @cached_property
    def uses_ascii_punctuation(self) -> bool:
        return ASCII_STOPS_RE.search(self.text) is not None


@dataclass(frozen=True)
class Proposal:
    """A family's answer for one span.

    ``candidates`` are ranked best first.  ``confidence`` is the channel's own
    certainty that the best candidate is right (1.0 for an exact, lossless
    re-decoding; 0.0 when the family has no candidates and the span can only
    be marked).  ``slots`` are holes inside the best candidate.
    """

    candidates: tuple[Candidate, ...] = ()
    confidence: float = 0.0
    slots: tuple[Slot, ...] = ()
    note: str = ""
    # Evidence for the report: raw bytes, code points, codecs tried.
    detail: dict[str, Any] = field(default_factory=dict)


class Family(Protocol):
    kind: ClassVar[str]
    # Characters (a regex class body) one of which every span of the family
    # holds: where the detect stage's scan finds none, the family is not
    # asked.  None: the family searches by its own test (improbable stretches).
    trigger: ClassVar[str | None]
    # Lower claims a stretch of text first when detections overlap: a long
    # mojibake run outranks the kana and PUA characters inside it.
    priority: ClassVar[int]

    def detect(self, doc: Document) -> list[Span]: ...

    def propose(self, span: Span, doc: Document) -> Proposal: ...


@lru_cache(maxsize=64)
def _char_class(chars: str) -> re.Pattern[str]:
    return re.compile(f"[{chars}]")


def span_from_match(m: re.Match[str], kind: str, **info: Any) -> Span:
    return Span(m.start(), m.end(), kind, m.group(0), dict(info))


class MarkOnly:
    """Base for families whose spans need the language model to be filled.

    Until a model ranks candidates, their spans are reported and left marked.
    """

    def propose(self, span: Span, doc: Document) -> Proposal:
        return Proposal(note="left marked: needs the language model to choose a character", detail=dict(span.info))


def outside(start: int, end: int, blocked) -> list[tuple[int, int]]:
    """The parts of [start, end) outside the blocked intervals.

    >>> outside(0, 10, [(2, 4), (6, 7)])
    [(0, 2), (4, 6), (7, 10)]
    """
    pieces, pos = [], start
    for a, b in sorted(blocked):
        if b <= pos or a >= end:
            continue
        if a > pos:
            pieces.append((pos, a))
        pos = max(pos, b)
    if pos < end:
        pieces.append((pos, end))
    return pieces
