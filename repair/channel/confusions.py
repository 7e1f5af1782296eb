"""The confusion table: which lossless (true, wrong) confusions the toolkit undoes whole.

Mojibake is text encoded with the true codec and decoded with the wrong one;
undoing it is encoding with the wrong codec and decoding with the true one.
Every confusion the toolkit knows is one row here, so adding a codec is adding
a row.  Wrong codecs are the supersets a decoder really used (GB18030 for
GBK/GB2312, so that user-defined areas round-trip through the private-use
area; ftfy's sloppy cp1252, so that its five unassigned bytes round-trip).
"""

from __future__ import annotations

from dataclasses import dataclass

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252)


@dataclass(frozen=True)
class Confusion:
    true: str
    wrong: str
    label: str


CONFUSIONS: tuple[Confusion, ...] = (
    Confusion("utf-8", "gb18030", "UTF-8 read as GBK"),
    Confusion("utf-8", "big5hkscs", "UTF-8 read as Big5"),
    Confusion("gb18030", "big5hkscs", "GBK read as Big5"),
    Confusion("big5hkscs", "gb18030", "Big5 read as GBK"),
    Confusion("gb18030", "sloppy-windows-1252", "GBK read as cp1252/Latin-1"),
    Confusion("big5hkscs", "sloppy-windows-1252", "Big5 read as cp1252/Latin-1"),
    Confusion("utf-8", "sloppy-windows-1252", "UTF-8 read as cp1252/Latin-1"),
)

# Lossy confusions whose output is a fixed signature (a regular expression):
# the characters that were there cannot be recovered, only marked as missing.
LOSSY_SIGNATURES: tuple[tuple[str, str], ...] = (
    ("(?:锟斤拷)+(?:锟斤?)?|锟斤", "U+FFFD written as UTF-8, read as GBK: the characters were already lost"),
    ("烫{3,}", "uninitialised stack memory (0xCC) read as GBK"),
    ("屯{3,}", "uninitialised heap memory (0xCD) read as GBK"),
)

# The single-byte lead bytes of GBK / Big5 used to re-read a byte-shifted run.
DOUBLE_BYTE_CODECS: tuple[str, ...] = ("gb18030", "big5hkscs")
