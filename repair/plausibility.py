"""How much a string looks like Chinese text: a character unigram prior.

The exact repairs need no language model, but they do need to tell text from
mojibake: a re-decoding is only worth proposing when it turns rare characters
and symbol-row debris into common characters.  A unigram log-probability per
character, from a table generated from the classical corpus (traditional and
simplified counts, see ``scripts/build_char_table.py``), is enough for that and
costs a dictionary lookup per character.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources

from repair.charclass import (
    ASCII_PUNCTUATION,
    CJK_PUNCTUATION,
    foreign_symbol_class,
    is_han,
    is_private_use,
)

# Log10 probabilities for what the corpus cannot count: it is mostly
# unpunctuated classical text, so punctuation and Latin get class priors.
PUNCTUATION_LOGP = -1.6
WHITESPACE_LOGP = -1.6
ASCII_ALNUM_LOGP = -3.0
UNSEEN_HAN_LOGP = -7.0
FOREIGN_SYMBOL_LOGP = -7.0
PRIVATE_USE_LOGP = -8.0
OTHER_LOGP = -6.5

# A character this rare or rarer counts as suspicious (about 1 in 3 million).
SUSPICIOUS_LOGP = -6.0


@lru_cache(maxsize=1)
def _counts() -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    ref = resources.files("repair.data").joinpath("charfreq.tsv")
    with ref.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            ch, trad, simp = line.rstrip("\n").split("\t")
            out[ch] = (int(trad), int(simp))
    return out


@lru_cache(maxsize=1)
def script_sets() -> tuple[frozenset[str], frozenset[str]]:
    """(traditional-only, simplified-only) characters, from the table's two columns."""
    counts = _counts()
    trad = frozenset(c for c, (t, s) in counts.items() if s == 0 and t >= 5)
    simp = frozenset(c for c, (t, s) in counts.items() if t == 0 and s >= 5)
    return trad, simp


def script_of(text: str, min_evidence: int = 1, min_unopposed: int | None = None) -> str:
    """'traditional', 'simplified' or 'neutral', by which script's own characters dominate.

    Fewer than ``min_evidence`` characters of either script decide nothing,
    unless ``min_unopposed`` of one script stand with none of the other.

    >>> script_of("學而時習之"), script_of("学而时习之"), script_of("之乎者也")
    ('traditional', 'simplified', 'neutral')
    >>> script_of("學而時習之", min_evidence=10), script_of("學而時習之", min_evidence=10, min_unopposed=3)
    ('neutral', 'traditional')
    """
    trad, simp = script_sets()
    t = sum(c in trad for c in text)
    s = sum(c in simp for c in text)
    if min_unopposed is not None and min(t, s) == 0 and max(t, s) >= min_unopposed:
        return "traditional" if t else "simplified"
    if t + s < min_evidence:
        return "neutral"
    if t > s and t >= 2 * s:
        return "traditional"
    if s > t and s >= 2 * t:
        return "simplified"
    return "neutral"


@lru_cache(maxsize=1)
def char_logp_table() -> dict[str, float]:
    # One count per character: the larger of its two scripts, so that a
    # character shared by both scripts is not counted twice.
    counts = {ch: max(t, s) for ch, (t, s) in _counts().items()}
    total = sum(counts.values())
    table = {ch: math.log10(n / total) for ch, n in counts.items()}
    for ch in CJK_PUNCTUATION | ASCII_PUNCTUATION:
        table[ch] = max(table.get(ch, -99.0), PUNCTUATION_LOGP)
    for ch in " \t\n\r\u3000\xa0":
        table[ch] = WHITESPACE_LOGP
    return table


_CACHE: dict[str, float] = {}


def char_logp(ch: str) -> float:
    """Log10 prior of one character."""
    lp = _CACHE.get(ch)
    if lp is None:
        lp = _CACHE[ch] = _char_logp(ch)
    return lp


def _char_logp(ch: str) -> float:
    lp = char_logp_table().get(ch)
    if lp is not None:
        return lp
    if ch.isascii():
        return ASCII_ALNUM_LOGP if ch.isalnum() else OTHER_LOGP
    if is_han(ch):
        return UNSEEN_HAN_LOGP
    if is_private_use(ch):
        return PRIVATE_USE_LOGP
    if foreign_symbol_class(ch):
        return FOREIGN_SYMBOL_LOGP
    return OTHER_LOGP


def text_logp(text: str) -> float:
    cache = _CACHE
    return sum(cache[c] if c in cache else char_logp(c) for c in text)


def mean_logp(text: str) -> float:
    """Average log10 prior per character; 0.0 for the empty string."""
    return text_logp(text) / len(text) if text else 0.0


def is_suspicious(ch: str) -> bool:
    return char_logp(ch) <= SUSPICIOUS_LOGP
