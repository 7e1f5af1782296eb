"""Large files in bounded memory: decoded, repaired and written a piece at a time.

A file above ``STREAM_BYTES`` is never held whole.  Its encoding is decided on
its head as ``repair.pipeline.decode.decode_bytes`` decides it (the same first
megabyte; a UTF-16 guess is checked on the whole file, as there); it is then
decoded in ranges of whole lines with the same functions, so the text is the
text ``decode_bytes`` gives (only a line longer than a block that neither its
codec nor UTF-8 reads is decoded a block at a time).  The text is cut into
chunks of at most ``CHUNK_CHARS`` characters, at a line end where there is one;
each chunk is repaired by the same ``Repairer.repair_text``, its output written
on to the output file and its edits, moved to whole-file offsets, lines and
columns, on to the report, so undo works on the whole output.

Memory holds one chunk, its result, and the report's counts (and the encoding
segments, one small entry per line in a second encoding); the edits go to a
spool file and are copied into the report, which keeps its one-document
format and key order, at the end.

What chunking costs: each chunk is a document of its own.  The model's
context does not reach across a cut, and the document-wide judgements (the
script, the punctuation habits the codec channel reads with) are made per
chunk, so a file whose chunks differ in those can come out otherwise than
repaired whole; chunks of plain lines that share them come out the same.  A
line longer than a chunk is cut after sentence punctuation (。！？), else
between ordinary Han characters, else at the chunk's width: damage that
straddles such a cut is seen as two pieces.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO

from repair.charclass import is_han
from repair.errors import BinaryInputError
from repair.families import FAMILY_KINDS
from repair.io import open_input
from repair.pipeline.decode import (
    BOMS,
    SAMPLE,
    _decode_line,
    _decode_lines,
    _magic,
    _utf16_without_bom,
    guess_encoding,
    sniff_binary,
)
from repair.plausibility import is_suspicious
from repair.report import _line_index, build_report, counts, dumps, edit_to_json, glyph_summary
from repair.types import Edit, Result

# Files above this many bytes are streamed.  Repaired whole, a file's peak
# memory grows with its text (measured with the shipped model: ~280 MB for
# 300,000 characters, ~760 MB for 1.4 million, 4.6 GB for 35 million); one
# megabyte of UTF-8 Chinese (about 350,000 characters) is where a whole repair
# passes 300 MB.  Smaller files are repaired exactly as before.
STREAM_BYTES = 1 << 20
# Characters per chunk: a chunk's repair adds up to ~100 MB to the process (the
# interpreter, tables and mapped model take ~95 MB; what is kept between chunks
# grows by ~30 MB over a long file), and the document-wide judgements still see
# a long chapter.  On benchmarks/memory_100mb.py's file, 100,000 characters peaked at
# 282 MB; 50,000 leave a margin (and gave the same edits on its first 4 MB).
CHUNK_CHARS = 50_000
BLOCK = 1 << 20  # bytes read at a time
# Characters each side of a cut inside a line that must be ordinary Han.
PLAIN_MARGIN = 8
SENTENCE_END_RE = re.compile("[。！？]+[」』”’）]*")
# Detail fields that hold input offsets (moved with the edit).
OFFSET_DETAILS = ("detector_span",)


def is_large(path: Path, threshold: int | None = None) -> bool:
    """Whether ``path`` is a file to stream: above ``threshold`` bytes (``STREAM_BYTES``).
    Errors are left to the reader, which names them."""
    try:
        return path.is_file() and path.stat().st_size > (STREAM_BYTES if threshold is None else threshold)
    except OSError:
        return False


def _blocks(fh: BinaryIO, start: int, end: int) -> Iterator[bytes]:
    fh.seek(start)
    while start < end:
        block = fh.read(min(BLOCK, end - start))
        if not block:
            return
        start += len(block)
        yield block


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open_input(path) as fh:
        for block in iter(lambda: fh.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def utf8_sha256(path: Path) -> str | None:
    """The file's SHA-256 if it is UTF-8 (the hash of its text), else None; read a block at a time."""
    digest = hashlib.sha256()
    check = codecs.getincrementaldecoder("utf-8")()
    try:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(BLOCK), b""):
                check.decode(block)
                digest.update(block)
        check.decode(b"", final=True)
    except (OSError, UnicodeDecodeError):
        return None
    return digest.hexdigest()


def report_head(path: Path) -> dict[str, Any]:
    """A report without its edits, read without them: the report format writes the
    top-level ``"edits"`` key last, on a line of its own (a file written otherwise is read whole)."""
    marker = b'\n "edits": '
    buf = b""
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(BLOCK), b""):
            start = max(0, len(buf) - len(marker))
            buf += block
            at = buf.find(marker, start)
            if at >= 0:
                return json.loads(buf[:at].rstrip(b",") + b"\n}")
    return json.loads(buf)


# --- decoding ----------------------------------------------------------------------------------


def _valid(fh: BinaryIO, start: int, end: int, codec: str, *, allow_nul: bool = True) -> bool:
    """Whether bytes [start, end) decode in ``codec`` without error (and, unless ``allow_nul``, without U+0000)."""
    check = codecs.getincrementaldecoder(codec)()
    try:
        for block in chain(_blocks(fh, start, end), [b""]):
            text = check.decode(block, final=not block)
            if not allow_nul and "\x00" in text:
                return False
    except UnicodeDecodeError:
        return False
    return True


def _decision(fh: BinaryIO, size: int) -> tuple[str, int, bool]:
    """(codec, bytes of byte order mark to skip, whether there is one): ``decode_bytes``'s choice."""
    head = fh.read(SAMPLE + 1)
    for bom, codec in BOMS:
        if head.startswith(bom):
            return codec, len(bom), True
    why = _magic(head)
    if why is not None:
        raise BinaryInputError(f"not a text file: looks like {why}")
    if size % 2 == 0:
        # Judged on the first megabyte; decode_bytes also needs the whole file to read so.
        wide = _utf16_without_bom(head[:SAMPLE])
        if wide is not None and _valid(fh, 0, size, wide, allow_nul=False):
            return wide, 0, False
    why = sniff_binary(head)
    if why is not None:
        raise BinaryInputError(f"not a text file: looks like {why}")
    return guess_encoding(head), 0, False


def _line_end(fh: BinaryIO, pos: int, size: int) -> int:
    """The offset just after the first line break (as ``bytes.splitlines`` sees them) at or after ``pos``."""
    fh.seek(pos)
    while pos < size:
        block = fh.read(BLOCK)
        if not block:
            break
        hits = [i for i in (block.find(b"\n"), block.find(b"\r")) if i >= 0]
        if hits:
            i = min(hits)
            if block[i] == 0x0D:  # \r, or \r\n
                after = block[i + 1 : i + 2] if i + 1 < len(block) else fh.read(1)
                return pos + i + 1 + (after == b"\n")
            return pos + i + 1
        pos += len(block)
    return size


def _ranges(fh: BinaryIO, start: int, size: int) -> Iterator[tuple[int, int, bool]]:
    """Consecutive byte ranges of whole lines, about a block each; a line longer
    than a block is a range of its own, flagged (its end found without keeping it)."""
    pos = start
    while pos < size:
        fh.seek(pos)
        block = fh.read(BLOCK)
        if pos + len(block) >= size:
            yield pos, size, False
            return
        cut = block.rfind(b"\n") + 1 or block.rfind(b"\r", 0, len(block) - 1) + 1
        if cut:
            yield pos, pos + cut, False
            pos += cut
            continue
        end = _line_end(fh, pos + len(block) - 1, size)
        yield pos, end, True
        pos = end


def _long_line(
    fh: BinaryIO, start: int, end: int, primary: str, line: int, segments: list[dict]
) -> Iterator[tuple[str, dict[int, bytes]]]:
    """One line longer than a block, decoded as ``_decode_line`` decodes a line (UTF-8 first
    in a legacy file, then its own codec) with an incremental decoder."""
    ascii_only = all(block.isascii() for block in _blocks(fh, start, end))
    if primary != "utf-8" and not ascii_only and _valid(fh, start, end, "utf-8"):
        chosen = "utf-8"
    elif _valid(fh, start, end, primary):
        chosen = primary
    else:
        # Neither reads it: each block (cut where the codec's reading of it ends
        # a character) is decoded as a line of its own.
        parse = codecs.getincrementaldecoder(primary)(errors="replace")
        carry = b""
        for block in chain(_blocks(fh, start, end), [b""]):
            data = carry + block
            parse.decode(block, final=not block)
            keep = len(data) - len(parse.getstate()[0])
            piece, carry = data[:keep], data[keep:]
            if piece:
                undecodable: dict[int, bytes] = {}
                text, used = _decode_line(piece, primary, 0, undecodable)
                segments.extend({"line": line, "encoding": c} for c in used if c != primary)
                yield text, undecodable
        return
    if chosen != primary:
        segments.append({"line": line, "encoding": chosen})
    decoder = codecs.getincrementaldecoder(chosen)()
    for block in _blocks(fh, start, end):
        yield decoder.decode(block), {}
    yield decoder.decode(b"", final=True), {}


def _pieces(
    fh: BinaryIO, size: int, codec: str, start: int, segments: list[dict]
) -> Iterator[tuple[str, dict[int, bytes]]]:
    """The decoded text in pieces, with the raw bytes behind each U+FFFD (offsets in the piece);
    lines in a second encoding are appended to ``segments`` as ``decode_bytes`` lists them."""
    if codec.startswith(("utf-16", "utf-32")):
        valid = _valid(fh, start, size, codec)
        decoder = codecs.getincrementaldecoder(codec)(errors="strict" if valid else "replace")
        for block in chain(_blocks(fh, start, size), [b""]):
            text = decoder.decode(block, final=not block)
            yield text, {} if valid else {i: b"" for i, c in enumerate(text) if c == "\ufffd"}
        return
    line = 0  # lines before the range, counted as bytes.splitlines counts them
    for a, b, long in _ranges(fh, start, size):
        if long:
            yield from _long_line(fh, a, b, codec, line + 1, segments)
            line += 1
            continue
        fh.seek(a)
        data = fh.read(b - a)
        decoded = _decode_lines(data, codec)
        segments.extend({**s, "line": s["line"] + line} for s in decoded.segments)
        line += len(data.splitlines())
        yield decoded.text, decoded.undecodable


def _plain(ch: str) -> bool:
    return is_han(ch) and not is_suspicious(ch)


def _cut(text: str, limit: int) -> int:
    """Where to end a chunk of ``text`` (longer than ``limit``): after its last line
    break before ``limit``; in a longer line, after sentence punctuation with ordinary
    characters around it, else between two runs of ordinary Han characters
    (``PLAIN_MARGIN`` each side), else at ``limit``."""
    for sep in ("\n", "\r"):
        at = text.rfind(sep, 0, limit)
        if at >= 0:
            return at + 1
    low = limit // 2
    best = 0
    for m in SENTENCE_END_RE.finditer(text, low, limit):
        if 0 < m.start() and m.end() < len(text) and _plain(text[m.start() - 1]) and _plain(text[m.end()]):
            best = m.end()
    if best:
        return best
    k = PLAIN_MARGIN
    first = max(0, low - k)
    run = 0
    for i, c in enumerate(text[first : limit + k], first):
        run = run + 1 if _plain(c) else 0
        # [i + 1 - 2k, i + 1) is plain: a cut at its middle has k plain characters each side
        if run >= 2 * k and low <= i + 1 - k <= limit:
            best = i + 1 - k
    return best or limit


def _chunks(pieces: Iterator[tuple[str, dict[int, bytes]]], limit: int) -> Iterator[tuple[str, dict[int, bytes]]]:
    """The text in chunks of at most ``limit`` characters (see ``_cut``), with their U+FFFD bytes."""
    text = ""
    undecodable: dict[int, bytes] = {}
    for piece, raw in pieces:
        undecodable.update((len(text) + k, v) for k, v in raw.items())
        text += piece
        while len(text) > limit:
            cut = _cut(text, limit)
            yield text[:cut], {k: v for k, v in undecodable.items() if k < cut}
            undecodable = {k - cut: v for k, v in undecodable.items() if k >= cut}
            text = text[cut:]
    if text:
        yield text, undecodable


@dataclass
class Decoding:
    """A large file opened for decoding: its encoding (as ``Result.encoding`` names it) and its text in chunks."""

    encoding: str
    segments: list[dict]
    chunks: Iterator[tuple[str, dict[int, bytes]]]


def decode_file(fh: BinaryIO, size: int, chunk_chars: int = CHUNK_CHARS) -> Decoding:
    codec, skip, bom = _decision(fh, size)
    segments: list[dict] = []
    chunks = _chunks(_pieces(fh, size, codec, skip, segments), chunk_chars)
    return Decoding(codec + ("-sig" if bom and codec == "utf-8" else ""), segments, chunks)


# --- repairing -----------------------------------------------------------------------------------


def _with_raw_bytes(edits: tuple[Edit, ...], raw: dict[int, bytes]) -> tuple[Edit, ...]:
    """The undecodable bytes behind each U+FFFD run in its edit's detail, as
    ``Repairer.repair_bytes`` reports them (``repair_text`` does not see them)."""
    out = []
    for e in edits:
        hexes = [raw[i].hex().upper() for i in range(e.start, e.end) if i in raw]
        if e.kind == "replacement_char" and hexes and "bytes" not in e.detail:
            e = replace(e, detail={"bytes": hexes, **e.detail})
        out.append(e)
    return tuple(out)


class _Lines:
    """Where a chunk sits in the whole text: characters and line breaks before it."""

    def __init__(self) -> None:
        self.chars = 0
        self.lines = 0  # "\n" before the chunk
        self.line_start = 0  # offset of the line the chunk starts in

    def starts(self, text: str) -> list[int]:
        """Line starts for ``edit_to_json``: the chunk's first line, then each line in it."""
        return [self.line_start, *(self.chars + s for s in _line_index(text)[1:])]

    def advance(self, text: str) -> None:
        n = text.count("\n")
        if n:
            self.lines += n
            self.line_start = self.chars + text.rfind("\n") + 1
        self.chars += len(text)


class _Edits:
    """The report's edits, numbered and placed in the whole file, written to ``spool``
    as the report lays them out; the counts and glyphs kept as the report sums them."""

    def __init__(self, spool: BinaryIO | None) -> None:
        self.spool = spool
        self.number = 0
        self.source = _Lines()
        self.output = _Lines()
        self.totals: dict[str, Counter] = {}
        self.glyphs: dict[str, dict[str, Any]] = {}

    def add(self, edits: tuple[Edit, ...], source_text: str, output_text: str) -> list[dict[str, Any]]:
        src, out = self.source, self.output
        starts, out_starts = src.starts(source_text), out.starts(output_text)
        items = []
        for e in edits:
            self.number += 1
            detail = {
                k: [v[0] + src.chars, v[1] + src.chars] if k in OFFSET_DETAILS else v for k, v in e.detail.items()
            }
            placed = replace(
                e,
                start=e.start + src.chars,
                end=e.end + src.chars,
                out_start=e.out_start + out.chars,
                out_end=e.out_end + out.chars,
                detail=detail,
            )
            item = edit_to_json(placed, starts, out_starts, self.number)
            item["line"] += src.lines
            item["end_line"] += src.lines
            item["out_line"] += out.lines
            if self.spool is not None:
                text = json.dumps(item, ensure_ascii=False, indent=1).replace("\n", "\n  ")
                self.spool.write(((",\n  " if self.number > 1 else "  ") + text).encode("utf-8"))
            items.append(item)
        chunk = Result(output_text, edits, source_text)
        for what, by_kind in counts(chunk).items():
            self.totals.setdefault(what, Counter()).update(by_kind)
        for g in glyph_summary(chunk):
            seen = self.glyphs.setdefault(g["text"], {**g, "occurrences": 0})
            seen["occurrences"] += g["occurrences"]
        src.advance(source_text)
        out.advance(output_text)
        return items

    def summary(self) -> dict[str, dict[str, int]]:
        return {what: {k: c[k] for k in FAMILY_KINDS if c[k]} for what, c in self.totals.items()}


@dataclass
class Streamed:
    """What ``repair_file`` wrote: the report without its edits (every other field
    as written), and the output's first chunk with its edits (a page's worth)."""

    report: dict[str, Any]
    preview_text: str
    preview_edits: list[dict[str, Any]]
    unchanged: bool  # the output's bytes are the input's


def repair_file(
    source: Path,
    repairer,
    output: BinaryIO | None,
    report: BinaryIO | None,
    *,
    input_path: str | None,
    output_path: str | None,
    settings: dict[str, Any],
    chunk_chars: int | None = None,
    spool_dir: Path | None = None,
    on_edits: Callable[[list[dict[str, Any]]], None] | None = None,
) -> Streamed:
    """Repair ``source`` a chunk at a time with ``repairer`` (its ``repair_text``), writing
    the UTF-8 output to ``output`` and the JSON report to ``report`` as ``build_report`` and
    ``dumps`` would write them for the whole file (either may be None), ``chunk_chars``
    (``CHUNK_CHARS``) characters at a time; ``on_edits`` is
    given each chunk's edits as the report has them.  Raises ``RepairError`` for input
    that is not text, as ``repair_bytes`` does."""
    in_hash, out_hash = hashlib.sha256(), hashlib.sha256()
    with open_input(source) as fh:
        size = 0
        for block in _blocks(fh, 0, fh.seek(0, 2)):
            in_hash.update(block)
            size += len(block)
        fh.seek(0)
        decoding = decode_file(fh, size, chunk_chars or CHUNK_CHARS)
        with tempfile.TemporaryFile(dir=spool_dir) if report is not None else nullcontext() as spool:
            edits = _Edits(spool)
            preview: tuple[str, list[dict[str, Any]]] | None = None
            out_size = 0
            for text, raw in decoding.chunks:
                result = repairer.repair_text(text)
                placed = _with_raw_bytes(result.edits, raw) if raw else result.edits
                data = result.text.encode("utf-8")
                if output is not None:
                    output.write(data)
                out_hash.update(data)
                out_size += len(data)
                items = edits.add(placed, text, result.text)
                if on_edits is not None:
                    on_edits(items)
                if preview is None:
                    preview = (result.text, items)
            head = build_report(
                Result("", (), ""), input_path=input_path, output_path=output_path, input_bytes=b"", settings=settings
            )
            head["input"].update(
                sha256=in_hash.hexdigest(),
                bytes=size,
                encoding=decoding.encoding,
                encoding_segments=decoding.segments,
                chars=edits.source.chars,
                lines=edits.source.lines + 1,
            )
            head["output"].update(sha256=out_hash.hexdigest(), chars=edits.output.chars)
            head["summary"] = edits.summary()
            head["glyphs"] = list(edits.glyphs.values())
            if report is not None:
                _write_report(report, head, spool, edits.number)
            del head["edits"]
    return Streamed(
        head,
        *(preview or ("", [])),
        unchanged=out_size == size and out_hash.hexdigest() == in_hash.hexdigest(),
    )


def _write_report(report: BinaryIO, head: dict[str, Any], spool: BinaryIO, count: int) -> None:
    """``dumps`` of the whole report: the head, then the spooled edits in its ``"edits"`` list."""
    text = dumps(head)
    empty = "[]\n}"
    if not count:
        report.write(text.encode("utf-8"))
        return
    assert text.endswith('"edits": ' + empty)
    report.write(text[: -len(empty)].encode("utf-8") + b"[\n")
    spool.seek(0)
    shutil.copyfileobj(spool, report, BLOCK)
    report.write(b"\n ]\n}")


def gap_keys(source: Path, exact, chunk_chars: int = CHUNK_CHARS) -> set[str]:
    """The witness keys of the gaps ``exact`` (a model-free Repairer) leaves in a large file, a chunk at a time."""
    from repair.api import result_gap_keys

    keys: set[str] = set()
    with open_input(source) as fh:
        size = fh.seek(0, 2)
        fh.seek(0)
        for text, _ in decode_file(fh, size, chunk_chars).chunks:
            keys |= result_gap_keys(exact.repair_text(text))
    return keys
