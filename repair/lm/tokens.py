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
from collections.abc import Sequence
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
MAX_KEPT = 1 << 18
_KEPT: dict[str, dict[str, str]] = {"s2t": {}, "t2s": {}}


def _convert(text: str, config: str) -> str:
    out = _converter(config).convert(text)
    return out if len(out) == len(text) else text


def _short(text: str, config: str) -> str:
    kept = _KEPT[config]
    got = kept.get(text)
    if got is None:
        if len(kept) >= MAX_KEPT:
            kept.clear()
        got = kept[text] = _convert(text, config)
    return got


def _many(texts: Sequence[str], config: str) -> list[str]:
    """Each text converted alone, the short ones not kept yet in one call.

    OpenCC matches its phrases within a line (no phrase holds a line break),
    so each line of a joined text converts as it would alone; a text that
    holds a line break itself, or an answer that does not split back into
    as many lines, is converted alone.
    """
    kept = _KEPT[config]
    new = [t for t in dict.fromkeys(texts) if len(t) <= SHORT and t not in kept and "\n" not in t]
    if new:
        if len(kept) + len(new) >= MAX_KEPT:
            kept.clear()
        lines = _converter(config).convert("\n".join(new)).split("\n")
        if len(lines) == len(new):
            for t, out in zip(new, lines, strict=True):
                kept[t] = out if len(out) == len(t) else t
    return [kept.get(t) or (_short(t, config) if len(t) <= SHORT else _convert(t, config)) for t in texts]


def to_traditional(text: str) -> str:
    """Map simplified characters to traditional (one-to-one in length)."""
    return _short(text, "s2t") if len(text) <= SHORT else _convert(text, "s2t")


def to_simplified(text: str) -> str:
    return _short(text, "t2s") if len(text) <= SHORT else _convert(text, "t2s")


def to_traditional_each(texts: Sequence[str]) -> list[str]:
    """``[to_traditional(t) for t in texts]``, converting the new ones in one call."""
    return _many(texts, "s2t")


def to_simplified_each(texts: Sequence[str]) -> list[str]:
    """``[to_simplified(t) for t in texts]``, converting the new ones in one call."""
    return _many(texts, "t2s")
