"""Byte-shifted runs: a GBK (or Big5) stream read one byte out of phase.

``垛裕簧潇缎弧㈧缎颍…�`` is simplified GBK text whose bytes were paired
wrongly after a byte was lost: every character shows the second byte of one
character and the first byte of the next.  Out-of-phase pairs that fell in a
user-defined area became private-use characters and were deleted; the last
lone byte became U+FFFD; the next newline put the reader back in phase.

The channel is exact for what the bytes still hold: re-encode the run, drop
its first byte, and read it in pairs.  What the bytes cannot give back becomes
a slot with the byte that survives: the character cut at the start (its
second byte known), the one cut at the end (its first byte known), and each
character pair whose middle two bytes were deleted (it reads as a single
character; both outer bytes known).  The start of the run and its codec are
found by that pair reading (cheap, by the characters' priors); the run is then
read by the channel's search (``repair.channel.search.read_shifted``), which
decides with the language model, in context and jointly, where pairs were
deleted.  A character it keeps that is itself likelier a glued pair than a
word is a slot all the same.
"""

from __future__ import annotations

import re

from repair.channel.confusions import DOUBLE_BYTE_CODECS
from repair.channel.forward import encodable, strict_encode
from repair.channel.search import read_shifted
from repair.channel.tables import strict_decode
from repair.families.base import Document, Proposal
from repair.plausibility import char_logp, text_logp
from repair.redecode import HOLE_LOGP, SUSPICIOUS, acceptable
from repair.types import Candidate, Slot, Span

# A reader that lacks a character (GBK read as GB2312, Big5-HKSCS as Big5)
# shows U+FFFD for its lead byte and reads on out of phase, pairing each
# trail byte with the next lead byte, until a pair is invalid: another U+FFFD,
# and the reader is back in step.  Between the two marks the bytes are all
# there, one byte late: the lost character kept its trail byte, the last one
# its lead byte.  (The reader of each source codec.)
# When the last character's trail byte is in the ASCII range (0x40-0x7E, as
# in much of Big5), the reader shows it as itself and is in step after it:
# then that character is whole again.
# (The closing mark is looked ahead at, since it may open the next run.)
AFTER_LOST_LEAD_RE = re.compile("\ufffd([^\ufffd\x00-\x7f]{1,80})(?=\ufffd|[\x40-\x7e])")
READER_OF = {"gb18030": "gb2312", "big5hkscs": "big5"}
# The run re-read in step must read far better than as shown (mean log10 per
# character) and hold no improbable character: text read one byte late is
# debris, so this keeps two unrelated marks and the text between them apart.
MIN_LEAD_GAIN = 1.0
START_SEARCH = 8
# A shifted run is a stretch of debris, not two odd characters before a U+FFFD.
MIN_RUN = 6
MIN_RUN_SUSPICIOUS = 3
# A deleted pair glues the first byte of one character to the second byte of
# the next: the result is a random two-byte code, often a common character.
# A pair is deleted when the first character's second byte falls in a GBK
# user-defined row (AA-AF, F8-FE: 13 of 94 values), so about one boundary in
# seven hides one.  Bayes with the character's prior gives the chance that a
# re-read character is such a glued pair; above GLUED_MARK it becomes a hole,
# above GLUED_SUSPECT it is kept but listed for the language model to check.
GLUED_PRIOR = 13 / 94
GLUED_CODE_SPACE = 87 * 94
GLUED_MARK = 0.5
GLUED_SUSPECT = 0.05
FULLWIDTH_ALNUM = {
    chr(c) for lo, hi in ((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A)) for c in range(lo, hi + 1)
}


def _two_byte(ch: str, codec: str) -> bytes | None:
    raw = strict_encode(ch, codec)
    return raw if raw is not None and len(raw) == 2 else None


def glued_probability(ch: str) -> float:
    """Chance that a re-read character is two characters glued by a deleted pair.

    >>> glued_probability("之") < 0.01 < 0.5 < glued_probability("侗")
    True
    """
    if ch in FULLWIDTH_ALNUM or ch == "\ufffd":
        return 1.0
    return glued_posterior(10 ** char_logp(ch))


def glued_posterior(p_real: float) -> float:
    """P(glued | character), given the probability of the character as text
    (a unigram prior here; the language model's in context in repair.fill)."""
    glued = GLUED_PRIOR / GLUED_CODE_SPACE
    return glued / (glued + (1 - GLUED_PRIOR) * p_real)


def reread_shifted(
    run: str, codec: str, *, debris: bool = True, glue: bool = True
) -> tuple[list[tuple[str, dict]], bool] | None:
    """Read ``run`` one byte later: a list of (char or None for a hole, constraint).

    Returns None when the run is not made of two-byte characters of ``codec``
    (or, with ``debris``, is too short or too plausible to be a shifted run).
    With ``glue`` False no pair can have been deleted (the reader resyncs at
    the first invalid pair instead), so every re-read character is itself.
    The boolean tells whether the run ended in a cut character (U+FFFD).
    """
    body = run.rstrip("\ufffd")
    cut_end = body != run
    if debris and (len(body) < MIN_RUN or sum(char_logp(c) <= SUSPICIOUS for c in body) < MIN_RUN_SUSPICIOUS):
        return None
    raw = bytearray()
    for ch in body:
        b = _two_byte(ch, codec)
        if b is None:
            return None
        raw += b
    if len(raw) < (4 if debris else 2):
        return None
    out: list[tuple[str | None, dict]] = [(None, {"trail_byte": f"{raw[0]:02X}", "why": "cut at the start of the run"})]
    data = raw[1:]
    lead_left = None
    if len(data) % 2:
        lead_left = data[-1]
        data = data[:-1]
    for i in range(0, len(data), 2):
        pair = bytes(data[i : i + 2])
        ch = strict_decode(pair, codec) or ""
        p_glued = (glued_probability(ch) if glue else 0.0) if len(ch) == 1 else 1.0
        if p_glued >= GLUED_MARK:
            out.append(
                (
                    None,
                    {
                        "lead_byte": f"{pair[0]:02X}",
                        "trail_byte": f"{pair[1]:02X}",
                        "chars": 2,
                        "why": "two characters glued by a deleted pair",
                        "as_read": ch,
                    },
                )
            )
        else:
            out.append((ch, {"p_glued": p_glued}))
    if lead_left is not None or cut_end:
        info = {"why": "cut at the end of the run"}
        if lead_left is not None:
            info["lead_byte"] = f"{lead_left:02X}"
        out.append((None, info))
    return out, cut_end


def _reread_after_lost_lead(
    text: str, m: re.Match[str], codec: str, reader: str
) -> list[tuple[str | None, dict]] | None:
    """The run of ``m`` (mark, stretch; then a mark or an ASCII byte) read in step, or None.

    The lost character is a hole with its trail byte, and one the reader
    lacks.  If the run ends at a mark, the last character is a hole with its
    lead byte, and its trail byte made an invalid pair with the byte after
    the run (there the reader fell back in step); if it ends at an ASCII
    byte, that byte completes the last character.
    """
    middle, end = m.group(1), text[m.end()]
    if not all(_two_byte(c, reader) for c in middle):
        return None  # the reader did not show these
    got = reread_shifted(middle + "\ufffd", codec, debris=False, glue=False)
    if got is None:
        return None
    pieces, _ = got
    lost, info = pieces[0]
    pieces[0] = (lost, {**info, "not_in": reader, "why": "lead byte lost to the mark before it"})
    last, info = pieces[-1]
    if "lead_byte" not in info:
        return None
    lead = int(info["lead_byte"], 16)
    if end != "\ufffd":
        whole = strict_decode(bytes((lead, ord(end))), codec)
        if whole is None:
            return None
        pieces[-1] = (whole, {"p_glued": 0.0})
        return pieces
    following = text[m.end() + 1 : m.end() + 2]
    after = following.encode(reader, errors="ignore")[:1] if following else b""
    if after:
        pieces[-1] = (last, {**info, "resync_reader": reader, "next_byte": f"{after[0]:02X}"})
    return pieces


def pieces_of(reading, codec: str) -> list[tuple[str | None, dict]] | None:
    """A shifted run's reading as the family's pieces: the cut characters and
    the pairs glued by a deleted pair become holes with the bytes that survive
    (the fill ranks them), every other character is what its bytes say.  None
    where the reading holds an unread character.
    """
    units = _units(reading, codec)
    if units is None:
        return None
    out: list[tuple[str | None, dict]] = []
    for kind, text, info in units:
        if kind != "char":
            out.append((None, info))
            continue
        p_glued = glued_probability(text)
        raw = strict_encode(text, codec)
        if p_glued >= GLUED_MARK and raw is not None and len(raw) == 2:
            # A character that is itself more likely two glued by a deleted
            # pair (a random code) than a word: a hole, as the pair reading has it.
            info = {"lead_byte": f"{raw[0]:02X}", "trail_byte": f"{raw[1]:02X}", "chars": 2}
            out.append((None, {**info, "why": "two characters glued by a deleted pair", "as_read": text}))
        else:
            out.append((text, {"p_glued": p_glued}))
    return out


def _units(reading, codec: str) -> list[tuple[str, str, dict]] | None:
    """The reading's characters grouped by what the channel says of them:
    (kind, text read, hole info) with kind "char", "cut" or "glued"."""
    cells, holes = reading.lattice.cells, reading.lattice.holes
    out: list[tuple[str, str, dict]] = []
    glued: list = []
    last = len(holes) - 1
    for piece in reading.pieces:
        span = range(piece.start, piece.end)
        known = [cells[i] for i in span if cells[i] >= 0]
        # Holes the character took bytes from (a deleted pair it steps over, whole, is no loss).
        lost = [
            h
            for h in {-1 - cells[i] for i in span if cells[i] < 0}
            if not (holes[h].optional and holes[h].start >= piece.start and holes[h].end <= piece.end)
        ]
        if piece.text == "\ufffd" or len(lost) > 1 or (len(known) != (1 if lost else 2) and known):
            return None
        if not lost:
            out.append(("char", piece.text, {}))
            continue
        h = lost[0]
        if h == 0:
            out.append(("cut", piece.text, {"trail_byte": f"{known[0]:02X}", "why": "cut at the start of the run"}))
        elif h == last:
            out.append(("cut", piece.text, {"lead_byte": f"{known[0]:02X}", "why": "cut at the end of the run"}))
        elif piece.end == holes[h].start + 1 and known:
            glued = [known[0], piece.text]  # the first of the characters a deleted pair glued
        elif not known and glued:
            glued.append(piece.text)  # a character lost whole between two deleted pairs
        elif (piece.start - holes[h].start) % 2 and glued:
            pair = bytes((glued[0], known[0]))
            chars = len(glued)
            info = {"lead_byte": f"{pair[0]:02X}", "trail_byte": f"{pair[1]:02X}", "chars": chars}
            why = "two characters glued by a deleted pair" if chars == 2 else "characters lost with deleted pairs"
            text = "".join(glued[1:]) + piece.text
            out.append(("glued", text, {**info, "why": why, "as_read": strict_decode(pair, codec) or ""}))
            glued = []
        else:
            return None
    return out


def render(pieces: list[tuple[str | None, dict]], placeholder: str) -> tuple[str, tuple[Slot, ...]]:
    text = []
    slots = []
    pos = 0
    for ch, info in pieces:
        if ch is None:
            n = info.get("chars", 1)
            slots.append(Slot(pos, n * len(placeholder), n, info["why"], {k: v for k, v in info.items() if k != "why"}))
            text.append(placeholder * n)
            pos += n * len(placeholder)
        else:
            text.append(ch)
            pos += len(ch)
    return "".join(text), tuple(slots)


class ByteShift:
    kind = "byte_shift"
    priority = 21
    trigger = None  # improbable stretches

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans: list[Span] = []
        for st in doc.stretches:
            if spans and st.start < spans[-1].end:
                continue
            if any(a < st.end and st.start < b for a, b in doc.claimed):
                continue  # already explained by a family of higher priority
            # The run ends at its last improbable character (U+FFFD included).
            end = st.end
            window = max(st.run_start, st.start - START_SEARCH, 0)
            best = None
            # Where the run starts is decided by the whole window: clean text
            # kept before the start plus the re-read run, holes charged.
            # An improbable character just before the cluster belongs to the
            # run (a lone one is no cluster of its own): start no later.
            latest = next((i for i in range(window, st.start) if char_logp(text[i]) <= SUSPICIOUS), st.start)
            for start in range(window, latest + 1):
                run = text[start:end]
                for codec in DOUBLE_BYTE_CODECS:
                    got = reread_shifted(run, codec)
                    if got is None:
                        continue
                    pieces, _ = got
                    readable = "".join(c for c, _ in pieces if c)
                    holes = sum(info.get("chars", 1) for c, info in pieces if c is None)
                    if not acceptable(run, readable, holes=holes, doc_script=doc.script):
                        continue
                    total = text_logp(text[window:start]) + text_logp(readable) + holes * HOLE_LOGP
                    if best is None or total > best[0]:
                        best = (total, start, codec, pieces)
            if best is not None:
                _, start, codec, pieces = best
                pieces = self._read_by_channel(text[start:end], codec, doc) or pieces
                spans.append(Span(start, end, self.kind, text[start:end], {"codec": codec, "pieces": pieces}))
        taken = [(s.start, s.end) for s in spans] + list(doc.claimed)
        spans += [s for s in self._after_lost_leads(doc) if not any(a < s.end and s.start < b for a, b in taken)]
        return sorted(spans, key=lambda s: s.start)

    def _read_by_channel(self, run: str, codec: str, doc: Document) -> list[tuple[str | None, dict]] | None:
        """The run read by the channel's search (``repair.channel.search.read_shifted``):
        where pairs were deleted is decided by the model in context, jointly
        with the characters, not by each re-read character's prior alone.
        None where the search does not read the run (the pair reading stands)."""
        if doc.lm is None:
            return None
        body = run.rstrip("\ufffd")
        reading = read_shifted(body, codec, doc.scorer, cut_end=body != run)
        return None if reading is None else pieces_of(reading, codec)

    @staticmethod
    def _after_lost_leads(doc: Document) -> list[Span]:
        spans: list[Span] = []
        if "\ufffd" not in doc.text:
            return spans
        # Only a reader that shows every other character of the document could have read it.
        shown = "".join(sorted(set(doc.text) - {"\ufffd"}))
        readers = [(codec, reader) for codec, reader in READER_OF.items() if encodable(shown, reader)]
        for m in AFTER_LOST_LEAD_RE.finditer(doc.text) if readers else ():
            middle, end = m.group(1), doc.text[m.end()]
            if spans and m.start() < spans[-1].end:
                continue
            for codec, reader in readers:
                pieces = _reread_after_lost_lead(doc.text, m, codec, reader)
                if pieces is None:
                    continue
                readable = "".join(c for c, _ in pieces if c)
                # An ASCII byte amid Han text is evidence of its own; a run
                # between two marks must read in step for two characters.
                if len(readable) < (1 if end != "\ufffd" else 2):
                    continue
                if any(char_logp(c) <= SUSPICIOUS for c in readable):
                    continue
                if text_logp(readable) / len(readable) - text_logp(middle) / len(middle) < MIN_LEAD_GAIN:
                    continue
                info = {"codec": codec, "pieces": pieces, "deleted_pairs": False}
                spans.append(Span(m.start(), m.end() + 1, ByteShift.kind, doc.text[m.start() : m.end() + 1], info))
                break
        return spans

    def propose(self, span: Span, doc: Document) -> Proposal:
        """Confidence is the expected share of the written characters that are
        right: the bytes are exact, but any character may hide a glued pair."""
        pieces = span.info["pieces"]
        out, slots = render(pieces, doc.settings.placeholder)
        codec = span.info["codec"]
        kept = [info["p_glued"] for ch, info in pieces if ch is not None]
        confidence = 1.0 - sum(kept) / len(kept) if kept else 0.0
        suspects, pos = [], 0
        for ch, info in pieces:
            if ch is not None and info["p_glued"] >= GLUED_SUSPECT:
                suspects.append({"offset": pos, "char": ch, "p_glued": round(info["p_glued"], 3)})
            pos += len(ch) if ch is not None else info.get("chars", 1) * len(doc.settings.placeholder)
        return Proposal(
            (Candidate(out, text_logp(out.replace(doc.settings.placeholder, "")), f"{codec} re-read one byte later"),),
            confidence,
            slots,
            note=f"byte-shifted {codec} run re-read in phase; {len(slots)} hole(s) the bytes cannot fill",
            detail={
                "codec": codec,
                "suspect_chars": suspects,
                **({"deleted_pairs": False} if span.info.get("deleted_pairs") is False else {}),
            },
        )
