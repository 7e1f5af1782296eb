"""Hypotheses at every scale, cheapest first: which channel garbled each line.

Most real mojibake is a whole file, a field or a line, garbled by one pair of
codecs.  So the channel is decided per line, once: every (true, wrong, error
mode) hypothesis whose wrong decoder can have written the line is tried, the
cheap test first (do the bytes read in the true codec at all?), the search
(``repair.channel.search``) only for the few that pass.  The search itself
keeps clean stretches of the line as they are, so a garbled field inside a
clean line is read the same way.  A line with no improbable character is
never searched: clean text costs one regular-expression scan.

The result is a list of ``Segment``: the stretch of the input that was
garbled, its reading, and for each character whose bytes were lost, its
posterior among the channel's candidates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repair.channel.forward import Channel
from repair.channel.scorer import scorer_for
from repair.channel.search import Reading, read
from repair.channel.tables import REPLACEMENT, decoder
from repair.plausibility import char_logp

# (true, wrong) pairs users' software produces, most common first.  GBK
# stands for GB2312 and GB18030 as true codecs (it encodes what they encode,
# bar GB18030's four-byte characters); Big5 for cp950.
PAIRS: tuple[tuple[str, str], ...] = (
    ("utf-8", "gbk"),
    ("utf-8", "cp1252"),
    ("utf-8", "latin-1"),
    ("gbk", "big5"),
    ("big5", "gbk"),
    ("utf-8", "big5"),
    ("gbk", "cp1252"),
    ("big5", "cp1252"),
    ("gbk", "latin-1"),
    ("big5", "latin-1"),
    ("gbk", "utf-8"),
    ("big5", "utf-8"),
    ("utf-8", "gb2312"),
    ("utf-8", "shift_jis"),
    ("gbk", "shift_jis"),
    ("utf-8", "gb18030"),
    ("big5", "gb18030"),
    ("utf-8", "big5hkscs"),
    ("gbk", "big5hkscs"),
)
# Hypotheses searched per line, best by the cheap test.
MAX_SEARCHED = 3
# A line must hold this many improbable characters (or a replacement mark) to be tried.
MIN_IMPROBABLE = 2
# Log10 a reading must gain over the line as written, per garbled character.
MIN_GAIN_PER_CHAR = 1.0
MIN_GAIN = 4.0
MAX_DEPTH = 2
LINE_RE = re.compile(r"[^\n]+")


@dataclass
class Segment:
    """A garbled stretch of the input (``start``/``end`` in the text) and its reading."""

    start: int
    end: int
    before: str
    after: str
    channels: tuple[Channel, ...]
    gain: float
    # For each character of ``after`` whose bytes were lost: its ranked candidates with posteriors.
    lost: dict[int, list[tuple[str, float]]] = field(default_factory=dict)


def _improbable_re():
    from repair.redecode import _suspicious_re

    return _suspicious_re()


def suspect(line: str) -> bool:
    """The cheap test: is there anything here a channel could explain?"""
    if REPLACEMENT in line:
        return True
    found = 0
    for _ in _improbable_re().finditer(line):
        found += 1
        if found >= MIN_IMPROBABLE:
            return True
    return False


def _modes(line: str) -> tuple[str, ...]:
    if REPLACEMENT in line:
        return ("replace",)
    if "?" in line:
        return ("?", "replace", "ignore")
    return ("replace", "ignore")


def _cheap(line: str, channel: Channel) -> float | None:
    """Share of the line's known bytes that read in the true codec (None: the
    wrong decoder cannot have written this line at all).  Bytes next to a hole
    are not counted: the character they belong to lost a byte there."""
    wrong = decoder(channel.wrong)
    mark = {"replace": REPLACEMENT, "?": "?", "ignore": None}[channel.errors]
    segments = [bytearray()]
    foreign = 0
    for ch in line:
        if ch == mark:
            segments.append(bytearray())
            continue
        try:
            segments[-1] += ch.encode(wrong.name)
        except UnicodeEncodeError:
            foreign += 1
    if foreign > len(line) // 2:
        return None
    # A UTF-8 decoder keeps almost nothing of GBK or Big5 bytes: the hypothesis
    # needs the marks that says so.  (Any line at all encodes in UTF-8.)
    if wrong.name == "utf-8" and (len(segments) - 1) < MIN_UTF8_MARK_SHARE * len(line):
        return None
    true = decoder(channel.true)
    good = bad = 0
    logp = 0.0
    changed = False
    for k, data in enumerate(segments):
        pieces = true.pieces(bytes(data))
        for a, b, t in pieces:
            if t == REPLACEMENT:
                near_hole = (k > 0 and a < 3) or (k < len(segments) - 1 and b > len(data) - 3)
                if not near_hole:
                    bad += 1
                continue
            good += 1
            logp += char_logp(t)
            changed = changed or b - a > 1 or not t.isascii()
    if not changed:
        return None  # a reading that changes nothing is no reading
    if channel.errors == "ignore" and bad == 0:
        return None  # nothing was dropped: the lossless hypothesis covers it
    total = good + bad + foreign
    if not total or good < MIN_GOOD_SHARE * total:
        return None
    # How much the rough reading looks like text, per character read.
    return (logp + (bad + foreign) * CHEAP_ERROR_LOGP) / total


MIN_UTF8_MARK_SHARE = 0.2
MIN_GOOD_SHARE = 0.5
CHEAP_ERROR_LOGP = -8.0


def _core(line: str) -> str:
    """The densest cluster of improbable characters in a line, with a little
    around it: a garbled field in a clean line is judged on itself, not on
    the clean text (or a rare character) beside it."""
    from repair.redecode import suspicious_stretches

    found = suspicious_stretches(line)
    if not found:
        return line
    st = max(found, key=lambda st: st.suspicious)
    return line[max(0, st.start - 2) : st.end + 3]


def hypotheses(line: str) -> list[Channel]:
    line = _core(line)
    scored = []
    seen = set()
    for true, wrong in PAIRS:
        for mode in _modes(line):
            ch = Channel(true, wrong, mode)
            # A wider decoder that writes a lossless line with the same bytes
            # as a narrower one is the same hypothesis (GB18030 over GBK); with
            # marks they differ in what they rejected (GB2312 far more than GBK).
            try:
                lossless = REPLACEMENT not in line and "?" not in line
                key = (true, mode, line.encode(decoder(wrong).name) if lossless else wrong)
            except UnicodeEncodeError:
                key = (true, mode, wrong)
            if key in seen:
                continue
            seen.add(key)
            got = _cheap(line, ch)
            if got is not None:
                scored.append((got, ch))
    scored.sort(key=lambda sc: -sc[0])
    return [ch for _, ch in scored[:MAX_SEARCHED]]


def read_line(line: str, scorer, *, offset: int = 0, doc_script: str = "neutral") -> list[Segment]:
    """The garbled stretches of one line, read under the hypothesis that explains most."""
    best: list[Segment] = []
    found = hypotheses(line)
    for n, channel in enumerate(found):
        segments = _segments(line, read(line, channel, scorer), scorer, offset, doc_script)
        if sum(s.gain for s in segments) > sum(s.gain for s in best):
            best = segments
        same_bytes = n + 1 < len(found) and found[n + 1].true == channel.true
        if _settled(line, best) and not same_bytes:
            break  # cheapest first: a hypothesis that reads the whole line ends the search
    return best


def _rough_reading(line: str) -> str:
    found = hypotheses(line)
    if not found:
        return ""
    ch = found[0]
    data = b"".join(c.encode(decoder(ch.wrong).name, errors="ignore") for c in line if c not in (REPLACEMENT, "?"))
    return decoder(ch.true).decode(data, "ignore")


def _settled(line: str, segments: list[Segment]) -> bool:
    covered = sum(s.end - s.start for s in segments)
    unread = sum(s.after.count(REPLACEMENT) for s in segments)
    return covered >= 0.8 * len(line) and unread == 0


def read_text(text: str, lm, *, doc_script: str = "neutral") -> list[Segment]:
    """Every garbled stretch of ``text`` with its reading, line by line.

    A document garbled whole shows no script of its own; a rough reading of
    its lines (the best hypothesis, lost bytes skipped) does, and the search
    reads lost characters in that script (a traditional text lost traditional ones).
    """
    from repair.plausibility import script_of

    lines = [m for m in LINE_RE.finditer(text) if suspect(m.group(0))]
    if not lines:
        return []
    script = doc_script
    if script == "neutral":
        script = script_of("".join(_rough_reading(m.group(0)) for m in lines[:200]), min_evidence=10)
    scorer = scorer_for(lm, text, script)
    found = [read_line(m.group(0), scorer, offset=m.start(), doc_script=doc_script) for m in lines]
    return [s for segs in found for s in segs]


def _segments(line: str, reading: Reading, scorer, offset: int, doc_script: str) -> list[Segment]:
    """The stretches a reading does not keep as they are, those that pass the acceptance rule."""
    from repair.redecode import acceptable

    node_to_item = {s: k for k, s in enumerate(reading.lattice.item_start)}
    pieces = reading.pieces
    out = []
    i = 0
    while i < len(pieces):
        if pieces[i].clean:
            i += 1
            continue
        j = i
        while j < len(pieces) and not pieces[j].clean:
            j += 1
        a = node_to_item.get(pieces[i].start)
        b = node_to_item.get(pieces[j - 1].end)
        i0, i = i, j
        if a is None or b is None or b <= a:
            continue
        before = line[a:b]
        after = "".join(p.text for p in pieces[i0:j])
        lost = {k - i0: reading.posteriors[k] for k in range(i0, j) if k in reading.posteriors}
        readable = "".join(c for n, c in enumerate(after) if n not in lost and c != REPLACEMENT)
        unread = after.count(REPLACEMENT)
        gain = _gain(before, after, scorer)
        if gain < max(MIN_GAIN, MIN_GAIN_PER_CHAR * len(before)):
            continue
        if not acceptable(before, readable or after, holes=len(lost) + unread, doc_script=doc_script):
            continue
        out.append(Segment(offset + a, offset + b, before, after, (reading.channel,), gain, lost))
    return out


def _gain(before: str, after: str, scorer) -> float:
    """Log10 of how much more probable the reading is than the text as written."""

    def total(s: str) -> float:
        state = scorer.start()
        t = 0.0
        for ch in s:
            lp, state, _ = scorer.step(state, ch)
            t += lp
        return t

    return total(after) - total(before)
