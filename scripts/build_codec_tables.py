"""Generate repair/data/codec_tables.json.gz: what each decoder does with each byte.

The channel model (``repair.channel``) must know exactly what a wrong decoder
does with the bytes it is given: which single bytes are characters, which
pairs are, and what happens to everything else.  Rather than describe that by
hand, this script asks Python's own codecs, byte by byte and pair by pair, and
writes the answers down.  ``tests/channel/test_tables.py`` checks that a
decoder simulated from the tables gives exactly what Python gives, on random
bytes, with ``errors="replace"`` and ``errors="ignore"``.

For a table codec (GBK, Big5, Shift_JIS, cp1252 ...) CPython's decoder reads a
single byte or a pair and replaces one byte with U+FFFD when neither fits, so a
single-byte row and a pair table describe it completely.  UTF-8 is described
by the length of the sequence each lead byte starts and the range its second
byte must fall in; everything invalid is replaced per maximal invalid subpart.

    python scripts/build_codec_tables.py -o repair/data/codec_tables.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252)

# The decoders a text may have been read with, as Python names them.
# sloppy-windows-1252 is windows-1252 as browsers decode it (WHATWG): the five
# bytes cp1252 leaves undefined become C1 controls instead of U+FFFD (ftfy's codec).
TABLE_CODECS = (
    "gbk",
    "gb2312",
    "gb18030",
    "big5",
    "cp950",
    "big5hkscs",
    "shift_jis",
    "cp1252",
    "sloppy-windows-1252",
    "latin-1",
)
INVALID = "\x00"  # no pair decodes to NUL, so it marks an invalid cell


def _decode(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def table_codec(codec: str) -> dict:
    single = [_decode(bytes([b]), codec) for b in range(256)]  # None: not a character alone
    pairs: dict[str, str] = {}
    wide: dict[str, str] = {}  # pairs that decode to more than one code point (big5hkscs)
    for lead in range(256):
        if single[lead] is not None:
            continue
        row = []
        for trail in range(256):
            got = _decode(bytes([lead, trail]), codec)
            if got is not None and len(got) > 1:
                wide[f"{lead:02x}{trail:02x}"] = got
                got = got[:1]
            row.append(got or INVALID)
        if any(c != INVALID for c in row):
            pairs[f"{lead:02x}"] = "".join(row)
    out = {"kind": "table", "single": single, "pairs": pairs, "wide": wide}
    if codec == "gb18030":
        out["four_byte"] = True  # lead 81-FE, 30-39, 81-FE, 30-39: checked with the codec itself
    return out


def utf8_codec() -> dict:
    """For each lead byte: the sequence length and the range of its second byte."""
    rules = {}
    for b in range(256):
        if _decode(bytes([b]), "utf-8") is not None:
            rules[f"{b:02x}"] = [1, 0, 0]
            continue
        for length in (2, 3, 4):
            seconds = [s for s in range(256) if _decode(bytes([b, s]) + b"\x80" * (length - 2), "utf-8") is not None]
            seconds += [s for s in range(256) if _decode(bytes([b, s]) + b"\xbf" * (length - 2), "utf-8") is not None]
            if seconds:
                rules[f"{b:02x}"] = [length, min(seconds), max(seconds)]
                break
    return {"kind": "utf-8", "leads": rules}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", type=Path, default=Path("repair/data/codec_tables.json.gz"))
    args = ap.parse_args()
    tables = {codec: table_codec(codec) for codec in TABLE_CODECS}
    tables["utf-8"] = utf8_codec()
    data = json.dumps({"version": 1, "codecs": tables}, ensure_ascii=False, sort_keys=True).encode("utf-8")
    with gzip.GzipFile(args.output, "wb", mtime=0) as fh:
        fh.write(data)
    print(f"wrote {args.output}: {len(tables)} decoders, {len(data):,} bytes before compression")


if __name__ == "__main__":
    main()
