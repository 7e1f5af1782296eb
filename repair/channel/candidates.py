"""Which characters of the true codec fit a pattern of known and lost bytes.

A character the wrong decoder damaged left some of its bytes: UTF-8 read as
GBK keeps the lead byte of 學 (E5) and the lost continuation byte is one of 64
values; Big5 read as GBK keeps a trail byte.  The characters whose encoding
agrees with every known byte are the channel's candidates, listed most
frequent first (the prior of ``repair.plausibility``) and limited to the
characters of the corpus table, plus ASCII and CJK punctuation.

>>> fitting("utf-8", (0xE5, None, 0xB8))[:3]
('司', '常', '學')
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import lru_cache

from repair.channel.tables import strict_decode
from repair.plausibility import char_logp_table

PUNCTUATION = "，。、；：？！「」『』（）《》〈〉【】…—·．,.;:?!()[]\"' "


@lru_cache(maxsize=1)
def _inventory() -> tuple[str, ...]:
    table = char_logp_table()
    chars = sorted(table, key=lambda c: -table[c])
    extra = [c for c in PUNCTUATION if c not in table]
    return (*chars, *extra)


@lru_cache(maxsize=16)
def encodings(codec: str) -> dict[str, bytes]:
    """The bytes of every candidate character in ``codec``."""
    out = {}
    for ch in _inventory():
        try:
            out[ch] = ch.encode(codec)
        except UnicodeEncodeError:
            continue
    return out


@lru_cache(maxsize=256)
def _index(codec: str, length: int, mask: tuple[bool, ...]) -> dict[tuple[int, ...], tuple[str, ...]]:
    """Characters of ``length`` bytes keyed by their bytes where ``mask`` is True."""
    index: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for ch, data in encodings(codec).items():
        # A lost character is text: Han or punctuation.  Symbols and white
        # space (○ 〇 ● cost little to a Han-only model) are no candidates.
        if len(data) == length and unicodedata.category(ch)[0] in "LP" and unicodedata.category(ch) != "Lm":
            index[tuple(b for b, known in zip(data, mask, strict=True) if known)].append(ch)
    return {k: tuple(v) for k, v in index.items()}


@lru_cache(maxsize=1 << 18)
def fitting(codec: str, pattern: tuple[int | None, ...]) -> tuple[str, ...]:
    """Characters whose ``codec`` bytes fit ``pattern`` (None: a lost byte)."""
    if None not in pattern:
        got = exact(codec, bytes(pattern))  # type: ignore[arg-type]
        return (got,) if got else ()
    mask = tuple(b is not None for b in pattern)
    key = tuple(b for b in pattern if b is not None)
    return _index(codec, len(pattern), mask).get(key, ())


@lru_cache(maxsize=1 << 18)
def exact(codec: str, data: bytes) -> str | None:
    """The one character ``data`` encodes in ``codec``, or None."""
    got = strict_decode(data, codec)
    return got if got is not None and len(got) == 1 else None


@lru_cache(maxsize=8)
def max_length(codec: str) -> int:
    return 4 if codec in ("utf-8", "gb18030") else 2
