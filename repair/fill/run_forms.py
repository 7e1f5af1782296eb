"""A byte-shifted run read from another edition: the reference's stretch,
its forms and marks varied, that the channel turns into the run byte for byte.

Where the alignment puts a garbled run, another edition often has the same
words but not the same bytes: a variant form (爲 where the document has 為),
another mark (、 for ，, a 。 dropped or added) or a note printed inside the
text.  Shifting the reference's stretch as it stands then gives another run,
and the reading is lost (``repair.fill.byte_witness``).  The channel is exact,
though, and local: each output character of a shifted run comes from the last
byte of one character and the first of the next.  So the stretch is read
character by character, each one allowed in any of its forms (the variant
table, both scripts), each mark as any mark or as none, one mark allowed
between two characters where the reference has none, and a bracketed note
skipped whole; a choice survives only while the bytes it makes decode to the
run as observed.  The choices that survive to the run's end, and only a
single one, are the run's text: the bytes, not the reference, decide the
form of each character.

The search is a beam over (place in the stretch, undecoded bytes, characters
of the run matched): linear in the stretch, at most ``BEAM`` states alive, and
it gives up (reads nothing) when more survive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from repair.channel.forward import strict_encode
from repair.channel.tables import REPLACEMENT, decoder
from repair.fill.witness import fold
from repair.lm.tokens import NON_HAN_RE
from repair.variants import forms_of

# Marks an edition prints where another prints another (or none).
MARKS = "，。、；：！？「」『』"
# Marks that may only be dropped (an edition's brackets around its notes).
DROPPED = "（）()〔〕"
# A bracketed note, skipped whole: its brackets, and its longest length.
OPENS = {"（": "）", "(": ")", "〔": "〕"}
MAX_NOTE = 60
# A note without brackets, skipped where the bytes stop following the
# reference: its shortest length, and how many such skips one run may take.
MIN_NOTE = 3
MAX_SKIPS = 2
# States alive at one place of the stretch before the search gives up.
BEAM = 64
AMBIGUOUS = None
# What ``readings`` reports where two texts with as few changes end the run.
TWO_READINGS = "\x00"


@lru_cache(maxsize=8192)
def _forms(ch: str, codec: str) -> tuple[tuple[str, bytes, int], ...]:
    """What ``ch`` of the reference may have been in the document, with its
    bytes and whether it is a change from the reference (another form of the
    word that folds apart, another mark, none)."""
    if NON_HAN_RE.match(ch):
        options: Iterable[str] = (*MARKS, "") if ch in MARKS else (ch, "") if ch in DROPPED else (ch,)
    else:
        options = sorted(forms_of(ch))
    return tuple((f, raw, int(f != ch and fold(f) != fold(ch))) for f, raw in _encoded(options, codec))


@lru_cache(maxsize=64)
def _mark_bytes(codec: str) -> tuple[tuple[str, bytes], ...]:
    return _encoded(MARKS, codec)


def _encoded(options: Iterable[str], codec: str) -> tuple[tuple[str, bytes], ...]:
    """Each option the code page can write, with its bytes."""
    return tuple((f, raw) for f in options if (raw := strict_encode(f, codec)) is not None)


def _emit(dec, buf: bytes, final: bool) -> tuple[str, bytes]:
    """Decode what ``buf`` holds for sure (all of it when ``final``): output, bytes left.

    A piece is sure once a byte follows it: every decoder here reads a piece
    from its own bytes and, to end it, at most the byte after."""
    out = []
    i = 0
    while i < len(buf):
        k, t = dec.first(buf, i)
        if not final and i + k >= len(buf):
            break
        if not 0xE000 <= ord(t[0]) <= 0xF8FF:  # private-use codes are deleted by the channel
            out.append(t)
        i += k
    return "".join(out), buf[i:]


def readings(
    stretch: str,
    start: int,
    observed: str,
    ends: dict[int, set[str]],
    codec: str,
) -> tuple[float, dict[str, set[tuple[int, str]]]] | None:
    """The texts, fewest changes from the reference first, that the stretch of
    the reference (from ``start``) may have been and that the channel turns
    into ``observed[:n]`` (trailing replacement marks aside) for an ``n`` of
    ``ends``, where the reference's next character (folded) is one of
    ``ends[n]``: (changes, {text: {(n, character)}}), with ``TWO_READINGS``
    for two texts with as few changes that reach one state.  None when the
    search gives up.

    The bytes cannot see everything: a mark whose bytes pair with their
    neighbours into private-use codes leaves no trace, so the reference's
    reading (no change) is taken over one that adds or drops such a mark.
    """
    dec = decoder(codec)
    # state: (place in stretch, undecoded bytes, observed characters matched, a mark just put in)
    # -> (changes from the reference, text so far or AMBIGUOUS)
    states: dict[tuple[int, bytes, int, bool], tuple[float, str | None]] = {(start, b"", 0, False): (0, "")}
    first = True
    found: dict[str, set[tuple[int, str]]] = {}
    least = None
    skips = MAX_SKIPS
    recent: list[dict] = []
    while states or (skips and recent and not found):
        if not states:
            # Every choice died: an unbracketed note (or a comment) starts about
            # here.  Skipped once from the last two places reached, whatever
            # its length; the characters after it must go on with the bytes.
            skips -= 1
            for here in recent:
                for (i, buf, k, _), value in here.items():
                    for j in range(i + MIN_NOTE, min(len(stretch), i + MAX_NOTE + 1)):
                        for form, raw, change in _forms(stretch[j], codec):
                            change = 1 + (j - i) / 1000 + change
                            _step(states, dec, observed, (j + 1, buf, k, False), value, change, form, raw, j + 1)
            recent = []
            continue
        place = min(s[0] for s in states)
        here = {s: v for s, v in states.items() if s[0] == place}
        for s in here:
            del states[s]
        if len(here) > BEAM:
            return None
        # A mark the reference lacks, put in between two of its characters (once).
        if not first:
            for (i, buf, k, put), value in list(here.items()):
                if not put:
                    for mark, raw in _mark_bytes(codec):
                        _step(here, dec, observed, (i, buf, k, True), value, 1, mark, raw, i)
        for (i, buf, k, put), (cost, chosen) in here.items():
            n = len(observed[:k].rstrip(REPLACEMENT))
            # The run ends with a character of the reference (after a mark put
            # in, the cut last byte could be any mark's).
            nxt = fold(stretch[i]) if i < len(stretch) else ""
            if n in ends and nxt in ends[n] and not first and not put and _flushes(dec, buf):
                if least is None or cost < least:
                    least, found = cost, {}
                if cost == least:
                    # Two texts as close to the reference: recorded as such (the
                    # caller compares it with what other starts found).
                    found.setdefault(TWO_READINGS if chosen is AMBIGUOUS else chosen, set()).add((n, nxt))
            if i >= len(stretch):
                continue
            ch = stretch[i]
            if ch in OPENS and not first:
                # A note the reference prints in brackets, skipped whole (its
                # closing bracket within reach).
                close = stretch.find(OPENS[ch], i + 1, i + 2 + MAX_NOTE)
                if close > 0:
                    _step(states, dec, observed, (close + 1, buf, k, False), (cost, chosen), 1, "", b"", close + 1)
            for form, raw, change in _forms(ch, codec):
                if first:
                    if not raw:
                        continue
                    raw = raw[1:]  # the channel lost the run's first byte
                _step(states, dec, observed, (i + 1, buf, k, False), (cost, chosen), change, form, raw, i + 1)
        if not first:
            recent = [*recent[-1:], dict(here)]
        first = False
    return (least or 0), found


def _step(
    states: dict,
    dec,
    observed: str,
    key: tuple,
    value: tuple[float, str | None],
    change: float,
    form: str,
    raw: bytes,
    place: int,
) -> None:
    """The state after writing ``form`` (bytes ``raw``), if its output still
    matches what was observed; of two ways to one state the one with fewer
    changes is kept, and two different texts with as few are AMBIGUOUS."""
    _, buf, k, put = key
    out, rest = _emit(dec, buf + raw, False)
    if observed[k : k + len(out)] != out:
        return
    new = (place, rest, k + len(out), put)
    cost, chosen = value
    cost += change
    text = None if chosen is AMBIGUOUS else chosen + form
    old = states.get(new)
    if old is None or cost < old[0]:
        states[new] = (cost, text)
    elif cost == old[0] and old[1] != text:
        states[new] = (cost, AMBIGUOUS)


def _flushes(dec, buf: bytes) -> bool:
    """Whether the bytes left decode to nothing but replacement marks (the cut last character)."""
    out, _ = _emit(dec, buf, True)
    return not out.strip(REPLACEMENT)


def shifted_readings(
    text: str,
    spans: Sequence[tuple[int, int]],
    regions: Sequence[str],
    codec: str,
    before: dict[int, str],
    after: dict[int, str],
) -> dict[tuple[int, int, str], int]:
    """Readings of the document's spans ``(s, t)`` from the regions: for each
    start ``s`` and each place of a region whose previous character (folded)
    is the document's ``before[s]``, the texts ``readings`` finds, each with
    the count 0 (no copy has it as it stands).
    ``after[t]``: the document's character after ``t``, folded."""
    by_start: dict[int, list[int]] = {}
    for s, t in spans:
        by_start.setdefault(s, []).append(t)
    found: dict[tuple[int, int, str], int] = {}
    least = None
    for region in regions:
        region = region.replace("\n", "")
        folded = [fold(c) for c in region]
        for s, ts in by_start.items():
            observed = text[s : max(ts)]
            ends: dict[int, set[str]] = {}
            for t in ts:
                n = len(text[s:t].rstrip(REPLACEMENT))
                ends.setdefault(n, set()).add(after[t])
            for a in range(1, len(region)):
                if folded[a - 1] != before[s]:
                    continue
                got = readings(region, a, observed, ends, codec)
                if got is None:
                    return {}
                cost, texts = got
                if not texts or (least is not None and cost > least):
                    continue
                if least is None or cost < least:
                    least, found = cost, {}
                for reading, places in texts.items():
                    for t in ts:
                        if (len(text[s:t].rstrip(REPLACEMENT)), after[t]) in places:
                            found[(s, t, reading)] = 0  # no copy has it as it stands
    return {} if any(reading == TWO_READINGS for _, _, reading in found) else found
