"""Exact-context witnesses: what other copies of the text put in the gap.

Commentaries quote their base text word for word, and the same classic recurs
across files, so the surest evidence for a lost character is the same passage
elsewhere: in the clean parts of the document, in the batch, or in reference
texts the user supplies.  A witness is an occurrence of the slot's left and
right context (at least ``MIN_SIDE`` Han characters on each side, punctuation
ignored, both scripts compared in traditional form) with one character
between them.  Texts are indexed once; lookups cost a dictionary access.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from repair.lm.tokens import han_projection, to_traditional

MIN_SIDE = 4


class WitnessIndex:
    """Maps (left context, right context) of every character to what filled it."""

    def __init__(self, texts: Iterable[str] = (), *, side: int = MIN_SIDE, only: set[str] | None = None) -> None:
        """``only``: index just these contexts (a batch's gaps), so that a whole
        batch can witness its own gaps in memory proportional to the gaps."""
        self.side = side
        self.only = only
        # True when the documents being repaired are themselves indexed (a
        # batch witnessing itself): a document's own text must then be taken
        # out again, or it would count as another copy.
        self.includes_documents = False
        self.fills: dict[str, Counter[str]] = defaultdict(Counter)
        # Every run of 2·side characters of the texts, for a complete index
        # only: a lost character is restored only where no text reads the two
        # sides joined (``repair.fill.deletions``).
        self.joined: set[str] | None = set() if only is None else None
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        k = self.side
        only = self.only
        joined = self.joined
        for piece in han_projection(to_traditional(text)):
            for i in range(k, len(piece) - k):
                key = piece[i - k : i] + piece[i + 1 : i + 1 + k]
                if only is None or key in only:
                    self.fills[key][piece[i]] += 1
            if joined is not None:
                joined.update(piece[i : i + 2 * k] for i in range(len(piece) - 2 * k + 1))

    def key(self, left: str, right: str) -> str | None:
        k = self.side
        return left[-k:] + right[:k] if len(left) >= k and len(right) >= k else None

    def lookup(self, left: str, right: str) -> Counter[str]:
        """What fills the gap between ``left`` and ``right`` (traditional Han strings)."""
        k = self.side
        if len(left) < k or len(right) < k:
            return Counter()
        return self.fills.get(left[-k:] + right[:k], Counter())
