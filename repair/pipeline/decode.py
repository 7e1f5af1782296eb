"""Bytes to text: encoding detection that is validated, not trusted.

chardet guesses GBK, GB18030 and Big5 well but gives CJK guesses a confidence
of 0.07-0.19 even when right, so its guess is only one of the candidates.
Each candidate codec decodes a sample; the winner is the one with the fewest
undecodable bytes and, among those, the most probable characters (GB18030
decodes almost any byte string, so statistics must decide).  The text is then
decoded line by line: a line the main codec cannot read is tried in the
others, and within a line a stretch in a second encoding is decoded on its
own.  Bytes nothing can read become U+FFFD, and the raw bytes are kept by
offset so the report can show them: nothing is dropped.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

import chardet

from repair.errors import BinaryInputError
from repair.families.base import Document
from repair.pipeline.job import Job
from repair.plausibility import mean_logp

CANDIDATE_CODECS = ("utf-8", "gb18030", "big5hkscs")
CHARDET_NAMES = {
    "ascii": "utf-8",
    "utf-8": "utf-8",
    "utf-8-sig": "utf-8",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "hz-gb-2312": "gb18030",
    "big5": "big5hkscs",
    "cp950": "big5hkscs",
    "big5hkscs": "big5hkscs",
}
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
BINARY_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"%PDF-", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x7fELF", "an executable"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
    (b"\xd0\xcf\x11\xe0", "an OLE document (old Word/Excel)"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
SAMPLE = 1 << 20
CONTROL_BYTES = set(range(0, 32)) - {9, 10, 12, 13, 27}


@dataclass
class Decoded:
    text: str
    encoding: str
    segments: list[dict] = field(default_factory=list)
    undecodable: dict[int, bytes] = field(default_factory=dict)
    bom: bool = False


def _magic(data: bytes) -> str | None:
    for magic, what in BINARY_MAGIC:
        if data.startswith(magic):
            return what
    return None


def sniff_binary(data: bytes) -> str | None:
    """Why ``data`` is not text, or None.  UTF-16/32 must be ruled out first."""
    what = _magic(data)
    if what is not None:
        return what
    sample = data[:SAMPLE]
    if b"\x00" in sample:
        return "binary data (NUL bytes)"
    controls = sum(1 for b in sample if b in CONTROL_BYTES)
    if sample and controls / len(sample) > 0.01:
        return "binary data (control bytes)"
    return None


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 told from its shape: ASCII-heavy UTF-16 has NULs in one byte
    lane; CJK-heavy UTF-16 has few, so it must also decode to likely text."""
    sample = data[: 1 << 16]
    if len(data) < 4 or len(data) % 2:
        return None
    half = len(sample) // 2
    for zeros, codec in ((sample[1::2].count(0), "utf-16-le"), (sample[0::2].count(0), "utf-16-be")):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if "\x00" in text or any(ord(c) < 32 and c not in "\t\n\r\f" for c in text[:4096]):
            continue
        wide = [c for c in text[:4096] if not c.isascii()]
        if zeros > half * 0.3 or (len(wide) > len(text[:4096]) / 2 and mean_logp("".join(wide)) > -4.6):
            return codec
    return None


def _score(sample: bytes, codec: str) -> float:
    text = sample.decode(codec, errors="replace")
    wide = [c for c in text if not c.isascii()]
    if not wide:
        return 0.0
    errors = text.count("\ufffd")
    return mean_logp("".join(c for c in wide if c != "\ufffd")) - 10.0 * errors / len(wide)


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def guess_encoding(data: bytes) -> str:
    sample = data[:SAMPLE]
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as err:
        if err.start >= len(sample) - 3 and len(data) > SAMPLE:
            return "utf-8"  # the sample cut a character in half
    # A UTF-8 file with a stretch in another encoding: most of its lines
    # that are not ASCII still read as UTF-8 (GB18030 would read them all,
    # as mojibake, so this must be decided before statistics).
    wide_lines = [line for line in sample.splitlines() if not line.isascii()]
    if wide_lines and sum(_is_utf8(line) for line in wide_lines) * 2 >= len(wide_lines):
        return "utf-8"
    guess = (chardet.detect(sample).get("encoding") or "").lower()
    candidates = list(CANDIDATE_CODECS)
    mapped = CHARDET_NAMES.get(guess)
    if mapped is None and guess:
        try:
            codecs.lookup(guess)
            candidates.append(guess)
        except LookupError:
            pass
    return max(candidates, key=lambda c: (_score(sample, c), c == mapped))


def decode_bytes(data: bytes) -> Decoded:
    if not data:
        return Decoded("", "utf-8")
    for bom, codec in BOMS:
        if data.startswith(bom):
            return _decode_lines(data[len(bom) :], codec, bom=True)
    why = _magic(data)
    if why is not None:
        raise BinaryInputError(f"not a text file: looks like {why}")
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return _decode_lines(data, utf16)
    why = sniff_binary(data)
    if why is not None:
        raise BinaryInputError(f"not a text file: looks like {why}")
    return _decode_lines(data, guess_encoding(data))


def _decode_lines(data: bytes, primary: str, *, bom: bool = False) -> Decoded:
    if primary.startswith(("utf-16", "utf-32")):
        try:
            return Decoded(data.decode(primary), primary, bom=bom)
        except UnicodeDecodeError:
            pass
        text = data.decode(primary, errors="replace")
        return Decoded(text, primary, bom=bom, undecodable={i: b"" for i, c in enumerate(text) if c == "\ufffd"})
    if primary == "utf-8":
        try:
            return Decoded(data.decode(primary), primary, bom=bom)
        except UnicodeDecodeError:
            pass
    out = Decoded("", primary, bom=bom)
    pieces: list[str] = []
    length = 0
    for no, line in enumerate(data.splitlines(keepends=True)):
        text, segs = _decode_line(line, primary, length, out.undecodable)
        for codec in segs:
            if codec != primary:
                out.segments.append({"line": no + 1, "encoding": codec})
        pieces.append(text)
        length += len(text)
    out.text = "".join(pieces)
    return out


def _decode_line(line: bytes, primary: str, offset: int, undecodable: dict[int, bytes]) -> tuple[str, list[str]]:
    if primary != "utf-8" and not line.isascii():
        # GB18030 reads UTF-8 bytes without error (as mojibake), so a line of
        # a legacy-encoded file that is valid UTF-8 is taken as UTF-8: legacy
        # double-byte text is almost never valid UTF-8 by chance.
        try:
            return line.decode("utf-8"), ["utf-8"]
        except UnicodeDecodeError:
            pass
    try:
        return line.decode(primary), [primary]
    except UnicodeDecodeError:
        pass
    alternatives = [c for c in CANDIDATE_CODECS if c != primary]
    whole = []
    for alt in alternatives:
        try:
            text = line.decode(alt)
        except UnicodeDecodeError:
            continue
        whole.append((mean_logp(text), alt, text))
    if whole:
        score, alt, text = max(whole)
        if score > -4.6:
            return text, [alt]
    # Piecewise: the main codec where it reads, a second codec for a stretch
    # it reads plausibly, U+FFFD (bytes kept) where nothing does.
    parts: list[str] = []
    used = [primary]
    pos = 0
    out_len = 0
    while pos < len(line):
        try:
            parts.append(line[pos:].decode(primary))
            break
        except UnicodeDecodeError as err:
            good = line[pos : pos + err.start].decode(primary)
            parts.append(good)
            out_len += len(good)
            bad_at = pos + err.start
            stretch = _foreign_stretch(line[bad_at:], alternatives)
            if stretch is not None:
                text, nbytes, alt = stretch
                parts.append(text)
                out_len += len(text)
                used.append(alt)
                pos = bad_at + nbytes
                continue
            bad_end = pos + err.end
            undecodable[offset + out_len] = line[bad_at:bad_end]
            parts.append("\ufffd")
            out_len += 1
            pos = bad_end
    return "".join(parts), used


def _foreign_stretch(rest: bytes, alternatives: list[str]) -> tuple[str, int, str] | None:
    """The longest plausible prefix of ``rest`` in another codec."""
    best = None
    for alt in alternatives:
        try:
            text = rest.decode(alt)
        except UnicodeDecodeError as err:
            text = rest[: err.start].decode(alt, errors="replace")
        # Stop where the other codec starts producing debris.
        cut = len(text)
        for i in range(len(text)):
            if mean_logp(text[i : i + 2]) < -5.5 and not text[i].isascii():
                cut = i
                break
        text = text[:cut]
        han = sum(1 for c in text if not c.isascii())
        if han == 0 or mean_logp(text) < -4.6:
            continue
        nbytes = len(text.encode(alt))
        if best is None or nbytes > best[1]:
            best = (text, nbytes, alt)
    return best


def run(job: Job) -> None:
    """Text is taken as it is; bytes are decoded, and what could not be read is kept by offset."""
    tools = job.tools
    if isinstance(job.source, str):
        job.doc = Document(job.source, tools.settings, lm=tools.lm)
        return
    decoded = decode_bytes(bytes(job.source))
    job.doc = Document(decoded.text, tools.settings, undecodable=decoded.undecodable, lm=tools.lm)
    job.encoding = decoded.encoding + ("-sig" if decoded.bom and decoded.encoding == "utf-8" else "")
    job.encoding_segments = tuple(decoded.segments)
