"""What the model sees: one token per Han character, nothing else.

The corpus is mostly unpunctuated classical text while the inputs are often
punctuated, so the model is trained and queried on the Han projection of the
text: punctuation, white space, Latin letters and digits are dropped, so that
a character's context runs across a comma the same way in both.  Placeholders
(〓 □ ■ 囗) and other unknowns cut the context: no n-gram spans a character
nobody can read.  Simplified text is mapped to traditional with OpenCC before
scoring, since the default model is trained on the traditional corpus.

>>> han_projection("子曰：「學而時習之」〓乎")
['子曰學而時習之', '乎']
"""

from __future__ import annotations

import re
from functools import lru_cache

from repair.charclass import HAN_CLASS

CUT_RE = re.compile("[〓□■囗\ufffd?？\ue000-\uf8ff]")
# The same marks but the question mark, which is punctuation as often: what
# cuts a text whose lost characters are already masked or that has none (a
# reference), so that contexts run across 顧為柰何？」劉敬對.
MARK_RE = re.compile("[〓□■囗\ufffd\ue000-\uf8ff]")
NON_HAN_RE = re.compile(f"[^{HAN_CLASS}]")
MAX_LINE = 200


def han_projection(text: str, cut: re.Pattern[str] = CUT_RE) -> list[str]:
    """The Han-only pieces of ``text``, cut where a character is unreadable."""
    pieces = (NON_HAN_RE.sub("", p) for p in cut.split(text))
    return [p for p in pieces if p]


def training_lines(text: str) -> list[str]:
    """Space-joined token lines for the estimator, at most MAX_LINE tokens each."""
    out = []
    for piece in han_projection(text):
        for i in range(0, len(piece), MAX_LINE):
            chunk = piece[i : i + MAX_LINE]
            if len(chunk) >= 2:
                out.append(" ".join(chunk))
    return out


@lru_cache(maxsize=2)
def _converter(config: str):
    import opencc

    return opencc.OpenCC(config)


# Conversions of short strings (a character, a candidate pair, a context) are
# asked for again and again: they are kept.  OpenCC is deterministic, so a
# kept conversion is the one it would give.
SHORT = 16


@lru_cache(maxsize=1 << 18)
def _short_traditional(text: str) -> str:
    out = _converter("s2t").convert(text)
    return out if len(out) == len(text) else text


@lru_cache(maxsize=1 << 18)
def _short_simplified(text: str) -> str:
    out = _converter("t2s").convert(text)
    return out if len(out) == len(text) else text


def to_traditional(text: str) -> str:
    """Map simplified characters to traditional (one-to-one in length)."""
    if len(text) <= SHORT:
        return _short_traditional(text)
    out = _converter("s2t").convert(text)
    return out if len(out) == len(text) else text


def to_simplified(text: str) -> str:
    if len(text) <= SHORT:
        return _short_simplified(text)
    out = _converter("t2s").convert(text)
    return out if len(out) == len(text) else text
