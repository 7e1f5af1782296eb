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
from pathlib import Path

import numpy as np
from rapidfuzz.distance import Levenshtein

from repair import collate_store
from repair.charclass import HAN_RANGES, PRIVATE_USE_RANGES
from repair.collate_store import Chars, cached, index_key
from repair.fill.witness import fold as fold_text
from repair.variants import variant_class

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
    """The default folding, per character: forms of one word compare equal,
    across scripts and across an edition's variant forms (爲 為 为, 賔 賓)."""
    return variant_class(fold_text(ch))


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

    raw: str | Chars
    folded: str | Chars
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
    between the two matched document characters that flank the span, and
    ``offsets`` where each is in the reference.  A run of marks is read as a
    whole: the reference characters between its flanks are what it stands
    for, however many marks it has (three U+FFFD may be one lost character);
    part of a run reads its share when the run has one mark per character,
    and otherwise the whole run's reading, with ``run`` (document offsets of
    the run's first and last position, end exclusive) saying what it covers:
    a ``？`` after a gap is punctuation as often as another gap, and the
    caller knows which.  When a flank is not aligned, ``text`` holds only
    what is aligned to the span's own positions and ``run`` is the span.

    ``solid`` means the reading can be trusted: the span lies between anchors
    with no unaligned stretch between, both flanking characters are matches
    with only marks between them and the span, the reference has no more
    characters there than the document has positions (a longer stretch holds
    a note or an addition, and where the gap falls in it is unknown), and at
    least ``MIN_MATCHES`` of the ``WINDOW`` characters on each side match.  An
    empty ``text`` with ``solid`` says the reference has nothing there.
    """

    start: int
    end: int
    text: str
    offsets: tuple[int, ...]
    solid: bool
    left_matches: int
    right_matches: int
    run: tuple[int, int]


@dataclass(frozen=True)
class ReferenceRun:
    """Reference characters with nothing in the document, between document characters ``before`` and ``after``
    (original offsets), where the document has ``marks`` damage marks (a run of them reads part of it)."""

    before: int
    after: int
    ref_start: int
    ref_end: int
    text: str
    marks: int


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
    # (document position before, document position after, reference start, end): reference characters
    # between two aligned document characters that nothing but marks stands for.
    ref_runs: list[tuple[int, int, int, int]]
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
        slots = right - left - 1
        flanked = 0 <= left and right < n and block[left] >= 0 and block[left] == block[right]
        run = (start, end)
        if flanked:
            lo, hi = ref_at[left] + 1, ref_at[right]
            if (left + 1, right) != (p0, p1) and hi - lo == slots:
                lo, hi = lo + p0 - left - 1, hi - (right - p1)  # one mark per character: the span's share
            elif slots:
                run = (int(self.doc.offsets[left + 1]), int(self.doc.offsets[right - 1]) + 1)
            positions: range | list[int] = range(lo, hi)
        else:
            positions = [ref_at[i] for i in range(p0, p1) if ref_at[i] >= 0]
        text = "".join(ref.raw[i] for i in positions)
        offsets = tuple(int(ref.offsets[i]) for i in positions)
        left_matches = self._matches(left, -1, window, block[left] if left >= 0 else -1)
        right_matches = self._matches(right, 1, window, block[right] if right < n else -1)
        solid = (
            flanked
            and kind[left] == EQUAL
            and kind[right] == EQUAL
            and all(block[i] == block[left] for i in range(left + 1, right))
            and all(kind[i] == WILD for i in (*range(left + 1, p0), *range(p1, right)))
            and len(text) <= max(1, p1 - p0)
            and left_matches >= min_matches
            and right_matches >= min_matches
        )
        return Reading(start, end, text, offsets, solid, left_matches, right_matches, run)

    def around(self, start: int, end: int, reach: int = 64) -> tuple[int, int] | None:
        """Reference offsets of the aligned characters nearest the document's
        ``start:end`` on each side (within ``reach`` positions), or None: where
        a stretch the alignment could not read (a garbled run) stands in the reference."""
        p0, p1 = self._positions(start, end)
        left, right = p0 - 1, p1
        while left >= max(0, p0 - reach) and self.ref_at[left] < 0:
            left -= 1
        while right < min(len(self.ref_at), p1 + reach) and self.ref_at[right] < 0:
            right += 1
        if left < 0 or right >= len(self.ref_at) or self.ref_at[left] < 0 or self.ref_at[right] < 0:
            return None
        a, b = int(self.ref.offsets[self.ref_at[left]]), int(self.ref.offsets[self.ref_at[right]])
        return (a, b) if a < b else None

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

    def _run(self, before: int, after: int, lo: int, hi: int) -> ReferenceRun:
        offs, ro = self.doc.offsets, self.ref.offsets
        return ReferenceRun(
            int(offs[before]),
            int(offs[after]),
            int(ro[lo]),
            int(ro[hi - 1]) + 1,
            self.ref.raw[lo:hi],
            after - before - 1,
        )

    def deletions(self, max_chars: int = MAX_DELETION) -> list[ReferenceRun]:
        """Reference characters (at most ``max_chars`` together) missing between two adjacent matching
        document characters: what the document may have lost silently."""
        kind = self.kind
        return [
            self._run(*run)
            for run in self.ref_runs
            if run[1] == run[0] + 1 and run[3] - run[2] <= max_chars and kind[run[0]] == kind[run[1]] == EQUAL
        ]

    def insertions(self, min_chars: int = MAX_DELETION + 1) -> list[ReferenceRun]:
        """Runs of reference characters, at least ``min_chars`` more than the document's marks there
        could stand for: notes, additions."""
        return [self._run(*run) for run in self.ref_runs if (run[3] - run[2]) - (run[1] - run[0] - 1) >= min_chars]

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

    def arrays(self) -> dict[str, np.ndarray]:
        """The index as plain arrays (what is stored on disk): the projection's
        code points as written and folded, its offsets, the anchors and their positions."""
        return {
            "raw": _codepoints(str(self.proj.raw)),
            "folded": _codepoints(str(self.proj.folded)),
            "offsets": np.asarray(self.proj.offsets),
            "hashes": np.asarray(self.hashes),
            "positions": np.asarray(self.positions),
        }

    @classmethod
    def from_arrays(
        cls,
        reference: str,
        arrays: dict[str, np.ndarray],
        *,
        fold: Callable[[str], str] = fold_char,
        anchor: int = ANCHOR,
    ) -> ReferenceIndex:
        """The index of ``reference`` from its ``arrays()`` (mapped ones stay mapped: nothing is copied)."""
        self = cls.__new__(cls)
        self.reference = reference
        self.fold = fold
        self.anchor = anchor
        self.proj = _Projection(Chars(arrays["raw"]), Chars(arrays["folded"]), arrays["offsets"])
        self.hashes, self.positions = arrays["hashes"], arrays["positions"]
        return self

    def __len__(self) -> int:
        return len(self.proj.raw)

    def align(
        self,
        document: str,
        *,
        is_gap: Callable[[str], bool] = is_damage_mark,
        max_segment: int = MAX_SEGMENT,
    ) -> Alignment:
        """Align ``document`` with the reference: anchors, their longest chain, then the stretches between.

        Marks take no part in the edit distance: what the reference has
        between the characters that flank a run of marks is what the run
        stands for, so a mark that is only punctuation (``？``) or one of
        several for one character costs nothing and cannot pull a
        character out of a note."""
        wild = {c for c in set(document) if is_gap(c)}
        doc = _project(document, self.fold, set(), wild)
        ref = self.proj
        n = len(doc.folded)
        cost = {"doc_ngrams": 0, "anchors": 0, "cells": 0}
        kind = [UNALIGNED] * n
        ref_at = [-1] * n
        block = [-1] * n
        alignment = Alignment(document, self.reference, doc, ref, ref_at, kind, block, [], cost)
        # The document's characters without its marks, and where each is in the document.
        at = [i for i, c in enumerate(doc.folded) if c != WILDCARD]
        plain = doc.folded.replace(WILDCARD, "")
        runs = self._runs(doc.folded, at, cost)
        if not runs:
            return alignment
        m = len(plain)
        p_kind = [UNALIGNED] * m
        p_ref = [-1] * m
        p_block = [-1] * m
        p_runs: list[tuple[int, int, int]] = []
        blk = 0
        for j, (d0, r0, d1, r1) in enumerate(runs):
            for i in range(d0, d1):
                p_kind[i], p_ref[i], p_block[i] = EQUAL, r0 + i - d0, blk
            if j + 1 == len(runs):
                break
            e0, s0 = runs[j + 1][0], runs[j + 1][1]
            if max(e0 - d1, s0 - r1) <= max_segment:
                self._segment(plain, d1, e0, r1, s0, blk, p_kind, p_ref, p_block, p_runs, cost)
            else:
                blk += 1
        _slide_to_marks(p_runs, p_kind, p_ref, at, ref.folded)
        for i, pos in enumerate(at):
            kind[pos], ref_at[pos], block[pos] = p_kind[i], p_ref[i], p_block[i]
        for i, lo, hi in p_runs:
            alignment.ref_runs.append((at[i], at[i + 1], lo, hi))
        # Marks between two characters of one block belong to it, one reference character each when
        # the reference has as many there as there are marks.
        for i in range(m - 1):
            a, b = at[i], at[i + 1]
            if b - a > 1 and p_block[i] >= 0 and p_block[i] == p_block[i + 1]:
                lo, hi = p_ref[i] + 1, p_ref[i + 1]
                each = p_ref[i] >= 0 and p_ref[i + 1] >= 0 and hi - lo == b - a - 1
                for x in range(a + 1, b):
                    kind[x], block[x] = WILD, p_block[i]
                    if each:
                        ref_at[x] = lo + x - a - 1
        for pos in range(n):
            if doc.folded[pos] == WILDCARD and kind[pos] == UNALIGNED:
                kind[pos] = WILD
        # Beyond the outer anchors and into stretches left unaligned: matches read outwards, no gaps.
        for d0, r0, d1, r1 in runs:
            self._ungapped(alignment, at[d0] - 1, r0 - 1, -1)
            self._ungapped(alignment, at[d1 - 1] + 1, r1, 1)
        return alignment

    def _ungapped(self, alignment: Alignment, d: int, r: int, step: int) -> None:
        """Matches read outwards from a run's end, a mark standing for one character, until a mismatch
        or a position already aligned."""
        kind, ref_at = alignment.kind, alignment.ref_at
        folded, ref = alignment.doc.folded, self.proj.folded
        while 0 <= d < len(folded) and 0 <= r < len(ref) and ref_at[d] < 0 and alignment.block[d] < 0:
            if folded[d] == WILDCARD:
                kind[d] = WILD
            elif folded[d] == ref[r]:
                kind[d] = EQUAL
            else:
                break
            ref_at[d] = r
            d += step
            r += step

    def _runs(self, folded: str, at: list[int], cost: dict[str, int]) -> list[tuple[int, int, int, int]]:
        """The chain of anchors as runs of matching characters (start, reference start, end, reference end),
        counted in the document's characters without its marks."""
        k = self.anchor
        hashes = _ngram_hashes(folded, k)
        cost["doc_ngrams"] = len(hashes)
        if not len(hashes) or not len(self.hashes):
            return []
        # An n-gram with a mark anchors nothing.
        wild = np.frombuffer(folded.encode("utf-32-le"), dtype=np.uint32) == 0
        spans_wild = np.convolve(wild.astype(np.int32), np.ones(k, dtype=np.int32), "valid") > 0
        mine, where = _once(hashes)
        keep = ~spans_wild[where]
        mine, where = mine[keep], where[keep]
        found_at = np.searchsorted(self.hashes, mine)
        found_at[found_at >= len(self.hashes)] = 0
        found = self.hashes[found_at] == mine
        ref_folded = self.proj.folded
        plain_of = {pos: i for i, pos in enumerate(at)}
        pairs = []
        for d, r in zip(where[found].tolist(), self.positions[found_at[found]].tolist(), strict=True):
            if folded[d : d + k] == ref_folded[r : r + k]:  # not a collision of hashes
                pairs.append((plain_of[d], r))
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
        return [(a, b, c, d) for a, b, c, d in runs]

    def _segment(
        self,
        plain: str,
        d0: int,
        d1: int,
        r0: int,
        r1: int,
        blk: int,
        kind: list[int],
        ref_at: list[int],
        block: list[int],
        ref_runs: list[tuple[int, int, int]],
        cost: dict[str, int],
    ) -> None:
        """The stretch between two anchor runs, aligned by edit distance."""
        a, b = plain[d0:d1], self.proj.folded[r0:r1]
        cost["cells"] += len(a) * len(b)
        for i in range(d0, d1):
            kind[i], block[i] = EXTRA, blk
        if not a:
            if b:
                ref_runs.append((d0 - 1, r0, r1))
            return
        if not b:
            return
        ops = [[op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end] for op in Levenshtein.opcodes(a, b)]
        _gather_inserts(ops, a, b)
        for tag, s0, s1, t0, t1 in ops:
            if tag == "insert":
                if t1 > t0:
                    ref_runs.append((d0 + s0 - 1, r0 + t0, r0 + t1))
                continue
            if tag == "delete":
                continue
            paired = min(s1 - s0, t1 - t0)
            for x in range(paired):
                ref_at[d0 + s0 + x] = r0 + t0 + x
                kind[d0 + s0 + x] = EQUAL if tag == "equal" else VARIANT
            if t1 - t0 > paired:
                ref_runs.append((d0 + s0 + paired - 1, r0 + t0 + paired, r0 + t1))


# How far (in characters) a reference run may slide to reach a run of marks.
MAX_SLIDE = 8


def _slide_to_marks(
    runs: list[tuple[int, int, int]], kind: list[int], ref_at: list[int], at: list[int], ref: str
) -> None:
    """Edit distance ties: where the reference has a character the document lacks beside a run of the
    same character (大王王季 against 大〓王季), the missing one may be placed on either side of the run.
    Beside a run of marks it is what they stand for, so a reference run that can slide over identical
    characters to a place where the document has marks is put there; otherwise the marks would read
    as standing for nothing."""

    def marks_after(i: int) -> bool:
        return 0 <= i < len(at) - 1 and at[i + 1] - at[i] > 1

    for idx, (i, lo, hi) in enumerate(runs):
        if marks_after(i):
            continue
        size = hi - lo
        # leftwards: the document character before the run takes the run's last character
        j, a = i, lo
        for _ in range(MAX_SLIDE):
            if j < 0 or kind[j] != EQUAL or ref_at[j] != a - 1 or ref[a - 1] != ref[a - 1 + size]:
                break
            j, a = j - 1, a - 1
            if marks_after(j):
                for x in range(j + 1, i + 1):
                    ref_at[x] += size
                runs[idx] = (j, a, a + size)
                break
        if runs[idx][0] != i:
            continue
        # rightwards: the document character after the run takes the run's first character
        j, a = i, lo
        for _ in range(MAX_SLIDE):
            if j + 1 >= len(kind) or kind[j + 1] != EQUAL or ref_at[j + 1] != a + size or ref[a] != ref[a + size]:
                break
            j, a = j + 1, a + 1
            if marks_after(j):
                for x in range(i + 1, j + 1):
                    ref_at[x] -= size
                runs[idx] = (j, a, a + size)
                break


# The longest run of matches that may be moved to join the two insertions around it.
MAX_SHIFT = 3


def _gather_inserts(ops: list[list], a: str, b: str) -> None:
    """Edit distance ties: a note that happens to contain a character of the text around it may be
    cut in two, that character matched inside the note.  A short match between two insertions is moved
    to the end (or start) of them, where the same characters are, so that the note stays whole."""
    for k in range(1, len(ops) - 1):
        before, here, after = ops[k - 1], ops[k], ops[k + 1]
        if here[0] != "equal" or before[0] != "insert" or after[0] != "insert":
            continue
        size = here[2] - here[1]
        if size > MAX_SHIFT or before[4] == before[3] or after[4] == after[3]:
            continue
        text = a[here[1] : here[2]]
        if after[4] - after[3] >= size and b[after[4] - size : after[4]] == text:
            before[4] = after[4] - size
            here[3], here[4] = after[4] - size, after[4]
            after[3] = after[4]
        elif before[4] - before[3] >= size and b[before[3] : before[3] + size] == text:
            here[3], here[4] = before[3], before[3] + size
            after[3] = before[3] + size
            before[4] = before[3]


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


INDEX_ARRAYS = ("raw", "folded", "offsets", "hashes", "positions")


def reference_index(
    reference: str, *, root: Path | str | None = "default", min_chars: int | None = None
) -> ReferenceIndex:
    """``ReferenceIndex(reference)``, kept on disk (``repair.collate_store``) once the
    reference is long enough for that to pay: built once, then mapped by every
    process that needs it, a batch's workers sharing its pages."""
    if len(reference) < (collate_store.MIN_CACHED_CHARS if min_chars is None else min_chars):
        return ReferenceIndex(reference)
    built: list[ReferenceIndex] = []

    def build() -> dict[str, np.ndarray]:
        if not built:
            built.append(ReferenceIndex(reference))
        return built[0].arrays()

    arrays, folder = cached(index_key("collate", reference, anchor=ANCHOR), INDEX_ARRAYS, build, root=root)
    if folder is None:
        return built[0]  # no cache: the index built in memory
    return ReferenceIndex.from_arrays(reference, dict(arrays))


# A text's sketch: one of every 2**SKETCH_BITS of its anchor-length n-grams (chosen by the hash's
# top bits, so two texts sample the same n-grams), at most SKETCH_CAP of them (the smallest hashes,
# so that a long text's sketch is a consistent subsample too).
SKETCH_BITS = 4
SKETCH_CAP = 4096


def sketch(text: str, *, anchor: int = ANCHOR, bits: int = SKETCH_BITS, cap: int = SKETCH_CAP) -> np.ndarray:
    """Sorted, distinct hashes of a sample of the text's folded n-grams (Han characters only,
    none across a damage mark).

    Two texts that share a passage, even in other forms and punctuation or with notes between,
    share many of these; texts that share nothing share almost none.  Finding which files of a
    batch to collate with each other then takes one pass over the sketches instead of aligning
    every pair of files, and a sketch is a few kilobytes whatever the text's length.
    """
    wild = {c for c in set(text) if is_damage_mark(c)}
    folded = _project(text, fold_char, set(), wild).folded
    hashes = _ngram_hashes(folded, anchor)
    if wild and len(hashes):
        marks = (_codepoints(folded) == 0).astype(np.int32)
        hashes = hashes[np.convolve(marks, np.ones(anchor, dtype=np.int32), "valid") == 0]
    sampled = hashes[(hashes >> np.uint64(64 - bits)) == 0]
    return np.unique(sampled)[:cap]
