"""The channel forward: what software does to a text, exactly.

A text is encoded with its true codec, may lose or gain a byte on the way,
and is decoded with a wrong one, whose errors are replaced (U+FFFD), written
as ``?`` (as converters do) or dropped (``errors="ignore"``, ``iconv -c``);
and it may all happen twice.  The benchmark's generator and the tests garble
with this, and the inverse (``repair.channel.search``) checks its readings
against it.

>>> garble("學而", "utf-8", "gbk")
'瀛歌\\ufffd\\ufffd'
>>> garble("學而", "utf-8", "gbk", errors="ignore")
'瀛歌'
>>> garble("學而", "utf-8", "gbk", errors="?")
'瀛歌??'
>>> garble("中文", "gbk", "latin-1")
'ÖÐÎÄ'
"""

from __future__ import annotations

from dataclasses import dataclass

from repair.channel.tables import decoder

# Encoders a text was written with (Python's names).  GBK covers GB2312,
# GB18030 covers GBK; Big5-HKSCS and cp950 cover Big5 with extensions.
TRUE_CODECS = ("utf-8", "gbk", "gb18030", "gb2312", "big5", "big5hkscs", "cp950")
ERROR_MODES = ("replace", "?", "ignore")


@dataclass(frozen=True)
class Channel:
    """One way a text was garbled: (true codec, wrong decoder, what it did with errors)."""

    true: str
    wrong: str
    errors: str = "replace"

    @property
    def pair(self) -> str:
        return f"{_display(self.true)} read as {_display(self.wrong)}"

    @property
    def label(self) -> str:
        mode = {"replace": "U+FFFD", "?": "?", "ignore": "dropped"}[self.errors]
        return f"{self.pair} ({mode})"


def _display(codec: str) -> str:
    return {
        "utf-8": "UTF-8",
        "gbk": "GBK",
        "gb18030": "GB18030",
        "gb2312": "GB2312",
        "big5": "Big5",
        "sloppy-windows-1252": "windows-1252 (as browsers read it)",
    }.get(codec, codec)


def strict_encode(text: str, codec: str) -> bytes | None:
    """The bytes ``codec`` writes for ``text``, or None where it lacks a character.

    >>> strict_encode("學", "big5"), strict_encode("学", "big5")
    (b'\\xbe\\xc7', None)
    """
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return None


def encodable(text: str, codec: str) -> bool:
    """Whether ``codec`` can write every character of ``text``.

    >>> encodable("学而", "gb2312"), encodable("學而", "gb2312")
    (True, False)
    """
    return strict_encode(text, codec) is not None


def encode(text: str, true: str) -> bytes:
    """Encode as a writer does: characters the codec lacks become ``?``."""
    return text.encode(true, errors="replace")


def garble(text: str, true: str, wrong: str, errors: str = "replace", *, twice: bool = False) -> str:
    """``text`` written in ``true`` and read with ``wrong`` (with that decoder's real errors)."""
    out = decoder(wrong).decode(encode(text, true), errors)
    if twice:
        out = decoder(wrong).decode(encode(out.replace("\ufffd", "?"), true), errors)
    return out


def lose_byte(data: bytes, at: int) -> bytes:
    """The stream with one byte lost (a byte shift starts so)."""
    return data[:at] + data[at + 1 :]


def gain_byte(data: bytes, at: int, byte: int = 0x3F) -> bytes:
    return data[:at] + bytes([byte]) + data[at:]
