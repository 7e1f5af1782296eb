"""Collation: a damaged document aligned with a reference that is not an exact copy.

A witness that must hold the same four characters on each side of a gap
(``repair.fill.witness``) is lost to another edition's variant forms, to an
edition that interleaves notes with the text, and to a commentary that quotes
the text in pieces.  Textual scholars read such copies by collating them
first: align the witnesses, then read each gap against the aligned text.

Both texts are compared as their Han characters only (punctuation differs
between editions and carries no evidence of the words), each character folded
(by default to its simplified form, so that 爲 and 為 agree); the document's
damage marks are wildcards.  The alignment is anchored on n-grams that occur
exactly once in each text, the longest chain of anchors increasing in both is
kept (so a repeated passage or a chance match cannot pull it astray), and
only the short stretches between anchors are aligned character by character.
Every step is linear or n log n in the texts' lengths, and the anchor index of
a reference is built once and serves any number of documents.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz.distance import Levenshtein

from repair.charclass import HAN_RANGES, PRIVATE_USE_RANGES
from repair.fill.witness import fold as fold_text

# What an anchor is made of: shorter n-grams recur by chance in a reference of
# millions of characters, longer ones are broken more often by a variant form
# or a note.
ANCHOR = 5
# The longest stretch (in Han characters, on either side) aligned character by
# character between two anchors; a longer one is left unaligned, since its
# alignment would be quadratic and its ends far from any anchor.
MAX_SEGMENT = 400
# How many characters each side of a span are looked at, and how many of them
# must be matches, for the alignment there to be trusted.
WINDOW = 6
MIN_MATCHES = 4
# A run of reference characters missing from the document between two matches
# is a silent deletion up to this length, and an insertion (a note) beyond it.
MAX_DELETION = 2

# The document's damage marks: each is one wildcard position.
GAP_MARKS = frozenset("〓□■囗?？\ufffd")
# A reference's own marks are kept as positions (so a reading can say the
# reference is damaged there too); its question marks are punctuation.
REFERENCE_MARKS = frozenset("〓□■\ufffd")
# What a wildcard is written as in the folded document: absent from every
# projected text, so it matches nothing but is aligned as a substitution.
WILDCARD = "\x00"

# Kinds of a document position in the alignment.
EQUAL, VARIANT, WILD, EXTRA, UNALIGNED = range(5)
KIND_NAMES = ("equal", "variant", "wildcard", "extra", "unaligned")

_HASH_BASE = np.uint64(0x9E3779B97F4A7C15)


def is_damage_mark(ch: str) -> bool:
    """A document character that stands for lost text rather than for itself."""
    if ch in GAP_MARKS:
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in PRIVATE_USE_RANGES)


def fold_char(ch: str) -> str:
    """The default folding, per character: forms that differ only by script compare equal."""
    return fold_text(ch)


def _codepoints(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def _han_mask(cps: np.ndarray) -> np.ndarray:
    mask = np.zeros(len(cps), dtype=bool)
    for lo, hi in HAN_RANGES:
        mask |= (cps >= lo) & (cps <= hi)
    return mask


@dataclass
class _Projection:
    """A text's Han characters (and marks): as written, folded, and where each sits in the text."""

    raw: str
    folded: str
    offsets: np.ndarray


def _project(text: str, fold: Callable[[str], str], marks: set[str], wild: set[str]) -> _Projection:
    """Han characters and ``marks`` kept, in order; ``wild`` ones folded to WILDCARD.

    Done with array operations and one translation table over the text's
    distinct characters, so that a reference of tens of millions of characters
    projects in seconds.
    """
    cps = _codepoints(text)
    keep = _han_mask(cps)
    extra = marks | wild
    if extra:
        keep |= np.isin(cps, np.fromiter((ord(c) for c in extra), dtype=np.uint32, count=len(extra)))
    offsets = np.flatnonzero(keep)
    offsets = offsets.astype(np.int32 if len(text) < 2**31 else np.int64)
    raw = cps[keep].tobytes().decode("utf-32-le")
    table: dict[int, str] = {}
    for ch in set(raw):
        if ch in wild:
            table[ord(ch)] = WILDCARD
            continue
        folded = fold(ch)
        # A fold that is not one character would shift every position after it.
        if folded != ch and len(folded) == 1:
            table[ord(ch)] = folded
    return _Projection(raw, raw.translate(table) if table else raw, offsets)


def _ngram_hashes(folded: str, n: int) -> np.ndarray:
    """A 64-bit polynomial hash of every n-gram of ``folded``, by array passes (n of them)."""
    cps = _codepoints(folded).astype(np.uint64)
    count = len(cps) - n + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    h = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(n):
            h = h * _HASH_BASE + cps[j : j + count]
    return h


def _once(hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hashes that occur exactly once, sorted, and where each occurs."""
    order = np.argsort(hashes, kind="stable")
    ordered = hashes[order]
    alone = np.ones(len(ordered), dtype=bool)
    if len(ordered) > 1:
        same = ordered[1:] == ordered[:-1]
        alone[1:] &= ~same
        alone[:-1] &= ~same
    return ordered[alone], order[alone]


def _longest_chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted by the first) strictly increasing in the second, O(k log k)."""
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(pairs)
    for i, (_, r) in enumerate(pairs):
        k = bisect_left(tails, r)
        if k == len(tails):
            tails.append(r)
            tail_at.append(i)
        else:
            tails[k] = r
            tail_at[k] = i
        back[i] = tail_at[k - 1] if k else -1
    chain = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        chain.append(pairs[i])
        i = back[i]
    return chain[::-1]


@dataclass(frozen=True)
class Reading:
    """What the reference has where the document has the span ``start:end``.

    ``text`` is the reference's Han characters (as the reference writes them)
    between the two document characters that flank the span, and ``offsets``
    where each is in the reference; when a flank is not aligned, only the
    characters aligned to the span's own positions.  ``solid`` means the
    reading can be trusted: the span lies between anchors with no unaligned
    stretch between, both flanking characters are matches, the reference has
    no more characters there than the span has positions (a longer stretch
    holds a note or an addition, and where the gap falls in it is unknown),
    and at least ``MIN_MATCHES`` of the ``WINDOW`` characters on each side
    match.  An empty ``text`` with ``solid`` says the reference has nothing
    there.
    """

    start: int
    end: int
    text: str
    offsets: tuple[int, ...]
    solid: bool
    left_matches: int
    right_matches: int


@dataclass(frozen=True)
class ReferenceRun:
    """Reference characters with nothing in the document, between document characters ``before`` and ``after``
    (original offsets; -1 and len(document) at the document's ends)."""

    before: int
    after: int
    ref_start: int
    ref_end: int
    text: str


@dataclass
class Alignment:
    """A document aligned with a reference, position by position of their Han projections."""

    document: str
    reference: str
    doc: _Projection
    ref: _Projection
    ref_at: list[int]
    kind: list[int]
    block: list[int]
    ref_runs: list[tuple[int, int, int]]
    cost: dict[str, int] = field(default_factory=dict)

    def _positions(self, start: int, end: int) -> tuple[int, int]:
        offs = self.doc.offsets
        return int(np.searchsorted(offs, start, "left")), int(np.searchsorted(offs, end, "left"))

    def read(self, start: int, end: int, *, window: int = WINDOW, min_matches: int = MIN_MATCHES) -> Reading:
        """The reference's reading of the document's ``start:end`` (original offsets), e.g. a gap."""
        p0, p1 = self._positions(start, end)
        n = len(self.kind)
        kind, ref_at, block = self.kind, self.ref_at, self.block
        left = p0 - 1
        while left >= 0 and kind[left] not in (EQUAL, VARIANT):
            left -= 1
        right = p1
        while right < n and kind[right] not in (EQUAL, VARIANT):
            right += 1
        ref = self.ref
        if left >= 0 and right < n and block[left] >= 0 and block[left] == block[right]:
            lo, hi = ref_at[left] + 1, ref_at[right]
            positions = range(lo, hi)
        else:
            positions = [ref_at[i] for i in range(p0, p1) if ref_at[i] >= 0]
        text = "".join(ref.raw[i] for i in positions)
        offsets = tuple(int(ref.offsets[i]) for i in positions)
        left_matches = self._matches(p0 - 1, -1, window, block[left] if left >= 0 else -1)
        right_matches = self._matches(p1, 1, window, block[right] if right < n else -1)
        solid = (
            left == p0 - 1
            and right == p1
            and kind[left] == EQUAL
            and kind[right] == EQUAL
            and block[left] >= 0
            and block[left] == block[right]
            and all(block[i] == block[left] for i in range(p0, p1))
            and len(text) <= max(1, p1 - p0)
            and left_matches >= min_matches
            and right_matches >= min_matches
        )
        return Reading(start, end, text, offsets, solid, left_matches, right_matches)

    def _matches(self, i: int, step: int, window: int, blk: int) -> int:
        """Matches among the ``window`` document positions from ``i`` outwards, within block ``blk``."""
        if blk < 0:
            return 0
        count = 0
        for _ in range(window):
            if not 0 <= i < len(self.kind) or self.block[i] != blk:
                break
            count += self.kind[i] == EQUAL
            i += step
        return count

    def _runs(self, longer_than: int | None, at_most: int | None) -> list[ReferenceRun]:
        out = []
        offs = self.doc.offsets
        for after_pos, lo, hi in self.ref_runs:
            size = hi - lo
            if (longer_than is not None and size <= longer_than) or (at_most is not None and size > at_most):
                continue
            if at_most is not None and not (
                0 <= after_pos < len(self.kind) - 1
                and self.kind[after_pos] == EQUAL
                and self.kind[after_pos + 1] == EQUAL
            ):
                continue
            before = int(offs[after_pos]) if after_pos >= 0 else -1
            after = int(offs[after_pos + 1]) if after_pos + 1 < len(offs) else len(self.document)
            ro = self.ref.offsets
            out.append(ReferenceRun(before, after, int(ro[lo]), int(ro[hi - 1]) + 1, self.ref.raw[lo:hi]))
        return out

    def deletions(self, max_chars: int = MAX_DELETION) -> list[ReferenceRun]:
        """Reference characters (at most ``max_chars`` together) missing between two matching
        document characters: what the document may have lost silently."""
        return self._runs(None, max_chars)

    def insertions(self, min_chars: int = MAX_DELETION + 1) -> list[ReferenceRun]:
        """Longer runs of reference characters with nothing in the document: notes, additions."""
        return self._runs(min_chars - 1, None)

    def extras(self) -> list[int]:
        """Offsets of document characters (not marks) the reference does not have."""
        return [int(self.doc.offsets[i]) for i, k in enumerate(self.kind) if k == EXTRA]

    def blocks(self) -> list[tuple[int, int, int, int]]:
        """Each aligned block as (document start, end, reference start, end), original offsets."""
        spans: dict[int, list[int]] = {}
        for i, b in enumerate(self.block):
            if b >= 0 and self.ref_at[i] >= 0:
                s = spans.setdefault(b, [i, i])
                s[1] = i
        out = []
        do, ro = self.doc.offsets, self.ref.offsets
        for first, last in spans.values():
            out.append((int(do[first]), int(do[last]) + 1, int(ro[self.ref_at[first]]), int(ro[self.ref_at[last]]) + 1))
        return out

    def kinds(self) -> str:
        """One letter per document position (=, ~, ?, +, .), for reading an alignment by eye."""
        return "".join("=~?+."[k] for k in self.kind)


class ReferenceIndex:
    """A reference's projection and its anchors (n-grams occurring once), built once for many documents.

    Memory is a few arrays the length of the reference (its projection, the
    offsets, the sorted hashes of its unique n-grams and their positions);
    building is linear in the reference but for one sort of the hashes.
    """

    def __init__(self, reference: str, *, fold: Callable[[str], str] = fold_char, anchor: int = ANCHOR) -> None:
        self.reference = reference
        self.fold = fold
        self.anchor = anchor
        self.proj = _project(reference, fold, set(REFERENCE_MARKS), set())
        self.hashes, self.positions = _once(_ngram_hashes(self.proj.folded, anchor))

    def __len__(self) -> int:
        return len(self.proj.raw)

    def align(
        self,
        document: str,
        *,
        is_gap: Callable[[str], bool] = is_damage_mark,
        max_segment: int = MAX_SEGMENT,
    ) -> Alignment:
        """Align ``document`` with the reference: anchors, their longest chain, then the stretches between."""
        wild = {c for c in set(document) if is_gap(c)}
        doc = _project(document, self.fold, set(), wild)
        ref = self.proj
        n = len(doc.folded)
        cost = {"doc_ngrams": 0, "anchors": 0, "cells": 0}
        kind = [UNALIGNED] * n
        ref_at = [-1] * n
        block = [-1] * n
        ref_runs: list[tuple[int, int, int]] = []
        alignment = Alignment(document, self.reference, doc, ref, ref_at, kind, block, ref_runs, cost)
        runs = self._runs(doc.folded, cost)
        if not runs:
            return alignment

        def ungapped(d: int, r: int, step: int, d_stop: int, r_stop: int) -> tuple[int, int]:
            """Matches read outwards from a run's end, without gaps, until a mismatch; where it stopped."""
            while d != d_stop and r != r_stop:
                a, b = doc.folded[d], ref.folded[r]
                if a == WILDCARD:
                    kind[d] = WILD
                elif a == b:
                    kind[d] = EQUAL
                else:
                    break
                ref_at[d] = r
                d += step
                r += step
            return d, r

        blk = 0
        for j, (d0, r0, d1, r1) in enumerate(runs):
            for i in range(d0, d1):
                kind[i], ref_at[i], block[i] = EQUAL, r0 + i - d0, blk
            if j + 1 == len(runs):
                break
            e0, s0 = runs[j + 1][0], runs[j + 1][1]
            if max(e0 - d1, s0 - r1) <= max_segment:
                self._segment(doc.folded, d1, e0, r1, s0, blk, alignment)
            else:
                d_stop, r_stop = ungapped(d1, r1, 1, e0, s0)
                ungapped(e0 - 1, s0 - 1, -1, d_stop - 1, r_stop - 1)
                blk += 1
        ungapped(runs[0][0] - 1, runs[0][1] - 1, -1, -1, -1)
        ungapped(runs[-1][2], runs[-1][3], 1, n, len(ref.folded))
        return alignment

    def _runs(self, folded: str, cost: dict[str, int]) -> list[tuple[int, int, int, int]]:
        """The chain of anchors as runs of matching characters (doc start, ref start, doc end, ref end)."""
        k = self.anchor
        hashes = _ngram_hashes(folded, k)
        cost["doc_ngrams"] = len(hashes)
        if not len(hashes) or not len(self.hashes):
            return []
        # An n-gram with a wildcard anchors nothing.
        wild = np.frombuffer(folded.encode("utf-32-le"), dtype=np.uint32) == 0
        spans_wild = np.convolve(wild.astype(np.int32), np.ones(k, dtype=np.int32), "valid") > 0
        mine, where = _once(hashes)
        keep = ~spans_wild[where]
        mine, where = mine[keep], where[keep]
        at = np.searchsorted(self.hashes, mine)
        at[at >= len(self.hashes)] = 0
        found = self.hashes[at] == mine
        ref_folded = self.proj.folded
        pairs = []
        for d, r in zip(where[found].tolist(), self.positions[at[found]].tolist(), strict=True):
            if folded[d : d + k] == ref_folded[r : r + k]:  # not a collision of hashes
                pairs.append((d, r))
        pairs.sort()
        cost["anchors"] = len(pairs)
        runs: list[list[int]] = []
        for d, r in _longest_chain(pairs):
            if runs:
                run = runs[-1]
                if d - r == run[0] - run[1] and d <= run[2]:
                    run[2], run[3] = d + k, r + k
                    continue
                if d < run[2] or r < run[3]:
                    continue  # overlaps the previous run on another diagonal
            runs.append([d, r, d + k, r + k])
        return [tuple(run) for run in runs]  # type: ignore[misc]

    def _segment(
        self,
        folded: str,
        d0: int,
        d1: int,
        r0: int,
        r1: int,
        blk: int,
        alignment: Alignment,
    ) -> None:
        """The stretch between two anchor runs, aligned by edit distance (a wildcard costs as a substitution,
        which ties it to the reference character it stands for whenever the characters around match)."""
        kind, ref_at, block, ref_runs = alignment.kind, alignment.ref_at, alignment.block, alignment.ref_runs
        a, b = folded[d0:d1], self.proj.folded[r0:r1]
        alignment.cost["cells"] += len(a) * len(b)
        if b and not a:
            ref_runs.append((d0 - 1, r0, r1))
        for i in range(d0, d1):
            kind[i] = WILD if folded[i] == WILDCARD else EXTRA
            block[i] = blk
        if not a or not b:
            return
        for op in Levenshtein.opcodes(a, b):
            if op.tag == "insert":
                ref_runs.append((d0 + op.src_start - 1, r0 + op.dest_start, r0 + op.dest_end))
                continue
            if op.tag == "delete":
                continue
            paired = min(op.src_end - op.src_start, op.dest_end - op.dest_start)
            for x in range(paired):
                i, j = d0 + op.src_start + x, r0 + op.dest_start + x
                ref_at[i] = j
                kind[i] = EQUAL if op.tag == "equal" else WILD if folded[i] == WILDCARD else VARIANT
            if op.dest_end - op.dest_start > paired:
                ref_runs.append((d0 + op.src_start + paired - 1, r0 + op.dest_start + paired, r0 + op.dest_end))


def align(
    document: str,
    reference: str | ReferenceIndex,
    *,
    fold: Callable[[str], str] = fold_char,
    is_gap: Callable[[str], bool] = is_damage_mark,
    anchor: int = ANCHOR,
    max_segment: int = MAX_SEGMENT,
) -> Alignment:
    """``document`` aligned with ``reference`` (a text, or an index built once for many documents)."""
    index = reference if isinstance(reference, ReferenceIndex) else ReferenceIndex(reference, fold=fold, anchor=anchor)
    return index.align(document, is_gap=is_gap, max_segment=max_segment)
