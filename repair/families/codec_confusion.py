"""Codec confusions: text encoded in one codec and decoded in another.

``鐢ㄦ埛`` is UTF-8 read as GBK, ``ÖÐÎÄ`` GBK read as cp1252, ``Ã¤Â¸Â­``
UTF-8 read as cp1252 twice.  The channel is exact when the garbling was
lossless: encoding the mojibake with the wrong codec gives back the original
bytes, and decoding them with the true codec gives back the text.  For every
improbable stretch every row of the codec table (``repair.channel.confusions``) is tried,
over the whole run and over trims of it, and repeated for double mojibake; the
UTF-8/Latin-1 row is ftfy's, which knows that family best.  A reading is kept
only when it passes ``redecode.acceptable``.  Runs of a lossy signature
(``锟斤拷``) are marked as missing, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

import ftfy

from repair.channel.calibration import confidence as channel_confidence
from repair.channel.calibration import writable as channel_writable
from repair.channel.confusions import CONFUSIONS, LOSSY_SIGNATURES, Confusion
from repair.channel.forward import strict_encode
from repair.channel.lines import Segment, read_text
from repair.channel.tables import decoder, first_error, strict_decode
from repair.charclass import is_han
from repair.families.base import Document, Proposal, outside
from repair.fill.ranker import LOST_GAPS
from repair.plausibility import char_logp, mean_logp
from repair.redecode import HOLE_LOGP, MIN_CANDIDATE_MEAN, SUSPICIOUS, acceptable, gain
from repair.types import Candidate, Slot, Span

MAX_DEPTH = 3
# Longer improbable stretches are the channel's alone (lines.py reads them in
# linear time); the search over trims below is for short pieces beside clean text.
MAX_STRETCH_SEARCHED = 48
FTFY_ROW = "UTF-8 read as cp1252/Latin-1"
CONFUSIONS_BY_LABEL = {c.label: c for c in CONFUSIONS}
MAX_TRIM = 6
MIN_DEBRIS = 3
LATIN_MOJIBAKE_RE = re.compile(
    "[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
)
MAX_HOLE_SHARE = 0.2
LOSSY_RES = tuple((re.compile(sig), note) for sig, note in LOSSY_SIGNATURES)
FTFY_CONFIG = ftfy.TextFixerConfig(
    unescape_html=False,
    remove_terminal_escapes=False,
    fix_latin_ligatures=False,
    fix_character_width=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    fix_surrogates=False,
    remove_control_chars=False,
    normalization=None,
    replace_lossy_sequences=False,
)


def reread(text: str, confusion: Confusion) -> tuple[str, int] | None:
    """Undo one confusion whole: (text with U+FFFD for a cut last character, holes).

    None when the bytes do not fit.  The one loss allowed here is a last
    character cut in half (an odd byte at the end, which the wrong decoder
    turned into U+FFFD or ``?``).  Bytes replaced inside the run are the
    channel's to read (``repair.channel``), with the model choosing among the
    characters that fit.
    """
    stripped = text.rstrip("\ufffd?")
    tail = 1 if stripped != text else 0
    if not stripped or "\ufffd" in stripped:
        return None
    raw = strict_encode(stripped, confusion.wrong)
    if raw is None:
        return None
    read = strict_decode(raw, confusion.true)
    if read is not None:
        return read + "\ufffd" * tail, tail
    # A character cut at the end is only believed when the wrong decoder said
    # so (the U+FFFD or ? stripped above): otherwise the run would swallow the
    # clean character that follows it.
    start = first_error(raw, confusion.true)
    if not tail or start < len(raw) - 3 or start == 0:
        return None
    head = strict_decode(raw[:start], confusion.true)
    return None if head is None else (head + "\ufffd", 1)


def ftfy_reread(text: str) -> tuple[str, int] | None:
    if not LATIN_MOJIBAKE_RE.search(text):
        return None
    fixed = ftfy.fix_encoding(text, FTFY_CONFIG)
    return (fixed, 0) if fixed != text else None


# The confusions as (label, re-reader) pairs; UTF-8 read as cp1252 is ftfy's.
ATTEMPTS: tuple[tuple[str, Callable[[str], tuple[str, int] | None]], ...] = (
    *((c.label, partial(lambda t, c: reread(t, c), c=c)) for c in CONFUSIONS if c.label != FTFY_ROW),
    (f"{FTFY_ROW} (ftfy)", lambda t: ftfy_reread(t)),
)


# The re-readers by label, for the stages that re-read with a known confusion.
READERS: dict[str, Callable[[str], tuple[str, int] | None]] = dict(ATTEMPTS)


def _encodable_segments(text: str, codec: str) -> list[bytes]:
    segments, current = [], bytearray()
    for ch in text:
        raw = strict_encode(ch, codec)
        if raw is not None:
            current += raw
        else:
            if current:
                segments.append(bytes(current))
            current = bytearray()
    if current:
        segments.append(bytes(current))
    return segments


SINGLE_BYTE_CODECS = frozenset({"sloppy-windows-1252", "latin-1", "cp1252"})


def promising(core: str) -> tuple[int, ...]:
    """Which confusions could explain the improbable core of a stretch at all.

    A cheap look before the search over trims: read the core leniently; a
    confusion whose reading holds no stretch of likely text is not tried.
    Clean text with a few rare characters stops here.
    """
    keep = []
    for i, (label, _fn) in enumerate(ATTEMPTS):
        if label.endswith("(ftfy)"):
            if LATIN_MOJIBAKE_RE.search(core):
                keep.append(i)
            continue
        c = CONFUSIONS_BY_LABEL[label]
        # The core may hold genuine characters next to the mojibake, which
        # the wrong codec cannot encode or which read as debris: one stretch
        # of likely text in the reading of any encodable segment is enough.
        # Both byte phases where the wrong codec is single-byte: a genuine
        # character before the mojibake (“ is one byte in cp1252) puts the
        # two-byte reading out of step.  Not for two-byte wrong codecs, whose
        # phase-shifted readings find likely text in byte-shifted runs.
        phases = (0, 1) if c.wrong in SINGLE_BYTE_CODECS else (0,)
        readings = (
            decoder(c.true).decode(segment[phase:], "replace")
            for segment in _encodable_segments(core, c.wrong)
            for phase in phases
        )
        for reading in readings:
            pieces = reading.split("\ufffd")
            if any(len(p) >= 3 and not p.isascii() and mean_logp(p) >= MIN_CANDIDATE_MEAN for p in pieces):
                keep.append(i)
                break
    return tuple(keep)


def best_reading(
    text: str, depth: int = 0, doc_script: str = "neutral", only: tuple[int, ...] | None = None
) -> tuple[str, int, list[str]] | None:
    """The most probable lossless re-reading of ``text``, with the codecs used."""
    options: list[tuple[float, str, int, list[str]]] = []
    for i, (label, fn) in enumerate(ATTEMPTS):
        if only is not None and i not in only:
            continue
        got = fn(text)
        if got is None:
            continue
        out, holes = got
        readable = out.replace("\ufffd", "")
        if readable == text.rstrip("\ufffd?") or holes > MAX_HOLE_SHARE * len(out):
            continue
        if not acceptable(text, readable, holes=holes, doc_script=doc_script):
            continue
        options.append((gain(text, readable), out, holes, [label]))
    if not options:
        return None
    _, out, holes, labels = max(options, key=lambda o: o[0])
    if depth + 1 < MAX_DEPTH and not holes:
        deeper = best_reading(out, depth + 1, doc_script)
        if deeper is not None:
            return deeper[0], deeper[1], labels + deeper[2]
    return out, holes, labels


# Growing a run over the debris beside it (``_grow``): a unit is one
# character of the reading, made of at most this many characters of the
# mojibake (a UTF-8 character read as cp1252 twice takes six).
MAX_UNIT = 6
# Log10 the new character must gain over the debris it replaces, by the
# unigram table: a Latin debris character alone costs 6.5.
GROW_MARGIN = 1.0


def _chain(labels: list[str]) -> Callable[[str], str | None]:
    """The lossless reader of a confusion (or a chain of them), without holes."""
    steps = [READERS[label] for label in labels]

    def read(t: str) -> str | None:
        for step in steps:
            got = step(t)
            if got is None or got[1]:
                return None
            t = got[0]
        return t

    return read


def _debris_unit(piece: str, new: str) -> bool:
    """Whether ``piece`` of the mojibake, reading as ``new``, is debris worth taking in.

    The new character must be Han and far more probable than what it
    replaces.  Where the piece is Han itself (two-byte mojibake) it must be an
    improbable character and the new one not: a genuine rare character beside
    the run stays as it is.
    """
    if not is_han(new) or any(c.isspace() for c in piece):
        return False
    old = sum(char_logp(c) for c in piece)
    if char_logp(new) < old + GROW_MARGIN:
        return False
    if any(is_han(c) for c in piece):
        return all(char_logp(c) <= SUSPICIOUS for c in piece) and char_logp(new) > SUSPICIOUS
    return True


def _grow(text: str, start: int, end: int, out: str, labels: list[str], lo: int, hi: int) -> tuple[int, int, str]:
    """Take in the debris on either side of a lossless re-reading, one character at a time.

    The trims of the codec search judge a run by its plausibility as a whole,
    so a rare character at a run's end (杕 read as ``æ\x9d•``) is left out
    when the reading without it scores better, and stays on the page as
    Latin debris.  Here each end is moved out while the same reader reads
    the longer stretch as the same text plus one character and that
    character is worth more than the debris it replaces (``_debris_unit``).

    >>> _grow("æ\\x9d•æ\\x9dœ", 3, 6, "杜", ["UTF-8 read as cp1252/Latin-1 (ftfy)"], 0, 6)
    (0, 6, '杕杜')
    """
    # ASCII letters left in a reading of a two-byte codec mean it is out of
    # step (a Big5 trail byte read alone): growing it would spread the error.
    if "\ufffd" in out or any(c.isascii() and c.isalnum() for c in out):
        return start, end, out
    read = _chain(labels)
    grown = True
    while grown:
        grown = False
        for k in range(1, MAX_UNIT + 1):
            if end + k > hi:
                break
            got = read(text[start : end + k])
            if got is not None and got.startswith(out) and len(got) == len(out) + 1 and is_han(got[-1]):
                if _debris_unit(text[end : end + k], got[-1]):
                    end, out, grown = end + k, got, True
                break
        for k in range(1, MAX_UNIT + 1):
            if start - k < lo:
                break
            got = read(text[start - k : end])
            if got is not None and got.endswith(out) and len(got) == len(out) + 1 and is_han(got[0]):
                if _debris_unit(text[start - k : start], got[0]):
                    start, out, grown = start - k, got, True
                break
    return start, end, out


def _trim_unchanged(text: str, start: int, end: int, out: str) -> tuple[int, int, str]:
    """Narrow a re-reading to what it changes: ASCII and clean neighbours
    that decode to themselves stay outside the edit."""
    while start < end and out and text[start] == out[0] != "\ufffd":
        start, out = start + 1, out[1:]
    while start < end and out and text[end - 1] == out[-1] != "\ufffd":
        end, out = end - 1, out[:-1]
    return start, end, out


class CodecConfusion:
    kind = "codec_confusion"
    priority = 20
    trigger = None  # improbable stretches and lines

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        # Lines and fields garbled by one channel, read by the channel's search
        # (lossy or not); what it leaves is searched below, stretch by stretch.
        spans: list[Span] = []
        late: list[Span] = []
        for seg in read_text(text, doc.lm, doc_script=doc.script):
            span = Span(seg.start, seg.end, self.kind, seg.before, {"segment": seg, "late": seg.marked_only})
            (late if seg.marked_only else spans).append(span)
        for pattern, note in LOSSY_RES:
            for m in pattern.finditer(text):
                if not any(s.start < m.end() and m.start() < s.end for s in spans):
                    spans.append(Span(m.start(), m.end(), self.kind, m.group(0), {"lossy": note}))
        # The stretch search below keeps out of what the channel read, and
        # searches only short stretches (its trims cost the square of a stretch).
        lossy = [(s.start, s.end) for s in spans] + list(doc.claimed)
        for st in doc.stretches:
            if st.end - st.start > MAX_STRETCH_SEARCHED:
                continue
            # A stretch may hold several confusions side by side: after each
            # reading, the parts of the stretch left and right of it are
            # searched again, until nothing more reads.
            todo = outside(st.run_start, st.run_end, lossy)
            while todo:
                piece_start, piece_end = todo.pop()
                start, end = max(st.start, piece_start), min(st.end, piece_end)
                if end - start < 3:
                    continue
                found = self._search(text, piece_start, piece_end, start, end, doc.script)
                if found is None:
                    continue
                s0, e0, out, holes, labels = found
                s0, e0, out = _trim_unchanged(text, s0, e0, out)
                if not holes:
                    s0, e0, out = _grow(text, s0, e0, out, labels, piece_start, piece_end)
                if (
                    e0 <= s0
                    or any(a < e0 and s0 < b for a, b in lossy)
                    or any(s.start < e0 and s0 < s.end for s in spans)
                ):
                    continue
                spans.append(Span(s0, e0, self.kind, text[s0:e0], {"reading": out, "holes": holes, "codecs": labels}))
                todo += [(piece_start, s0), (e0, piece_end)]
        # Debris no reading explains is marked last, where no family claims it.
        late = [s for s in late if not any(o.start < s.end and s.start < o.end for o in spans)]
        return sorted(spans + late, key=lambda s: s.start)

    @staticmethod
    def _search(text: str, run_start: int, run_end: int, start: int, end: int, doc_script: str):
        """Try the run and trims around the suspicious core, outward and inward
        (a genuine rare character may sit next to the mojibake)."""
        starts = [run_start, *range(max(run_start + 1, start - MAX_TRIM), min(start + MAX_TRIM, end))]
        ends = [run_end, *range(max(end - MAX_TRIM, start + 1), min(run_end, end + MAX_TRIM))]
        # Inside a long core, also where improbable stretches begin and end.
        odd = [char_logp(c) <= SUSPICIOUS for c in text[start:end]]
        # debris[i]: improbable characters that are not Han from i to the end.
        debris = [0] * (len(odd) + 1)
        for i in range(len(odd) - 1, -1, -1):
            debris[i] = debris[i + 1] + (odd[i] and not is_han(text[start + i]))
        # A wrong decoder's replacement can put the rest of a core out of
        # step, so the core is also looked at from where each improbable
        # stretch inside it begins, if what follows is debris no text has
        # (kana, Greek, box drawing, private use beside Han): at least three
        # such characters and a third of the rest.  Improbable Han alone
        # (獶獼猴, names of monkeys) is no sign of mojibake, and a byte-shifted
        # run, Han with a kana here and there, reads as rare text by any
        # codec in short pieces (ざ滔嘈胃呦 as 泣肥顾璆绥).
        cores = {start}
        for i in range(1, len(odd)):
            if odd[i] and not odd[i - 1]:
                starts += range(max(start + 1, start + i - 3), start + i + 1)
                if debris[i] >= MIN_DEBRIS and 3 * debris[i] >= len(odd) - i:
                    cores.add(start + i)
            if odd[i - 1] and not odd[i]:
                ends += range(start + i, min(end, start + i + 3) + 1)
        only = tuple(sorted({i for c in cores for i in promising(text[c:end])}))
        if not only:
            return None
        best = None
        for s in dict.fromkeys(starts):
            for e in dict.fromkeys(ends):
                if e <= s:
                    continue
                got = best_reading(text[s:e], doc_script=doc_script, only=only)
                if got is None:
                    continue
                g = gain(text[s:e], got[0].replace("\ufffd", "")) + got[1] * HOLE_LOGP
                if best is None or g > best[0]:
                    best = (g, s, e, *got)
        return None if best is None else best[1:]

    @staticmethod
    def debris(text: str, start: int, end: int) -> list[tuple[int, int]]:
        """The debris in ``text[start:end]``, the part of a debris stretch no
        other family claimed: its improbable pieces between white space."""
        from repair.channel.lines import debris_pieces

        return debris_pieces(text, start, end)

    def propose(self, span: Span, doc: Document) -> Proposal:
        if "segment" in span.info:
            return _propose_segment(span.info["segment"], doc)
        if "lossy" in span.info:
            return _propose_lossy(span, doc)
        out = span.info["reading"]
        slots = tuple(
            Slot(m.start(), 1, 1, "character whose bytes the confusion lost") for m in re.finditer("\ufffd", out)
        )
        out = out.replace("\ufffd", doc.settings.placeholder)
        source = " then ".join(span.info["codecs"])
        return Proposal(
            (Candidate(out, gain(span.text, out.replace(doc.settings.placeholder, "")), source),),
            1.0,
            slots,
            note=f"re-decoded: {source}",
            detail={"codecs": span.info["codecs"]},
        )


# Candidates listed in the report for each character whose bytes were lost.
LISTED = 10


def _propose_segment(seg: Segment, doc: Document) -> Proposal:
    """A reading by the channel's search: written where the bytes fix it and
    where a lost character's calibrated confidence reaches the threshold;
    every other lost character is marked, with its candidates."""
    if seg.marked_only:
        if not seg.channels:
            return Proposal(note="left marked: garbled text that no codec channel reads", detail={"codecs": []})
        channel = seg.channels[0]
        return Proposal(
            (Candidate(seg.reading, 0.0, channel.label),),
            0.0,
            note=f"left marked: garbled text; the best reading ({channel.label}) is not good enough to write",
            detail={
                "channel": channel.label,
                "codecs": [],
                "true": channel.true,
                "wrong": channel.wrong,
                "errors": channel.errors,
                "reading": seg.reading,
            },
        )
    channel = seg.channels[0]
    # The error mode is named only where bytes were lost: a lossless reading is the pair alone.
    lossy = bool(seg.lost) or any(c in seg.before for c in ("\ufffd", "?"))
    label = " then ".join(c.label if lossy else c.pair for c in seg.channels)
    out = list(seg.after)
    slots = []
    written = []
    for k, ranked in sorted(seg.lost.items()):
        conf = channel_confidence(ranked[0][1], channel, thin=k in seg.thin)
        if conf >= doc.settings.min_confidence and channel_writable(ranked[0][1], channel, thin=k in seg.thin):
            written.append(conf)
            continue
        out[k] = doc.settings.placeholder
        listed = [[c, round(p, 4)] for c, p in ranked[:LISTED]]
        slots.append(
            Slot(k, 1, 1, "character whose bytes the channel lost", {"candidates": listed, "confidence": conf})
        )
    for k, c in enumerate(seg.after):
        if c == "\ufffd":
            out[k] = doc.settings.placeholder
            slots.append(Slot(k, 1, 1, "character the true codec could not read"))
    after = "".join(out)
    detail = {
        "channel": label,
        "codecs": [],
        "true": channel.true,
        "wrong": channel.wrong,
        "errors": channel.errors,
        "lost": {str(k): [[c, round(p, 4)] for c, p in ranked[:LISTED]] for k, ranked in sorted(seg.lost.items())},
        "thin": sorted(seg.thin),
    }
    return Proposal(
        (Candidate(after, seg.gain, label),),
        min(written, default=1.0),
        tuple(sorted(slots, key=lambda s: s.offset)),
        note=f"re-decoded: {label}",
        detail=detail,
    )


def _propose_lossy(span: Span, doc: Document) -> Proposal:
    """A lossy signature: where the bytes tell how many characters were lost
    (锟斤拷 is two U+FFFD written in UTF-8 and read as GBK), the run becomes that
    many marked gaps; otherwise (烫烫烫, memory never written) it stays as it is."""
    note = span.info["lossy"]
    data = strict_encode(span.text, "gbk") or b""
    lost = decoder("utf-8").decode(data, "replace") if span.text.startswith("锟") else ""
    if not lost or set(lost) != {"\ufffd"}:
        return Proposal(note=f"left marked: {note}", detail={"lossy": note})
    marks = doc.settings.placeholder * len(lost)
    slots = tuple(Slot(k, 1, 1, "character lost before the text was garbled") for k in range(len(lost)))
    return Proposal(
        (Candidate(marks, 0.0, "UTF-8 read as GBK"),),
        1.0,
        slots,
        note=f"marked: {note}; the bytes tell {len(lost)} lost character(s)",
        detail={"lossy": note, LOST_GAPS: len(lost)},
    )
