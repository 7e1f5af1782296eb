"""The files of a batch as collation witnesses of each other.

A batch often holds several damaged copies of one text, or chapters of a text
beside its commentary, each damaged in other places and each written with its
own variant forms, punctuation and notes.  Collated with each other
(``repair.collate``), one file reads what another lost where the exact
four-character contexts of the batch witnesses (``repair.fill.witness``) are
broken by a variant or a note.

Aligning every file with every other would be quadratic in the number of
files.  Each file is collated instead with at most ``PARTNERS`` others: those
whose sketches (``repair.collate.sketch``) share the most sampled n-grams with
its own.  The sketches are grouped by hash in one sort, so choosing costs time
in proportion to the sketches, and a partner's index is built only while the
document that needs it is repaired.

A partner is another damaged file, exactly repaired: where it is damaged too,
its reading has marks or nothing there, and decides nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from repair.types import Edit

if TYPE_CHECKING:
    from repair.collate import ReferenceIndex

# How many files one document is collated with at most: each is an alignment per document.
PARTNERS = 3
# Sampled n-grams two files must share to be collated (one in sixteen is sampled: some 130
# characters of a shared passage, where a chance likeness of phrasing gives a few).
MIN_SHARED = 8
# A sampled n-gram in more files than this is a formula of the genre, not a shared passage:
# it chooses nothing (and would cost pairs in the square of its files).
CROWD = 16


def choose(
    sketches: Sequence[np.ndarray],
    *,
    same: Sequence[str] | None = None,
    most: int = PARTNERS,
    min_shared: int = MIN_SHARED,
    crowd: int = CROWD,
) -> list[tuple[int, ...]]:
    """For each sketch, the other sketches it shares the most hashes with (at least ``min_shared``,
    at most ``most``, most shared first).

    ``same``: a key per file (its text's digest); files with one text are not each other's
    partners, as a file is not its own: a copy damaged in the very same places reads nothing.
    """
    count = len(sketches)
    none: list[tuple[int, ...]] = [() for _ in range(count)]
    sizes = np.fromiter((len(s) for s in sketches), dtype=np.int64, count=count)
    if count < 2 or not sizes.sum():
        return none
    hashes = np.concatenate([np.asarray(s, dtype=np.uint64) for s in sketches])
    files = np.repeat(np.arange(count, dtype=np.int64), sizes)
    order = np.argsort(hashes, kind="stable")
    hashes, files = hashes[order], files[order]
    starts = np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]])
    lengths = np.diff(np.r_[starts, len(hashes)])
    pairs = []
    for size in range(2, crowd + 1):
        at = starts[lengths == size]
        if not len(at):
            continue
        members = files[at[:, None] + np.arange(size)]
        grid = members[:, :, None] * count + members[:, None, :]
        pairs.append(grid[:, ~np.eye(size, dtype=bool)].ravel())
    if not pairs:
        return none
    keys, shared = np.unique(np.concatenate(pairs), return_counts=True)
    mine, theirs = keys // count, keys % count
    keep = shared >= min_shared
    mine, theirs, shared = mine[keep], theirs[keep], shared[keep]
    out: list[list[int]] = [[] for _ in range(count)]
    for i in np.lexsort((theirs, -shared, mine)).tolist():
        a, b = int(mine[i]), int(theirs[i])
        if len(out[a]) < most and a != b and (same is None or same[a] != same[b]):
            out[a].append(b)
    return [tuple(p) for p in out]


def document_key(text: str) -> str:
    """What a document is known by among the batch's partners: the pipeline sees only its text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class Partner:
    """Another file of the batch as a collation reference, and the name its readings are credited to."""

    name: str
    index: ReferenceIndex


class BatchPartners:
    """The partners of each document of a batch (by the document's key), their exactly repaired
    texts read from disk and indexed only when a document with gaps asks, so that memory holds
    the partners of one document at a time.

    ``table``: document key → ((partner's name, path of its kept text), ...); ``owner``: what
    keeps the texts on disk (a temporary folder) alive as long as this object.
    """

    def __init__(self, table: dict[str, tuple[tuple[str, str], ...]], owner: object = None) -> None:
        self.table = table
        self._owner = owner

    def __call__(self, text: str) -> tuple[Partner, ...]:
        from repair.collate import ReferenceIndex

        out = []
        for name, path in self.table.get(document_key(text), ()):
            try:
                kept = Path(path).read_text(encoding="utf-8")
            except OSError:
                continue  # a partner gone from disk witnesses nothing
            out.append(Partner(name, ReferenceIndex(kept)))
        return tuple(out)

    def __len__(self) -> int:
        return len(self.table)

    def __getstate__(self) -> dict:
        # Workers read the texts the parent keeps; the folder is the parent's to remove.
        return {"table": self.table, "_owner": None}


def digest(partners: Sequence[tuple[str, str]]) -> str:
    """What a file's partners are, for the batch's fingerprint: their names and their kept texts'
    digests (a partner edited since the last run reads otherwise)."""
    if not partners:
        return ""
    return hashlib.sha256(repr(sorted(partners)).encode("utf-8")).hexdigest()[:16]


def credit(before: Sequence[Edit], after: Sequence[Edit], partners: Sequence[Partner], first: int) -> list[Edit]:
    """``after`` (the edits once the partners have read the gaps ``before`` left), with each gap a
    partner read naming the file it was read from.

    The partners' alignments come after the ``first`` references', and are numbered after them.
    """
    out = list(after)
    read = []
    for i, (old, new) in enumerate(zip(before, after, strict=True)):
        found = new.detail.get("collation") if new is not old else None
        if not found:
            continue
        n = found["reference"] - 1
        name = partners[n].name
        source = f"witness: {name} (a file of this batch), aligned by collation"
        out[i] = replace(
            new,
            candidates=tuple(replace(c, source=source) for c in new.candidates),
            note=f"read from {name} (a file of this batch), aligned by collation",
            detail={**new.detail, "collation": {**found, "reference": first + n + 1, "witness": name}},
        )
        read.append(i)
    return _same_codes(out, read)


# Marks that stand for one character wherever they recur in a document (the fill decides all the
# occurrences of one together).
RECURRING_KINDS = ("private_use", "foreign_symbol")


def _same_codes(edits: list[Edit], read: Sequence[int]) -> list[Edit]:
    """Where partners read a recurring code (every reading alike), its other occurrences are
    written so too.

    The fill decides a code from all its occurrences together; once one is read here it is no
    longer among them, and the others would lose the evidence it brought (a code whose one
    witnessed occurrence a partner reads would be left marked everywhere else).
    """
    readings: dict[str, set[str]] = {}
    source: dict[str, Edit] = {}
    for i in read:
        e = edits[i]
        if e.kind in RECURRING_KINDS:
            readings.setdefault(e.before, set()).add(e.after)
            source.setdefault(e.before, e)
    if not readings:
        return edits
    out = list(edits)
    for i, e in enumerate(edits):
        if e.applied or e.kind not in RECURRING_KINDS or len(readings.get(e.before, ())) != 1:
            continue
        src = source[e.before]
        out[i] = replace(
            e,
            after=src.after,
            applied=True,
            confidence=src.confidence,
            candidates=src.candidates,
            slots=(),
            note=f"the same code as at offset {src.start}, {src.note}",
            detail={**e.detail, "collation": {**src.detail["collation"], "same_code_as": src.start}},
        )
    return out


def chosen(
    names: Sequence[str],
    keys: Sequence[str],
    sketches: Sequence[np.ndarray],
    paths: Sequence[str],
    digests: Sequence[str],
) -> tuple[dict[str, tuple[tuple[str, str], ...]], list[str]]:
    """Each file's partners as a ``BatchPartners`` table, and a digest of them per file (for the
    batch's fingerprint): ``keys`` are the files' document keys, ``paths`` where their exactly
    repaired texts are kept, ``digests`` those texts' digests."""
    table: dict[str, tuple[tuple[str, str], ...]] = {}
    digested = []
    for i, picked in enumerate(choose(sketches, same=keys)):
        if picked:
            table.setdefault(keys[i], tuple((names[j], paths[j]) for j in picked))
        digested.append(digest([(names[j], digests[j]) for j in picked]))
    return table, digested


class Kept:
    """A batch's exactly repaired texts kept in a temporary folder while they are read, with their
    sketches; once every text is in, the partners of each (the library's batch, where the files are
    only texts, named by their place in it)."""

    def __init__(self) -> None:
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="repair-partners-")
        self._rows: list[tuple[str, str, np.ndarray, str]] = []

    def add(self, name: str, text: str, kept: str) -> None:
        """``text`` as it will be repaired, ``kept`` as the exact repairs leave it."""
        from repair.collate import sketch

        path = Path(self._dir.name) / f"{len(self._rows)}.txt"
        path.write_text(kept, encoding="utf-8")
        self._rows.append((name, document_key(text), sketch(kept), str(path)))

    def partners(self) -> BatchPartners:
        names, keys, sketches, paths = (list(x) for x in zip(*self._rows, strict=True)) if self._rows else ([],) * 4
        table, _ = chosen(names, keys, sketches, paths, [""] * len(paths))
        used = {path for entry in table.values() for _, path in entry}
        for path in paths:
            if path not in used:
                Path(path).unlink()  # a text nobody is collated with
        self._rows = []
        return BatchPartners(table, owner=self._dir)


def no_partners(text: str) -> tuple[Partner, ...]:
    """A single document, or a batch without batch witnesses: no other files."""
    return ()
