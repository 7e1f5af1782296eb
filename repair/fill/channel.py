"""Which characters could stand behind a marked span: the channel's candidate sets.

- ``?`` from a lossy conversion can only be a character the document's narrow
  code page could not hold.  The code page is inferred from what the document
  does contain: a text with nothing outside GB2312 went through GB2312, one
  that needed GBK lost only characters of the extension blocks.
- A private-use code point or a foreign symbol is a home-made glyph for a
  character the digitizer's font lacked: in practice often a variant form
  that Unicode has, so any character; but one and the same at every
  occurrence, which the ranker uses.
- U+FFFD and placeholders (囗 □ 〓 ■) can be any character.
- A mark and a surviving byte (``�@``, ``�9�9``) is a character of a wider
  code page whose lead byte the reader lost: only the few dozen characters
  whose bytes end so (``split_candidates``), written exactly as they were,
  since the bytes name the form itself.
"""

from __future__ import annotations

import re
from functools import lru_cache

from repair.channel.forward import encodable
from repair.channel.tables import decoder
from repair.charclass import UNIFIED_HAN_CLASS
from repair.plausibility import char_logp_table

HAN_RE = re.compile(f"[{UNIFIED_HAN_CLASS}]")
# Narrowest first: the first page that holds every Han character of the document.
CODE_PAGES = ("gb2312", "big5", "gbk")
FILLABLE = ("question_mark", "replacement_char", "private_use", "foreign_symbol", "placeholder", "split_char")
# A file in a wide code page read with a narrower one, as (reader, source):
# what the reader makes of a character it lacks is the channel's output.
SPLIT_CHANNELS = (("gb2312", "gbk"), ("big5", "big5hkscs"), ("gbk", "gb18030"), ("gb2312", "gb18030"))
# The readers that could have read a document whose other characters need
# this page: a reader must hold them all.
READERS_OF_PAGE: dict[str | None, tuple[str, ...]] = {
    "gb2312": ("gb2312", "gbk"),
    "big5": ("big5",),
    "gbk": ("gbk",),
    None: ("gb2312", "big5", "gbk"),
}


def narrow_code_page(text: str) -> str | None:
    """The narrowest code page that encodes every Han character of ``text``.

    >>> narrow_code_page("学而时习之"), narrow_code_page("學而時習之"), narrow_code_page("学而時習之")
    ('gb2312', 'big5', 'gbk')
    """
    han = "".join(set(HAN_RE.findall(text)))
    return next((page for page in CODE_PAGES if encodable(han, page)), None)


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

        return tuple(c for c in vocabulary() if not encodable(to_simplified(c), page))
    return tuple(c for c in vocabulary() if not encodable(c, page))


def candidate_set(kind: str, page: str | None, simplified: bool = False) -> tuple[str, ...]:
    """The characters the channel of ``kind`` allows, given the document's code page."""
    if kind == "question_mark" and page is not None:
        # A document that needed GBK lost what GBK lacks: the extension blocks.
        return outside(page, simplified)
    # A home-made glyph says nothing of the code page: digitizers made glyphs
    # for variant forms their fonts lacked, many of which Unicode has, so its
    # candidates are not narrowed.
    return vocabulary()


def _reading(ch: str, reader: str, source: str) -> str | None:
    """What ``reader`` shows for ``ch`` written in ``source``, when it loses bytes of it."""
    try:
        raw = ch.encode(source)
    except UnicodeEncodeError:
        return None
    shown = decoder(reader).decode(raw, "replace")  # the channel's decoder, as the reader does it
    return shown if shown != ch and "\ufffd" in shown else None


@lru_cache(maxsize=1)
def written_forms() -> tuple[str, ...]:
    """The vocabulary and the simplified forms of its characters.

    A simplified file may hold the simplified form of a rare character (𪸩
    for 煇), which the bytes name exactly: it is a candidate as written.
    """
    from repair.lm.tokens import to_simplified

    return tuple(dict.fromkeys([*vocabulary(), *(to_simplified(c) for c in vocabulary())]))


@lru_cache(maxsize=len(SPLIT_CHANNELS))
def _split_table(reader: str, source: str) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for ch in written_forms():
        shown = _reading(ch, reader, source)
        if shown is not None:
            table.setdefault(shown, []).append(ch)
    return {shown: tuple(chars) for shown, chars in table.items()}


def split_candidates(run: str, page: str | None) -> tuple[str, ...]:
    """The characters (as written) that a reader of the document's code page shows as ``run``.

    >>> "說" in split_candidates("?f", "gb2312"), "說" in split_candidates("?g", "gb2312")
    (True, False)
    >>> "㐀" in split_candidates("\ufffd9\ufffd9", "gbk")
    True
    """
    shown = run.replace("?", "\ufffd")
    readers = READERS_OF_PAGE.get(page, READERS_OF_PAGE[None])
    found: dict[str, None] = {}
    for reader, source in SPLIT_CHANNELS:
        if reader in readers:
            found.update(dict.fromkeys(_split_table(reader, source).get(shown, ())))
    return tuple(found)
