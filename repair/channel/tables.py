"""The decoders of the channel, simulated from tables Python's codecs wrote.

``scripts/build_codec_tables.py`` asked each codec what it does with every
byte and pair; here those answers become a decoder that reports, for each
piece of output, which bytes it came from.  That is what the inverse needs: a
U+FFFD covers a known number of bytes, and a character the wrong decoder wrote
stands for exactly the bytes that encode it again.

>>> gbk = decoder("gbk")
>>> gbk.pieces("學".encode("utf-8"))
[(0, 2, '瀛'), (2, 3, '\\ufffd')]
>>> decoder("utf-8").decode(bytes.fromhex("e880e4b8ad"), "replace")
'\\ufffd中'
"""

from __future__ import annotations

import gzip
import json
from functools import cache, lru_cache
from importlib import resources

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252, the browsers' windows-1252)

REPLACEMENT = "\ufffd"
INVALID = "\x00"
# Decoders users' software really uses, by the names Python gives them.
ALIASES = {
    "cp936": "gbk",
    "sloppy-cp1252": "sloppy-windows-1252",
    "latin1": "latin-1",
    "iso-8859-1": "latin-1",
    "utf8": "utf-8",
    "windows-1252": "cp1252",
}


@lru_cache(maxsize=1)
def _tables() -> dict:
    ref = resources.files("repair.data").joinpath("codec_tables.json.gz")
    with ref.open("rb") as fh:
        return json.loads(gzip.decompress(fh.read()).decode("utf-8"))["codecs"]


def codec_name(name: str) -> str:
    name = name.lower().replace("_", "-") if name.lower() != "shift_jis" else "shift_jis"
    return ALIASES.get(name, name)


class Decoder:
    """One wrong decoder: ``pieces`` says what each stretch of bytes became."""

    def __init__(self, name: str) -> None:
        self.name = codec_name(name)
        self._rejected: dict[int, list[bool]] = {}
        table = _tables()[self.name]
        self.kind = table["kind"]
        if self.kind == "utf-8":
            self.leads = {int(k, 16): tuple(v) for k, v in table["leads"].items()}
            self.widths = (1, 2, 3)
        else:
            single = table["single"]
            self.single = tuple(single)
            self.pairs = {int(k, 16): row for k, row in table["pairs"].items()}
            self.wide = {bytes.fromhex(k): v for k, v in table["wide"].items()}
            self.four_byte = bool(table.get("four_byte"))
            self.widths = (1,)

    def pieces(self, data: bytes) -> list[tuple[int, int, str]]:
        """(start, end, text) for each piece of output; U+FFFD where the decoder gave up."""
        one = self._utf8_one if self.kind == "utf-8" else self._table_one
        out = []
        i, n = 0, len(data)
        while i < n:
            k, t = one(data, i)
            out.append((i, i + k, t))
            i += k
        return out

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """What Python's decoder writes, with ``errors`` "replace", "ignore" or "?"
        (a converter that writes ``?`` for what it cannot read)."""
        sub = {"replace": REPLACEMENT, "ignore": "", "?": "?"}[errors]
        return "".join(sub if t == REPLACEMENT and not self.genuine(data, a, b) else t for a, b, t in self.pieces(data))

    def genuine(self, data: bytes, a: int, b: int) -> bool:
        """A U+FFFD the codec maps a byte to on purpose (ftfy's sloppy windows-1252
        writes one for 1A), not one it writes for an error."""
        return self.kind != "utf-8" and b - a == 1 and self.single[data[a]] == REPLACEMENT

    def rejected_before(self, following: int) -> list[bool]:
        """Which bytes this decoder replaces, alone, when ``following`` comes next
        (the same for every hole: asked once per decoder and next byte)."""
        got = self._rejected.get(following)
        if got is None:
            tail = bytes([following])
            got = self._rejected[following] = [self.first(bytes([b]) + tail) == (1, REPLACEMENT) for b in range(256)]
        return got

    def lookahead(self, following: bytes) -> bytes:
        """The part of the known bytes after a hole that decides what this decoder
        rejected there: a table decoder looks one byte ahead, UTF-8 and GB18030 further."""
        return following[:1] if self.kind != "utf-8" and not self.four_byte else following

    def rejected_ahead(self, following: bytes) -> list[bool]:
        """Which bytes this decoder replaces, alone, before the known bytes ``following``."""
        following = self.lookahead(following)
        if following and self.kind != "utf-8" and not self.four_byte:
            return self.rejected_before(following[0])
        return _rejected_given(self.name, following)

    def first(self, data: bytes, pos: int = 0) -> tuple[int, str]:
        """(length, text) of the piece the decoder reads at ``pos``."""
        if self.kind == "utf-8":
            return self._utf8_one(data, pos)
        return self._table_one(data, pos)

    def _table_one(self, data: bytes, i: int) -> tuple[int, str]:
        b = data[i]
        ch = self.single[b]
        if ch is not None:
            return 1, ch
        row = self.pairs.get(b)
        if row is not None and i + 1 < len(data):
            t = row[data[i + 1]]
            if t != INVALID:
                return 2, self.wide.get(data[i : i + 2], t)
        if self.four_byte:
            return self._four_byte(data, i)
        return 1, REPLACEMENT

    def _four_byte(self, data: bytes, i: int) -> tuple[int, str]:
        """GB18030's four-byte sequences and its errors, asked of the codec itself
        (1.6 million sequences are no table to ship; its rule for a sequence cut
        short is its own)."""
        window = data[i : i + 4]
        try:
            return 4, window.decode(self.name)
        except UnicodeDecodeError as err:
            if err.start > 0:
                return err.start, window[: err.start].decode(self.name)[:1]
            if len(window) < 4 and i + len(window) == len(data):
                # A sequence cut at the end of the input is one replacement.
                return err.end, REPLACEMENT
            return max(1, err.end - err.start), REPLACEMENT

    def _utf8_one(self, data: bytes, i: int) -> tuple[int, str]:
        rule = self.leads.get(data[i])
        if rule is None:
            return 1, REPLACEMENT
        length, lo, hi = rule
        if length == 1:
            return 1, chr(data[i])
        j = i + 1
        for k in range(1, length):
            if j >= len(data):
                return j - i, REPLACEMENT
            c = data[j]
            if not ((lo <= c <= hi) if k == 1 else (0x80 <= c <= 0xBF)):
                return j - i, REPLACEMENT
            j += 1
        return length, data[i:j].decode("utf-8")


@cache
def decoder(name: str) -> Decoder:
    return Decoder(name)


def first_error(data: bytes, codec: str) -> int:
    """Where the strict decoder of ``codec`` would raise on ``data`` (its length if nowhere).

    >>> first_error("學".encode("utf-8")[:2], "utf-8"), first_error(b"ab", "utf-8")
    (0, 2)
    """
    dec = decoder(codec)
    for a, b, t in dec.pieces(data):
        if t == REPLACEMENT and not dec.genuine(data, a, b):
            return a
    return len(data)


@lru_cache(maxsize=4096)
def _rejected_given(name: str, following: bytes) -> list[bool]:
    """Which bytes the decoder ``name`` replaces, alone, before ``following``
    (for decoders that look further than one byte ahead)."""
    dec = decoder(name)
    return [dec.first(bytes([b]) + following) == (1, REPLACEMENT) for b in range(256)]


def strict_decode(data: bytes, codec: str) -> str | None:
    """What Python's strict decoder gives for ``data``, from the tables; None
    where it would raise.  Every re-reader of bytes asks this, so that one
    table says what each codec does.

    >>> strict_decode(bytes((0xD6, 0xAE)), "gbk"), strict_decode(bytes((0xAA, 0xA1)), "gb2312")
    ('之', None)
    """
    dec = decoder(codec)
    out = []
    for a, b, t in dec.pieces(data):
        if t == REPLACEMENT and not dec.genuine(data, a, b):
            return None
        out.append(t)
    return "".join(out)


def _decoders() -> tuple[str, ...]:
    return tuple(_tables())


# Every decoder the tables describe (scripts/build_codec_tables.py lists them).
DECODERS: tuple[str, ...] = _decoders()


@lru_cache(maxsize=8)
def private_use_pairs(codec: str) -> frozenset[tuple[int, int]]:
    """The byte pairs ``codec`` reads as one private-use character (GB18030
    reads GBK's user-defined rows AAA1-AFFE, F8A1-FEFE and A140-A7A0 so): where
    a stream read one byte late showed codes a font drew and a user deleted.

    >>> (0xAA, 0xA1) in private_use_pairs("gb18030"), (0xB0, 0xA1) in private_use_pairs("gb18030")
    (True, False)
    """
    out = set()
    for a in range(0x81, 0xFF):
        for b in range(0x40, 0xFF):
            ch = strict_decode(bytes((a, b)), codec)
            if ch is not None and len(ch) == 1 and 0xE000 <= ord(ch) <= 0xF8FF:
                out.add((a, b))
    return frozenset(out)
