"""How probable a reading is: the language model, one character at a time.

The search walks the byte lattice left to right and asks, for each character
it reads, how probable it is after what it has read so far.  The character
model sees Han characters only (``repair.lm.tokens``): punctuation and Latin
letters pass the model's context through and are charged a class prior
instead, simplified characters are scored as their traditional form.  Without
a model the unigram prior of ``repair.plausibility`` stands in, so lossless
re-readings still work with ``model=None``.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from repair.charclass import is_han
from repair.plausibility import char_logp

# Log10 cost of a character the wrong decoder left as U+FFFD in a reading:
# an unread character, worse than any character the model knows.
UNREAD_LOGP = -7.0


# How many of the document's own marks weigh as much as the corpus's table.
DOCUMENT_PRIOR_WEIGHT = 20.0
PUNCTUATION_FLOOR = -5.0


@lru_cache(maxsize=4)
def _rows(name: str) -> tuple[tuple[str, ...], ...]:
    """The rows of one of the generated tables in ``repair/data`` (comments skipped)."""
    ref = resources.files("repair.data").joinpath(name)
    with ref.open(encoding="utf-8") as fh:
        return tuple(tuple(line.rstrip("\n").split("\t")) for line in fh if not line.startswith("#"))


@lru_cache(maxsize=1)
def _corpus_punctuation() -> dict[str, float]:
    """Log10 share of each mark among the corpus's punctuation."""
    return {ch: float(lp) for ch, _n, lp in _rows("punctfreq.tsv")}


@lru_cache(maxsize=1)
def _corpus_counts() -> dict[str, int]:
    """How often the corpus writes each mark."""
    return {ch: int(n) for ch, n, _lp in _rows("punctfreq.tsv")}


@lru_cache(maxsize=1)
def _context_punctuation() -> dict[str, tuple[int, dict[str, int]]]:
    """Per context (a Han character or a mark, or ``$`` for a line's end): marks seen there and their counts."""
    rows: dict[str, dict[str, int]] = {}
    for ctx, ch, n in _rows("punctcontext.tsv"):
        rows.setdefault(ctx, {})[ch] = int(n)
    return {ctx: (sum(marks.values()), marks) for ctx, marks in rows.items()}


LINE_END = "$"
# Pseudo-counts of the corpus's overall shares added to each context's counts.
CONTEXT_SMOOTHING = 10.0


def context_factor(ch: str, context: str) -> float:
    """Log10 of how much likelier the mark ``ch`` is in ``context`` than overall.

    >>> context_factor("？", "乎") > 1 > 0 > context_factor("，", "$")
    True
    """
    seen = _context_punctuation().get(context)
    if seen is None:
        return 0.0
    total, marks = seen
    prior = 10 ** _corpus_punctuation().get(ch, PUNCTUATION_FLOOR)
    return math.log10((marks.get(ch, 0) + CONTEXT_SMOOTHING * prior) / (total + CONTEXT_SMOOTHING) / prior)


@lru_cache(maxsize=4096)
def follow_factor(ch: str, following: str) -> float:
    """Log10 of how much likelier the mark ``following`` comes right after the
    mark ``ch`` than after marks in general: 」 is followed by 。 often, 、 never.

    >>> follow_factor("」", "。") > 0 > follow_factor("、", "。")
    True
    """
    counts = _corpus_counts()
    n = counts.get(ch)
    if n is None:
        return 0.0
    rows = _context_punctuation()
    overall = sum(marks.get(following, 0) for ctx, (_t, marks) in rows.items() if ctx in counts) / sum(counts.values())
    if overall <= 0:
        return 0.0
    seen = rows.get(ch, (0, {}))[1].get(following, 0)
    return math.log10((seen + CONTEXT_SMOOTHING * overall) / (n + CONTEXT_SMOOTHING) / overall)


class Punctuation:
    """A prior over punctuation marks: the corpus's shares, mixed with the document's
    own marks (a document that writes ，。 loses ， far more often than （)."""

    def __init__(self, text: str = "") -> None:
        # Only marks the corpus writes count as the document's: a ? amid garbled
        # text is a mark a converter wrote, and the ·¶¡« of GBK read as cp1252
        # are bytes of mojibake, which would make keeping them look cheap.
        corpus = _corpus_punctuation()
        own = Counter(c for c in text if c in corpus and c != "?")
        total = sum(own.values())
        self._logp: dict[str, float] = {}
        for ch in set(corpus) | set(own):
            share = (own[ch] + DOCUMENT_PRIOR_WEIGHT * 10 ** corpus.get(ch, PUNCTUATION_FLOOR)) / (
                total + DOCUMENT_PRIOR_WEIGHT
            )
            self._logp[ch] = math.log10(share)
        self.floor = math.log10(10**PUNCTUATION_FLOOR * DOCUMENT_PRIOR_WEIGHT / (total + DOCUMENT_PRIOR_WEIGHT))

    def logp(self, ch: str) -> float:
        """Log10 cost of a mark; what is no mark, or an ASCII sign below the
        trail-byte range that the corpus does not write (& # ; of an escape),
        costs its class prior.  A sign from 40-7E (@ [ ] { |) amid GBK or Big5
        mojibake is a trail byte shown as itself, and a ? the mark a converter
        wrote: they cost what any mark the corpus never writes costs."""
        got = self._logp.get(ch)
        if got is not None:
            return got + PUNCTUATION_LOGP
        if unicodedata.category(ch).startswith("P") and (ch == "?" or ch >= "\x40"):
            return self.floor + PUNCTUATION_LOGP
        return char_logp(ch)

    def logp_at(self, ch: str, before: str, at_end: bool, after: str = "") -> float:
        """A mark's cost where it stands: after the character ``before``, before
        the mark ``after`` (。 is followed by 」, 」 by 。), at a line's end or not."""
        lp = self.logp(ch)
        if not unicodedata.category(ch).startswith("P"):
            return lp
        if before:
            lp += context_factor(ch, model_token(before) if is_han(before) else before)
        if after and unicodedata.category(after).startswith("P"):
            lp += follow_factor(ch, after)
        if at_end:
            lp += context_factor(ch, LINE_END)
        return lp


# A mark's share is scaled so that a common mark costs about what the class
# prior charged before (plausibility.PUNCTUATION_LOGP).
PUNCTUATION_LOGP = -0.6


@lru_cache(maxsize=65536)
def model_token(ch: str) -> str:
    from repair.lm.tokens import to_traditional

    return to_traditional(ch)


class UnigramScorer:
    """The prior alone: no context (for ``model=None``)."""

    order = 1

    def __init__(self, punctuation: Punctuation | None = None) -> None:
        self.punctuation = punctuation or Punctuation()

    def start(self) -> object:
        return None

    def step(self, state: object, ch: str) -> tuple[float, object, str]:
        return (char_logp(ch) if is_han(ch) else self.punctuation.logp(ch)), None, ""

    def rescore(self, left: str, candidates: Sequence[str], right: str, *, right_known: bool = True) -> list[float]:
        return [sum(self.step(None, c)[0] for c in cand) for cand in candidates]


# Log10 cost of a character of the other script than the document's: a
# traditional text that lost a character lost a traditional one.
OTHER_SCRIPT_LOGP = -2.0


def _script_costs(script: str) -> frozenset[str]:
    """The characters that cost ``OTHER_SCRIPT_LOGP`` in a document of ``script``."""
    from repair.plausibility import script_sets

    trad, simp = script_sets()
    return simp if script == "traditional" else trad if script == "simplified" else frozenset()


class ModelScorer:
    """A KenLM character model through its State API (one C call per character)."""

    def __init__(self, lm, punctuation: Punctuation | None = None) -> None:
        import kenlm

        self.punctuation = punctuation or Punctuation()
        self.other_script: frozenset[str] = frozenset()
        self.lm = lm
        self.model = lm.model
        self.order = lm.order
        self._state_cls = kenlm.State
        self._null = kenlm.State()
        self.model.NullContextWrite(self._null)
        self._memo: dict[tuple[str, str], float] = {}

    def start(self) -> object:
        return self._null

    def step(self, state: object, ch: str) -> tuple[float, object, str]:
        """(log10 probability, state after, token the model saw or '')."""
        if not is_han(ch):
            if ch == "\ufffd":
                return UNREAD_LOGP, self._null, ""
            return self.punctuation.logp(ch), state, ""
        tok = model_token(ch)
        out = self._state_cls()
        lp = self.model.BaseScore(state, tok, out)
        if ch in self.other_script:
            lp += OTHER_SCRIPT_LOGP
        return lp, out, tok

    def rescore(self, left: str, candidates: Sequence[str], right: str, *, right_known: bool = True) -> list[float]:
        """Candidates in their context on both sides (Han projection of each side).

        ``right_known``: the character right after is known, not itself a
        guess, so a mark may be weighed by it (a guess would decide its
        neighbour before being decided itself)."""
        left_h = "".join(model_token(c) for c in left if is_han(c))
        right_h = "".join(model_token(c) for c in right if is_han(c))
        toks = []
        extra = []
        for cand in candidates:
            han = "".join(model_token(c) for c in cand if is_han(c))
            toks.append(han)
            extra.append(self._marks(left, cand, right, right_known))
        if not any(toks):
            return extra
        scores = self.lm.score_candidates(left_h, toks, right_h)
        script = [OTHER_SCRIPT_LOGP * sum(c in self.other_script for c in cand) for cand in candidates]
        return [s + e + o for s, e, o in zip(scores, extra, script, strict=True)]

    def _marks(self, left: str, cand: str, right: str, right_known: bool) -> float:
        """The cost of a candidate's marks in their place (after which character, at the line's end)."""
        total = 0.0
        for k, c in enumerate(cand):
            if not is_han(c):
                before = cand[k - 1] if k else left[-1:]
                after = cand[k + 1] if k + 1 < len(cand) else right[:1] if right_known else ""
                total += self.punctuation.logp_at(c, before, not right and k == len(cand) - 1, after)
        return total


def scorer_for(lm, text: str = "", script: str = "neutral") -> UnigramScorer | ModelScorer:
    """A scorer for one document: ``text`` lends its punctuation habits, ``script`` its script."""
    punctuation = Punctuation(text)
    if lm is None:
        return UnigramScorer(punctuation)
    scorer = ModelScorer(lm, punctuation)
    scorer.other_script = _script_costs(script)
    return scorer
