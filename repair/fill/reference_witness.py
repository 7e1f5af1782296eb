"""The exact-context witnesses of reference texts, as sorted arrays on disk.

``WitnessIndex`` holds a dictionary entry (a context and a counter of what
filled it) for every character of its texts and every width of gap: about
1.7 KB a character, so a reference of a million characters took 2 GB, and a
batch pickled it to each worker.  A reference's contexts are instead hashed
into sorted arrays, one per width (and one of the runs of both sides joined,
for ``WitnessIndex.joined``), stored once (``repair.collate_store``) and mapped
by every process: a lookup is a binary search and a check of the few places
found against the text, and gives what the dictionary would have given, in
the same order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from repair import collate_store
from repair.collate_store import cached, codepoints, index_key, load
from repair.errors import RepairError
from repair.fill.witness import MAX_RUN, MIN_SIDE, WitnessIndex, _fold_char, context_key
from repair.lm.tokens import MARK_RE, han_projection, to_traditional
from repair.plausibility import script_of

_BASE = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
# Width 0 is the index of ``joined``: the two sides with nothing between.
WIDTHS = tuple(range(MAX_RUN + 1))
ARRAYS = ("text", "folded", *(f"hashes{w}" for w in WIDTHS), *(f"positions{w}" for w in WIDTHS))
# Between two pieces of a text in its arrays: no context may span it.
SEPARATOR = "\x00"


class _FoldChangesLength(Exception):
    """A character folds to more or fewer than one: positions in the text and
    its folded form would differ, which the arrays cannot represent."""


def _hashes(cps: np.ndarray, n: int) -> np.ndarray:
    """The polynomial hash of every n-gram of ``cps`` (as ``_key_hash`` computes it for one)."""
    count = len(cps) - n + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    wide = cps.astype(np.uint64)
    h = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(n):
            h = h * np.uint64(_BASE) + wide[j : j + count]
    return h


def _key_hash(key: str) -> int:
    h = 0
    for ch in key:
        h = (h * _BASE + ord(ch)) & _MASK
    return h


def witness_arrays(text: str, side: int = MIN_SIDE) -> Iterator[tuple[str, np.ndarray]]:
    """The arrays of ``text``'s contexts, one after another (each can be written
    and freed before the next is made): what ``WitnessIndex([text])`` would hold.

    The text is taken as ``WitnessIndex.add`` takes it (a simplified text in
    traditional form, its Han pieces cut at marks, folded a character at a
    time); the pieces are joined by a separator that no context may span.
    Hashes are 32 bits: a lookup checks every place found against the text,
    so a collision costs one comparison, never a wrong answer.
    """
    if script_of(text) == "simplified":
        text = to_traditional(text)
    joined = SEPARATOR.join(han_projection(text, MARK_RE))
    table = {}
    for ch in set(joined) - {SEPARATOR}:
        folded = _fold_char(ch)
        if len(folded) != 1:
            raise _FoldChangesLength(ch)
        if folded != ch:
            table[ord(ch)] = folded
    raw = codepoints(joined)
    fold = codepoints(joined.translate(table)) if table else raw
    del joined
    k, n = side, len(raw)
    index = np.int32 if n < 2**31 - 2 * (MAX_RUN + k) else np.int64
    # Separators before each position: a span holds none when the counts at its ends agree.
    seps = np.zeros(n + 1, dtype=index)
    np.cumsum(raw == 0, dtype=index, out=seps[1:])
    sides = _hashes(fold, k)
    shift = np.uint64(pow(_BASE, k, 1 << 64))
    yield "text", raw
    yield "folded", fold
    for w in WIDTHS:
        at = np.arange(k, max(k, n - w - k + 1), dtype=index)
        at = at[seps[at + w + k] == seps[at - k]]
        with np.errstate(over="ignore"):
            h = ((sides[at - k] * shift + sides[at + w]) >> np.uint64(32)).astype(np.uint32)
        order = np.argsort(h, kind="stable")
        yield f"hashes{w}", h[order]
        del h
        yield f"positions{w}", at[order]


class _Part:
    """One reference's arrays; pickled as the folder they are mapped from, when they are."""

    def __init__(self, arrays: dict[str, np.ndarray], folder: Path | None, side: int) -> None:
        self.arrays = arrays
        self.folder = folder
        self.side = side
        self.text = arrays["text"]
        self.folded = arrays["folded"]
        self.hashes = [arrays[f"hashes{w}"] for w in WIDTHS]
        self.positions = [arrays[f"positions{w}"] for w in WIDTHS]

    def __getstate__(self) -> dict:
        if self.folder is not None:
            return {"folder": str(self.folder), "side": self.side}
        return {"arrays": {k: np.asarray(v) for k, v in self.arrays.items()}, "side": self.side}

    def __setstate__(self, state: dict) -> None:
        arrays = state.get("arrays")
        if arrays is None:
            arrays = load(Path(state["folder"]), ARRAYS)
            if arrays is None:
                raise RepairError(f"{state['folder']}: the reference's witness index is gone from the cache")
        self.__init__(arrays, Path(state["folder"]) if "folder" in state else None, state["side"])  # type: ignore[misc]

    def places(self, key: str, width: int) -> np.ndarray:
        """Where ``key`` is the context of a gap of ``width``, in text order."""
        hashes = self.hashes[width]
        h = np.uint32(_key_hash(key) >> 32)
        lo, hi = int(np.searchsorted(hashes, h, "left")), int(np.searchsorted(hashes, h, "right"))
        if lo == hi:
            return np.zeros(0, dtype=np.int64)
        at = np.asarray(self.positions[width][lo:hi], dtype=np.int64)
        k = self.side
        around = np.concatenate((np.arange(-k, 0), np.arange(width, width + k)))
        same = (self.folded[at[:, None] + around] == codepoints(key)).all(axis=1)  # not a collision
        return at[same]

    def fills(self, key: str, width: int) -> list[str]:
        at = self.places(key, width)
        if not len(at):
            return []
        chars = np.ascontiguousarray(self.text[at[:, None] + np.arange(width)]).tobytes().decode("utf-32-le")
        return [chars[i : i + width] for i in range(0, len(chars), width)]


class _Table:
    """``WitnessIndex.runs[width]`` read from the arrays: a context's fills, counted in text order."""

    def __init__(self, parts: Sequence[_Part], width: int, side: int) -> None:
        self.parts, self.width, self.side = parts, width, side

    def get(self, key: object, default: object = None) -> Counter[str] | object:
        if not isinstance(key, str) or len(key) != 2 * self.side:
            return default
        found: Counter[str] = Counter()
        for part in self.parts:
            found.update(part.fills(key, self.width))
        return found if found else default

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None

    def __getitem__(self, key: str) -> Counter[str]:
        got = self.get(key)
        return got if isinstance(got, Counter) else Counter()


class _Joined:
    """``WitnessIndex.joined``: whether a text reads the two sides of ``key`` with nothing between."""

    def __init__(self, parts: Sequence[_Part], side: int) -> None:
        self.parts, self.side = parts, side

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str) or len(key) != 2 * self.side:
            return False
        return any(len(part.places(key, 0)) for part in self.parts)


class ReferenceWitnesses:
    """A complete ``WitnessIndex`` of reference texts, answered from their arrays.

    Has what the stages read of an index (``side``, ``runs``, ``fills``,
    ``joined``, ``lookup``); a batch index is laid over it
    (``WitnessIndex.layer``) instead of copying its contexts.
    """

    includes_documents = False
    only = None

    def __init__(self, parts: Sequence[_Part], side: int = MIN_SIDE) -> None:
        self.parts = list(parts)
        self.side = side
        self.runs = {w: _Table(self.parts, w, side) for w in range(1, MAX_RUN + 1)}
        self.fills = self.runs[1]
        self.joined = _Joined(self.parts, side)

    def __getstate__(self) -> dict:
        return {"parts": self.parts, "side": self.side}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["parts"], state["side"])  # type: ignore[misc]

    def lookup(self, left: str, right: str, width: int = 1) -> Counter[str]:
        """As ``WitnessIndex.lookup``."""
        key = context_key(left, right, self.side)
        table = self.runs.get(width)
        if key is None or table is None:
            return Counter()
        return table[key]

    def mapped(self) -> bool:
        """Whether every reference's arrays are mapped from the cache (a worker then gets only their folders)."""
        return all(part.folder is not None for part in self.parts)


def reference_witnesses(
    texts: Iterable[str],
    *,
    side: int = MIN_SIDE,
    root: Path | str | None = "default",
    min_chars: int | None = None,
) -> ReferenceWitnesses | WitnessIndex:
    """The witness index of ``texts`` (references): arrays, mapped from the cache
    for a long text; a ``WitnessIndex`` in the rare case the arrays cannot hold it."""
    texts = tuple(texts)
    least = collate_store.MIN_CACHED_CHARS if min_chars is None else min_chars
    parts = []
    try:
        for text in texts:
            if len(text) < least:
                parts.append(_Part(dict(witness_arrays(text, side)), None, side))
                continue
            key = index_key("witness", text, side=side, widths=len(WIDTHS))
            arrays, folder = cached(key, ARRAYS, lambda t=text: witness_arrays(t, side), root=root)
            parts.append(_Part(dict(arrays), folder, side))
    except _FoldChangesLength:
        return WitnessIndex(texts, side=side)
    return ReferenceWitnesses(parts, side)
