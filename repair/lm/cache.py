"""A cache model: character n-gram counts of the document and batch at hand.

Classical commentaries quote their base text word for word, and the same
classic appears in many files, so what the document itself says is the
strongest witness for a gap in it.  The cache counts n-grams (up to order 4)
of the clean Han text of the current document (and batch, and any reference
texts) and gives an interpolated estimate P_cache(char | history), which the
scorer mixes with the static model: P = (1-w)·P_model + w·P_cache.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from operator import add

from repair.lm.tokens import han_projection

ORDER = 4


class CacheModel:
    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.counts: Counter[str] = Counter()
        self.contexts: Counter[str] = Counter()
        self.total = 0
        # Each character's neighbours in the text, read off the bigram counts
        # when first asked (and dropped when text is added): one pass over
        # the counts, not one over the text per character asked about.
        self._next: dict[str, set[str]] | None = None
        self._prev: dict[str, set[str]] = {}
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        self._next = None
        counts, contexts = self.counts, self.contexts
        for piece in han_projection(text):
            self.total += len(piece)
            # The n-grams of each order in text order (piece[i:i+n] for every
            # i), each order from the one below: Counter.update counts a list in C.
            grams = list(piece)
            counts.update(grams)
            for n in range(2, ORDER + 1):
                # A context is an n-gram's first n-1 characters: every
                # (n-1)-gram but the piece's last.
                contexts.update(grams[:-1])
                grams = list(map(add, grams, piece[n - 1 :]))
                counts.update(grams)

    def neighbours(self, before: str, after: str) -> set[str]:
        """The characters this text puts right after ``before`` or right before ``after``."""
        if self._next is None:
            self._next, self._prev = defaultdict(set), defaultdict(set)
            for gram in self.counts:
                if len(gram) == 2:
                    self._next[gram[0]].add(gram[1])
                    self._prev[gram[1]].add(gram[0])
        return self._next.get(before, set()) | self._prev.get(after, set())

    def prob(self, history: str, ch: str) -> float:
        """Interpolated estimate, longest history first (Witten-Bell style weights)."""
        if not self.total:
            return 0.0
        # .get, not [ ]: a Counter's missing key costs a Python call.
        counts, contexts = self.counts, self.contexts
        p = counts.get(ch, 0) / self.total
        for n in range(1, ORDER):
            h = history[-n:] if len(history) >= n else None
            if h is None:
                break
            c_h = contexts.get(h, 0)
            if not c_h:
                break
            lam = c_h / (c_h + 1.0)
            p = lam * counts.get(h + ch, 0) / c_h + (1 - lam) * p
        return p

    def mix(self, model_logp: float, history: str, ch: str, weight: float) -> float:
        p = (1.0 - weight) * 10.0**model_logp + weight * self.prob(history, ch)
        return math.log10(p) if p > 0 else model_logp
