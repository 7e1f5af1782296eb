"""Which characters could stand behind a marked span: the channel's candidate sets.

- ``?`` from a lossy conversion can only be a character the document's narrow
  code page could not hold.  The code page is inferred from what the document
  does contain: a text with nothing outside GB2312 went through GB2312.
  (A document that needed GBK constrains nothing: GBK has every main-block
  character.)
- A private-use code point or a foreign symbol is a home-made glyph for a
  character the digitizer's font lacked: in practice often a variant form
  that Unicode has, so any character; but one and the same at every
  occurrence, which the ranker uses.
- U+FFFD and placeholders (囗 □ 〓 ■) can be any character.
"""

from __future__ import annotations

import re
from functools import lru_cache

from repair.charclass import UNIFIED_HAN_CLASS
from repair.plausibility import char_logp_table

HAN_RE = re.compile(f"[{UNIFIED_HAN_CLASS}]")
# Narrowest first: the first page that holds every Han character of the document.
CODE_PAGES = ("gb2312", "big5", "gbk")
FILLABLE = ("question_mark", "replacement_char", "private_use", "foreign_symbol", "placeholder")


def _encodable(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


def narrow_code_page(text: str) -> str | None:
    """The narrowest code page that encodes every Han character of ``text``.

    >>> narrow_code_page("学而时习之"), narrow_code_page("學而時習之"), narrow_code_page("学而時習之")
    ('gb2312', 'big5', 'gbk')
    """
    han = set(HAN_RE.findall(text))
    for page in CODE_PAGES:
        if all(_encodable(c, page) for c in han):
            return page
    return None


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """Han characters of the character table, most frequent first."""
    return tuple(c for c in char_logp_table() if HAN_RE.fullmatch(c))


@lru_cache(maxsize=16)
def outside(page: str | None, simplified: bool) -> tuple[str, ...]:
    """Vocabulary characters whose form in the document's script the page lacks."""
    if page is None:
        return vocabulary()
    if simplified:
        from repair.lm.tokens import to_simplified

        return tuple(c for c in vocabulary() if not _encodable(to_simplified(c), page))
    return tuple(c for c in vocabulary() if not _encodable(c, page))


def candidate_set(kind: str, page: str | None, simplified: bool = False) -> tuple[str, ...]:
    """The characters the channel of ``kind`` allows, given the document's code page."""
    if kind == "question_mark" and page in ("gb2312", "big5"):
        return outside(page, simplified)
    # GBK holds all 20,902 main-block characters: a document that needed it
    # says nothing about what its lost characters were.  Nor does a home-made
    # glyph: digitizers made glyphs for variant forms their fonts lacked,
    # many of which Unicode has, so its candidates are not narrowed either.
    return vocabulary()
