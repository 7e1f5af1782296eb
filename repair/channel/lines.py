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

import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from repair.channel.forward import Channel
from repair.channel.scorer import scorer_for
from repair.channel.search import Reading, read_line_first_whole, text_score
from repair.channel.tables import REPLACEMENT, decoder
from repair.charclass import foreign_symbol_class, is_han
from repair.families.base import outside
from repair.plausibility import char_logp
from repair.redecode import SEPARATORS, SUSPICIOUS, suspicious_stretches

# (true, wrong) pairs users' software produces, most common first.  GBK
# stands for GB2312 and GB18030 as true codecs (it encodes what they encode,
# bar GB18030's four-byte characters); Big5 for cp950.
PAIRS: tuple[tuple[str, str], ...] = (
    ("utf-8", "gbk"),
    ("utf-8", "cp1252"),
    ("utf-8", "sloppy-windows-1252"),
    ("utf-8", "latin-1"),
    ("gbk", "big5"),
    ("big5", "gbk"),
    ("utf-8", "big5"),
    ("gbk", "cp1252"),
    ("big5", "cp1252"),
    ("gbk", "sloppy-windows-1252"),
    ("big5", "sloppy-windows-1252"),
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
    # Debris no reading was good enough for: marked, with the best reading found.
    reading: str = ""
    marked_only: bool = False
    # Lost characters (offsets in ``after``) with too little known context to judge.
    thin: set[int] = field(default_factory=set)


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
    if foreign > MAX_FOREIGN_SHARE * len(line):
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
                if near_hole:
                    # The rest of a character whose other bytes a mark hid.
                    good += 1
                    logp += CUT_CHARACTER_LOGP
                    # In a short string (typed at a prompt, a field) the cut
                    # characters may be all there is to read (鎵�绛�).
                    changed = changed or len(line) <= MAX_SHORT_LINE
                else:
                    bad += 1
                continue
            good += 1
            # A ? read as itself between characters is a loss more often than
            # a question: it counts as an improbable character here.
            logp += char_logp(t) if t != "?" else LITERAL_QUESTION_LOGP
            changed = changed or b - a > 1 or not t.isascii()
    if not changed:
        return None  # a reading that changes nothing is no reading
    if channel.errors == "ignore" and bad == 0 and channel.true == "utf-8":
        return None  # nothing was dropped: the lossless hypothesis covers it (GBK and Big5 hide a drop)
    total = good + bad + foreign
    if not total or good < MIN_GOOD_SHARE * total:
        return None
    if (
        channel.true == "utf-8"
        and bad == 0
        and foreign == 0
        and wrong.name in ("latin-1", "cp1252", "sloppy-windows-1252")
    ):
        # Latin text that is valid UTF-8 throughout is UTF-8 read as Latin,
        # whatever it reads as (a second round of mojibake reads as Latin too).
        return 0.0
    # How much the rough reading looks like text, per character read.
    return (logp + (bad + foreign) * CHEAP_ERROR_LOGP) / total


MIN_UTF8_MARK_SHARE = 0.2
MIN_GOOD_SHARE = 0.5
# Characters of the core the wrong decoder cannot have written (a GBK-only
# character rules out GB2312): at most this share, for a clean one beside it.
MAX_FOREIGN_SHARE = 0.1
CHEAP_ERROR_LOGP = -8.0
LITERAL_QUESTION_LOGP = -5.0
CUT_CHARACTER_LOGP = -4.0
# Log10 per character the rough reading must beat the core as written by.
MIN_CHEAP_GAIN = 1.0
MIN_CHEAP_GAIN_MARKED = 0.5


def _core_span(line: str) -> tuple[int, int]:
    """The densest cluster of improbable characters in a line: a garbled field
    in a clean line is judged on itself, not on the clean text (or a rare
    character) beside it."""
    found = suspicious_stretches(line)
    if not found:
        return 0, len(line)
    st = max(found, key=lambda st: st.suspicious)
    return st.start, st.end


def _core(line: str) -> str:
    a, b = _core_span(line)
    return line[a:b]


HYPOTHESIS_SAMPLE = 2000


@lru_cache(maxsize=512)
def hypotheses(line: str) -> tuple[Channel, ...]:
    """The channels worth searching for ``line``, best first: those whose rough
    reading of its improbable core looks more like text than the core itself."""
    # A long core is judged on its first stretch: the rough test of a channel
    # needs a few hundred characters, not a megabyte.
    line = _core(line)[:HYPOTHESIS_SAMPLE]
    if not line:
        return ()
    own = sum(_written_logp(c) for c in line) / len(line)
    # Where the decoder left marks the rough reading skips what they hid.
    gate = MIN_CHEAP_GAIN_MARKED if REPLACEMENT in line or "?" in line else MIN_CHEAP_GAIN
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
            if got is not None and got >= own + gate:
                scored.append((got, ch))
    scored.sort(key=lambda sc: -sc[0])
    return tuple(ch for _, ch in scored[:MAX_SEARCHED])


def read_line(line: str, scorer, *, offset: int = 0, doc_script: str = "neutral", depth: int = 0) -> list[Segment]:
    """The garbled stretches of one line, read under the hypothesis that explains most."""
    best: list[Segment] = []
    found = hypotheses(line)
    if len(found) > 1 and len(line) > LONG_LINE:
        found = (_best_on_sample(line, found, scorer, doc_script, depth),)
    fallback = None
    read_whole = False
    for n, channel in enumerate(found):
        # Once a channel has read every byte, another is worth only as much.
        reading = read_line_first_whole(line, channel, scorer, whole_only=read_whole)
        if reading is None:
            continue
        read_whole = read_whole or reading.whole
        if fallback is None:
            fallback = reading
        segments = _segments(line, reading, scorer, offset, doc_script, depth)
        if sum(s.gain for s in segments) > sum(s.gain for s in best):
            best = segments
        same_bytes = n + 1 < len(found) and found[n + 1].true == channel.true
        if _settled(line, best, offset) and not same_bytes:
            break  # cheapest first: a hypothesis that reads the whole line ends the search
    if best:
        best += _edge_debris(line, best, offset)
        best += _debris_between(line, best, offset)
    if not best and _debris(_core(line)):
        # Garbage is never left unmarked: what no channel reads well enough to
        # write is marked (every improbable cluster of the window, and what
        # lies between), with the best reading found if there is one.
        a, b = _debris_span(line)
        channel = fallback.channel if fallback is not None else None
        reading = fallback.text if fallback is not None else ""
        best = [
            Segment(offset + a, offset + b, line[a:b], line[a:b], (channel,) if channel else (), 0.0, {}, reading, True)
        ]
    return best


# A line longer than this is garbled by one channel throughout as far as the
# choice of channel goes: the hypotheses are weighed on a sample of its core,
# and only the best reads the whole line (a megabyte read once, not three times).
LONG_LINE = 3000
CHANNEL_SAMPLE = 1000


def _best_on_sample(line: str, found: tuple[Channel, ...], scorer, doc_script: str, depth: int) -> Channel:
    a, _ = _core_span(line)
    sample = line[a : a + CHANNEL_SAMPLE]
    best, best_gain = found[0], -math.inf
    for channel in found:
        reading = read_line_first_whole(sample, channel, scorer)
        if reading is None:
            continue
        gain = sum(s.gain for s in _segments(sample, reading, scorer, 0, doc_script, depth))
        if gain > best_gain:
            best, best_gain = channel, gain
    return best


# Debris that is marked even when no reading of it is good enough to write:
# this many different improbable characters, this improbable on the whole.
MIN_DEBRIS_KINDS = 3
MAX_DEBRIS_MEAN = -4.5


def _improbable_at(line: str, i: int) -> bool:
    c = line[i]
    return c not in SEPARATORS and (char_logp(c) <= SUSPICIOUS or c in ("?", REPLACEMENT))


def _edge_debris(line: str, segments: list[Segment], offset: int) -> list[Segment]:
    """Improbable characters right beside a reading that it did not take in
    (the bytes of a cut character at a line's end): marked, never left bare."""
    out = []
    taken = [(s.start - offset, s.end - offset) for s in segments]
    for a, b in taken:
        for lo, hi, step in ((b, len(line), 1), (a - 1, -1, -1)):
            i = lo
            while i != hi and _improbable_at(line, i) and not any(x <= i < y for x, y in taken):
                i += step
            x, y = (lo, i) if step == 1 else (i + 1, lo + 1)
            if y > x:
                taken.append((x, y))
                out.append(Segment(offset + x, offset + y, line[x:y], line[x:y], (), 0.0, {}, "", True))
    return out


def _debris_between(line: str, segments: list[Segment], offset: int) -> list[Segment]:
    """Debris in the parts of a line that the readings left (a reading of part
    of a line may stop where what follows reads no better): marked, never left bare."""
    out = []
    taken = [(s.start - offset, s.end - offset) for s in segments]
    for a, b in outside(0, len(line), taken):
        part = line[a:b]
        odd = [i for i in range(len(part)) if _improbable_at(part, i)]
        if odd and _debris(part):
            x, y = odd[0], odd[-1] + 1  # garbage throughout: from its first odd character to its last
        elif _debris(_core(part)):
            x, y = _debris_span(part)
        else:
            continue
        if y > x:
            out.append(Segment(offset + a + x, offset + a + y, part[x:y], part[x:y], (), 0.0, {}, "", True))
    return out


def _debris_span(line: str) -> tuple[int, int]:
    found = suspicious_stretches(line)
    if not found:
        return 0, len(line)
    a, b = min(st.start for st in found), max(st.end for st in found)
    # Debris at the ends that is no Han text of the line's own (a kana, a Latin
    # letter cut out of a pair) goes with it.
    while a > 0 and _improbable_at(line, a - 1):
        a -= 1
    while b < len(line) and _improbable_at(line, b):
        b += 1
    return a, b


def _debris(core: str) -> bool:
    """Whether a cluster is garbage rather than words: improbable on the whole,
    and mixing kinds of characters no clean text mixes (rare Han beside kana,
    symbols or Latin letters; a ? or U+FFFD among them).  A run of rare Han
    characters alone (戛擊柷敔, 湎酗) is a classical text's vocabulary, and a
    run of one symbol row (αβγ, ㄅㄆㄇ, これは) is a word of its own script."""
    if len(core) < MIN_DEBRIS_KINDS:
        return False
    odd = {c for c in core if char_logp(c) <= SUSPICIOUS or c in (REPLACEMENT, "?")}
    if len(odd) < MIN_DEBRIS_KINDS or _debris_mean(core) > MAX_DEBRIS_MEAN:
        return False
    kinds = {_kind(c) for c in odd} - {None}
    rare_han = sum(1 for c in odd if _kind(c) == "han")
    marks = sum(1 for c in core if c in ("?", REPLACEMENT))
    # Stand-in symbols amid real text (鹑β。饮い鳖) leave the Han probable: mojibake does not.
    return len(kinds) >= 2 and (rare_han >= MIN_DEBRIS_KINDS or marks >= 2)


def _debris_mean(core: str) -> float:
    """Mean log10 prior of a cluster as written.  An ASCII letter or sign right
    after a ? is the surviving trail byte of a character whose lead byte a
    converter replaced (Big5 人 is A4 48: read as GBK with ?, it is ``?H``), so
    it counts as the mark does, not as a common letter.  (Not after U+FFFD:
    there it made lines of Big5 read as UTF-8 debris, whose readings do not
    line up.)"""
    total = 0.0
    for i, c in enumerate(core):
        trail = i > 0 and core[i - 1] == "?" and "\x40" <= c <= "\x7e"
        total += LITERAL_QUESTION_LOGP if trail else _written_logp(c)
    return total / len(core)


def debris_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Pieces of a debris stretch left between other families' spans, split at
    white space; those that hold an improbable character are marked whole (mojibake
    holds probable characters too)."""
    out = []
    for m in re.finditer(r"[^\s\u3000]+", text[start:end]):
        a, b = start + m.start(), start + m.end()
        # The stretch was judged debris whole: what other families left of it
        # is marked unless it is punctuation alone.
        if any(unicodedata.category(text[i])[0] != "P" for i in range(a, b)):
            out.append((a, b))
    return out


def _kind(ch: str) -> str | None:
    if ch in ("?", REPLACEMENT):
        return "mark"
    if is_han(ch):
        return "han"
    if ch.isspace() or ch in EDITORIAL or unicodedata.category(ch)[0] == "P":
        return None
    return foreign_symbol_class(ch) or ("latin" if ch.isascii() or ch <= "\u024f" else "symbol")


# Marks editions print on purpose (a placeholder for a character they could
# not print, a circle between entries): no evidence of garbling.
EDITORIAL = frozenset("〓□■囗○●◎△▲☆★※")


def _written_logp(ch: str) -> float:
    """The prior of a character as written; a ? or U+FFFD amid garbled text is a loss."""
    return LITERAL_QUESTION_LOGP if ch in ("?", REPLACEMENT) else char_logp(ch)


def _rough_reading(line: str) -> str:
    found = hypotheses(line)
    if not found:
        return ""
    ch = found[0]
    data = b"".join(c.encode(decoder(ch.wrong).name, errors="ignore") for c in line if c not in (REPLACEMENT, "?"))
    return decoder(ch.true).decode(data, "ignore")


def _settled(line: str, segments: list[Segment], offset: int) -> bool:
    """Whether a reading leaves nothing for another hypothesis: no character it
    could not read, and no improbable character outside what it read."""
    if any(REPLACEMENT in s.after for s in segments):
        return False
    inside = [(s.start - offset, s.end - offset) for s in segments]
    return all(any(a <= i < b for a, b in inside) for i in range(len(line)) if _improbable_at(line, i))


# A rough reading that shows this many characters of one script and none of
# the other is in that script (a line of the Analects shows 學 時 習 遠 來 樂).
MIN_UNOPPOSED = 3


def read_text(text: str, lm, *, doc_script: str = "neutral") -> list[Segment]:
    """Every garbled stretch of ``text`` with its reading, line by line.

    A document garbled whole shows no script of its own; a rough reading of
    its lines (the best hypothesis, lost bytes skipped) does, and the search
    reads lost characters in that script (a traditional text lost traditional ones).
    """
    from repair.plausibility import script_of

    windows = [w for m in LINE_RE.finditer(text) if suspect(m.group(0)) for w in _windows(m.group(0), m.start())]
    if not windows:
        return []
    script = doc_script
    if script == "neutral":
        rough = "".join(_rough_reading(w) for w, _ in windows[:200])
        script = script_of(rough, min_evidence=10, min_unopposed=MIN_UNOPPOSED)
    scorer = None
    found: list[Segment] = []
    for window, offset in windows:
        if not hypotheses(window) and not _debris(_core(window)):
            continue  # the common case on clean text: nothing reads better
        if scorer is None:
            scorer = scorer_for(lm, text, script)
        found += read_line(window, scorer, offset=offset, doc_script=doc_script)
    return found


# Clean text kept on each side of a suspicious stretch when it is read: a
# garbled field may hold probable characters at its ends.
MARGIN = 40


def _windows(line: str, offset: int) -> list[tuple[str, int]]:
    """The stretches of a line worth reading, with their offsets: its improbable
    clusters with a margin, merged (a garbled line is one window; a long clean
    paragraph with one odd word costs a window of a few dozen characters)."""
    spans: list[list[int]] = []
    stretches = [(st.start, st.end) for st in suspicious_stretches(line)]
    stretches += [(i, i + 1) for i, c in enumerate(line) if c == REPLACEMENT]
    for a, b in sorted(stretches):
        a, b = max(0, a - MARGIN), min(len(line), b + MARGIN)
        if spans and a <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], b)
        else:
            spans.append([a, b])
    return [(line[a:b], offset + a) for a, b in spans]


def _segments(line: str, reading: Reading, scorer, offset: int, doc_script: str, depth: int = 0) -> list[Segment]:
    """The stretches a reading does not keep as they are, those that pass the acceptance rule."""
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
        thin = {k - i0 for k in range(i0, j) if k in reading.thin}
        channels = (reading.channel,)
        if not lost and depth + 1 < MAX_DEPTH and suspect(after):
            # Double mojibake: a lossless reading garbled whole is read once more.
            inner = [s for s in read_line(after, scorer, depth=depth + 1, doc_script=doc_script) if not s.marked_only]
            if len(inner) == 1 and not inner[0].lost and inner[0].start == 0 and inner[0].end == len(after):
                after, channels = inner[0].after, channels + inner[0].channels
        readable = "".join(c for n, c in enumerate(after) if n not in lost and c != REPLACEMENT)
        unread = after.count(REPLACEMENT)
        gain = _gain(before, after, scorer)
        if gain < max(MIN_GAIN, MIN_GAIN_PER_CHAR * len(before)):
            continue
        short = len(line) <= MAX_SHORT_LINE
        if not _acceptable(before, readable or after, len(lost) + unread, gain, doc_script, short=short):
            continue
        out.append(Segment(offset + a, offset + b, before, after, channels, gain, lost, thin=thin))
    return out


# A line this short is a string typed at a prompt or a field of its own: the
# readings of its U+FFFD are admitted on the marks' evidence.  (Not longer
# lines: there the same rule admitted readings of lines that lost most of
# their bytes, UTF-8 read as Big5 with ? going from 1.6% to 8.2% wrong.)
MAX_SHORT_LINE = 12

# A reading the model prefers by this much per character of the original is
# taken even where the unigram rule of ``redecode.acceptable`` doubts it (modern
# words such as 您 and 件 are rare in the classical table).
STRONG_GAIN_PER_CHAR = 1.5
MIN_STRONG_CHARS = 6


def _acceptable(before: str, readable: str, holes: int, gain: float, doc_script: str, *, short: bool = False) -> bool:
    from repair.redecode import FOREIGN_TO_TEXT_RE, LATIN_RE, MIN_ACCEPT_SUSPICIOUS, acceptable

    if acceptable(before, readable, holes=holes, doc_script=doc_script):
        return True
    marks = before.count(REPLACEMENT)
    if short and marks:
        # A short string has too few characters for the unigram rule: each
        # U+FFFD the reading explains counts as evidence of damage of its own.
        odd = {c for c in before if char_logp(c) <= SUSPICIOUS and c != REPLACEMENT}
        return (
            len(odd) + marks >= MIN_ACCEPT_SUSPICIOUS
            and not FOREIGN_TO_TEXT_RE.search(readable)
            and not any(foreign_symbol_class(c) for c in readable)
        )
    if len(before) < MIN_STRONG_CHARS or gain < STRONG_GAIN_PER_CHAR * len(before) or not _debris(before):
        return False
    if FOREIGN_TO_TEXT_RE.search(readable) or any(foreign_symbol_class(c) for c in readable):
        return False
    return not (LATIN_RE.search(readable) and not LATIN_RE.search(before))


def _gain(before: str, after: str, scorer) -> float:
    """Log10 of how much more probable the reading is than the text as written."""
    return text_score(after, scorer) - text_score(before, scorer)
