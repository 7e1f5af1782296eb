"""Scoring candidates in context with a KenLM character model.

A slot is scored with its left and right context: the forward model's
log-probability of the window ``left + candidate + right`` (only the terms
that depend on the candidate are computed: the candidate itself and the right
context, which the candidate conditions).  The left context's state is built
once per slot and reused for every candidate (KenLM's State/BaseScore API),
which is what makes scoring a whole vocabulary affordable.

A ``CharLM`` pickles as its path, so workers reload it by mmap.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable, Sequence
from itertools import repeat
from pathlib import Path
from typing import TypeVar

import numpy as np

from repair.lm.cache import ORDER as CACHE_ORDER
from repair.lm.cache import CacheModel

MODELS_DIR = Path(__file__).resolve().parent.parent.parent / "models"
DEFAULT_MODEL_NAME = "classical-trad.binary"
ENV_MODEL = "REPAIR_MODEL"
# Shortlists kept for the contexts seen (bounded: emptied when full).
MAX_SHORTLISTS = 4096
# Second terms kept per (character after the slot, candidate set): one array
# of the candidate set's length each.
MAX_SECOND_TERMS = 64
T = TypeVar("T")


def _kept_for(store: dict, key, candidates: Sequence[str], limit: int, make: Callable[[], T]) -> T:
    """What ``make`` gives for a candidate set, kept in ``store`` under ``key``
    (which names the set by its identity: a set is checked to be the same
    object, not hashed whole); the store is emptied when it holds ``limit``."""
    got = store.get(key)
    if got is None or got[0] is not candidates:
        if len(store) >= limit:
            store.clear()
        got = store[key] = (candidates, make())
    return got[1]


def default_model_path() -> Path:
    """The shipped model, or the one named by $REPAIR_MODEL."""
    env = os.environ.get(ENV_MODEL)
    if env:
        return Path(env)
    for candidate in (MODELS_DIR / DEFAULT_MODEL_NAME, Path(__file__).resolve().parent / "data" / DEFAULT_MODEL_NAME):
        if candidate.exists():
            return candidate
    return MODELS_DIR / DEFAULT_MODEL_NAME


class CharLM:
    """A character n-gram model (KenLM binary or ARPA) over Han tokens."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import kenlm

        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"language model not found: {self.path}")
        self._kenlm = kenlm
        self.model = kenlm.Model(str(self.path))
        self.order = self.model.order
        self._known: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._position_of: dict[int, tuple[Sequence[str], dict[str, int]]] = {}
        self._shortlists: dict[tuple, tuple[Sequence[str], list[int]]] = {}

    def known(self, chars: tuple[str, ...]) -> tuple[str, ...]:
        """The characters of ``chars`` in the model's vocabulary (memoized per
        candidate set: the fill asks for the same sets for every gap)."""
        got = self._known.get(chars)
        if got is None:
            got = self._known[chars] = tuple(c for c in chars if c in self.model)
        return got

    def __reduce__(self):
        return (CharLM, (str(self.path),))

    def __contains__(self, token: str) -> bool:
        return token in self.model

    def sentence_logp(self, chars: str, *, bos: bool = False, eos: bool = False) -> float:
        """Log10 probability of a Han string (tokens are its characters)."""
        return self.model.score(" ".join(chars), bos=bos, eos=eos)

    def perplexity_parts(self, chars: str) -> tuple[float, int]:
        """(total log10 probability, tokens) of a line, with sentence boundaries."""
        return self.model.score(" ".join(chars), bos=True, eos=True), len(chars) + 1

    def _state_after(self, left: str):
        k = self._kenlm
        state = k.State()
        self.model.NullContextWrite(state)
        out = k.State()
        for ch in left[-(self.order - 1) :] if self.order > 1 else "":
            self.model.BaseScore(state, ch, out)
            state, out = out, state
        return state

    def shortlist(
        self, left: str, candidates: Sequence[str], right: str, keep: int, *, cache: CacheModel | None = None
    ) -> list[int]:
        """Indices of the candidates worth scoring in full: the ``keep`` best by
        the model's first two terms (the slot and the character after it), plus
        any the document itself puts next to this context (the cache's witnesses).

        Scoring every candidate with all its right context and the cache costs
        a Python call per term; this pass costs two model calls per candidate.
        """
        if len(candidates) <= keep:
            return list(range(len(candidates)))
        first = right[:1]
        # The pass depends on the model's state after ``left`` (its last few
        # characters) and on the first character after: gaps in the same
        # context (often an empty one) are shortlisted once.
        key = (left[-(self.order - 1) :] if self.order > 1 else "", first, id(candidates), keep)
        chosen = set(
            _kept_for(
                self._shortlists,
                key,
                candidates,
                MAX_SHORTLISTS,
                lambda: self._shortlist(left, candidates, first, keep),
            )
        )
        if cache is not None and cache.total:
            position = self._positions(candidates)
            for ch in cache.neighbours(left[-1:], right[:1]):
                i = position.get(ch)
                if i is not None:
                    chosen.add(i)
        return sorted(chosen)

    def _shortlist(self, left: str, candidates: Sequence[str], first: str, keep: int) -> list[int]:
        return np.argpartition(-self._partial_scores(left, candidates, first), keep)[:keep].tolist()

    def _partial_scores(self, left: str, candidates: Sequence[str], first: str) -> np.ndarray:
        """Each candidate's first two terms after ``left``: the slot, and ``first`` after it.

        Each term is the model's own value and the two add as doubles, so
        the sums are exact.  The calls go through ``map`` (no Python loop per
        candidate).  The second term depends only on the model's state after
        the candidate, which for most candidates is the state after the
        candidate alone: once ``first`` has come back, that term is read from
        what it was then, and asked only where the state differs.
        """
        model = self.model
        n = len(candidates)
        outs = self._scratch_states(n)
        heads = self._heads(candidates)
        term1 = list(map(model.BaseScore, repeat(self._state_after(left), n), heads, outs))
        if not first:
            return np.array(term1)
        memo = self._memo()
        seconds = memo["second"]
        key = (first, id(candidates))
        got = seconds.get(key)
        if got is None or got[0] is not candidates:
            seen = memo["firsts_seen"]
            if key not in seen:
                # The first time: asked directly (most characters come once).
                if len(seen) >= MAX_SHORTLISTS:
                    seen.clear()
                seen.add(key)
                term2 = list(map(model.BaseScore, outs, repeat(first, n), repeat(self._kenlm.State(), n)))
                return np.add(term1, term2)
            alone = self._alone_states(candidates)
            values = np.array(list(map(model.BaseScore, alone, repeat(first, n), repeat(self._kenlm.State(), n))))
            if len(seconds) >= MAX_SECOND_TERMS:
                seconds.clear()
            got = seconds[key] = (candidates, values)
        alone = self._alone_states(candidates)
        term2 = got[1].copy()
        differ = np.flatnonzero(~np.fromiter(map(operator.eq, outs, alone), dtype=bool, count=n))
        if differ.size:
            scratch = self._kenlm.State()
            term2[differ] = [model.BaseScore(outs[i], first, scratch) for i in differ.tolist()]
        return np.add(term1, term2)

    def _memo(self) -> dict:
        """Per-model stores of the shortlist pass (made on first use)."""
        memo = self.__dict__.get("_partial_memo")
        if memo is None:
            memo = self.__dict__["_partial_memo"] = {
                "second": {},
                "firsts_seen": set(),
                "alone": {},
                "heads": {},
                "scratch": [],
            }
        return memo

    def _scratch_states(self, n: int) -> list:
        """``n`` model states to write into (reused: only read within one pass)."""
        scratch = self._memo()["scratch"]
        State = self._kenlm.State
        while len(scratch) < n:
            scratch.append(State())
        return scratch[:n] if len(scratch) > n else scratch

    def _heads(self, candidates: Sequence[str]) -> Sequence[str]:
        """Each candidate's first character (the set itself when every candidate is one character)."""

        def make() -> Sequence[str]:
            return candidates if all(len(c) == 1 for c in candidates) else [c[0] for c in candidates]

        return _kept_for(self._memo()["heads"], id(candidates), candidates, 8, make)

    def _alone_states(self, candidates: Sequence[str]) -> list:
        """The model's state after each candidate's first character with no context before it."""

        def make() -> list:
            null = self._kenlm.State()
            self.model.NullContextWrite(null)
            states = [self._kenlm.State() for _ in candidates]
            for state, head in zip(states, self._heads(candidates), strict=True):
                self.model.BaseScore(null, head, state)
            return states

        return _kept_for(self._memo()["alone"], id(candidates), candidates, 8, make)

    def _positions(self, candidates: Sequence[str]) -> dict[str, int]:
        """Where each candidate sits in ``candidates`` (kept for the last few
        candidate sets: the fill asks with the same few sets for every gap)."""
        return _kept_for(
            self._position_of, id(candidates), candidates, 33, lambda: {c: i for i, c in enumerate(candidates)}
        )

    def score_candidates(
        self, left: str, candidates: Sequence[str], right: str, *, cache: CacheModel | None = None, weight: float = 0.0
    ) -> list[float]:
        """Log10 score of each candidate (one or more characters) in its context.

        ``left`` and ``right`` are Han strings (their projection); only the
        last order-1 characters of ``left`` and the first order-1 of ``right``
        matter.  With a cache, each term is the interpolation
        (1-weight)·P_model + weight·P_cache.
        """
        k = self._kenlm
        model = self.model
        right = right[: self.order - 1]
        start = self._state_after(left)
        history0 = left[-(self.order - 1) :] if self.order > 1 else ""
        if cache is not None and weight > 0.0:
            return self._scores_with_cache(start, history0, candidates, right, cache, weight)
        scores = []
        for cand in candidates:
            total = 0.0
            state = start
            for ch in cand + right:
                out = k.State()
                lp = model.BaseScore(state, ch, out)
                total += lp
                state = out
            scores.append(total)
        return scores

    def _scores_with_cache(
        self, start, history0: str, candidates: Sequence[str], right: str, cache: CacheModel, weight: float
    ) -> list[float]:
        """``score_candidates`` with the cache mixed into every term: the same
        arithmetic as ``CacheModel.mix``, in the same order, with the cache's
        reading of each history (the contexts it has seen) looked up once."""
        State = self._kenlm.State
        model = self.model
        n1 = self.order - 1
        counts, contexts, seen = cache.counts, cache.contexts, cache.total
        lengths = range(1, CACHE_ORDER)
        keep = 1.0 - weight
        log10 = math.log10
        scores = []
        for cand in candidates:
            total = 0.0
            state = start
            history = history0
            for ch in cand + right:
                out = State()
                lp = model.BaseScore(state, ch, out)
                pc = 0.0
                if seen:
                    pc = counts.get(ch, 0) / seen
                    for n in lengths:
                        if len(history) < n:
                            break
                        h = history[-n:]
                        c_h = contexts.get(h, 0)
                        if not c_h:
                            break
                        lam = c_h / (c_h + 1.0)
                        pc = lam * counts.get(h + ch, 0) / c_h + (1 - lam) * pc
                p = keep * 10.0**lp + weight * pc
                if p > 0:
                    lp = log10(p)
                history = (history + ch)[-n1:]
                total += lp
                state = out
            scores.append(total)
        return scores

    def outscored(self, left: str, candidates: Sequence[str], right: str, handicap: float) -> bool:
        """Whether some candidate after the first, with ``handicap`` added to
        its score, scores above the first (scores exactly as
        ``score_candidates`` gives them, without a cache).

        The others are scored term by term and each is given up as soon as its
        running sum cannot win: a term is a log probability, at most 0, so the
        sum so far bounds the total.  With a large negative handicap most are
        given up before their first term, and the answer costs about what
        scoring the first candidate does.
        """
        k = self._kenlm
        model = self.model
        right = right[: self.order - 1]
        start = self._state_after(left)

        def score(cand: str, first: float = -math.inf) -> float:
            """The candidate's score, or its running sum once that cannot beat ``first``."""
            total, state = 0.0, start
            for ch in cand + right:
                if total + handicap <= first:
                    break
                out = k.State()
                total += model.BaseScore(state, ch, out)
                state = out
            return total

        first = score(candidates[0])
        return any(score(cand, first) + handicap > first for cand in candidates[1:])


_DEFAULT: CharLM | None = None


def load_default() -> CharLM:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = CharLM(default_model_path())
    return _DEFAULT
