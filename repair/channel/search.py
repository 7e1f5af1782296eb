"""The inverse of the channel, by search: the most probable text behind a garbled string.

Given what was observed and a hypothesis of the channel (true codec, wrong
decoder, error mode), the observed string becomes a lattice of bytes: the
bytes each character the wrong decoder wrote stands for (known), and at each
U+FFFD or ``?`` a hole of the widths that decoder replaces at once (lost
bytes).  Where the decoder dropped what it could not read (``ignore``), holes
that may be empty sit where the known bytes do not read in the true codec.

A left-to-right beam search reads the lattice as characters of the true
codec.  A character made of known bytes is the one they encode; one that
takes bytes from a hole is any character whose known bytes fit and whose lost
bytes the wrong decoder would have rejected just so (``repair.channel.tables``
answers that); the language model scores each character after the ones
before it.  The search may also keep an observed character as it is: a line
often holds clean text beside the mojibake, and leaving clean text for a
reading costs ``SWITCH`` (log10), so only a far more probable reading is taken.

Work per byte is bounded (``BEAM`` hypotheses, characters of at most four
bytes, ``SEARCH_CANDIDATES`` candidates per lost byte), so time is linear in
the length of the input.  Every lost character is then scored again with its
context on both sides, which gives its posterior among the channel's
candidates.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from repair.channel.candidates import encodings, fitting, max_length
from repair.channel.forward import Channel
from repair.channel.scorer import UNREAD_LOGP, ModelScorer, UnigramScorer
from repair.channel.tables import REPLACEMENT, decoder, private_use_pairs
from repair.charclass import BRACKET_PAIRS, OPENING_OF, is_han
from repair.plausibility import char_logp
from repair.redecode import SUSPICIOUS

BEAM = 6
# Candidates per lost character the search carries (most frequent first);
# the rescoring after the search ranks all of them.
SEARCH_CANDIDATES = 48
# A character none of whose bytes survived is a guess whatever the search
# does: it carries the few most frequent, to keep the context going.
BLIND_CANDIDATES = 8
BLIND_TRIED = 2000
# Hypotheses this far (log10) below the best at the same node are dropped: all
# of them have read the same bytes, and the worse one's way on is open to the
# better at the cost of two switches and a few characters of other context.
PRUNE = 15.0
# Log10 cost of leaving clean text for a reading (and of coming back).
SWITCH = 3.0
# Log10 cost of a byte the decoder dropped where the hypothesis says it may have.
DROP_LOGP = -2.5
# A known byte the true codec cannot read: an unread character.
ERROR_LOGP = UNREAD_LOGP - 3.0
# Log10 cost of reading a ? as a real question mark where a converter wrote ?
# for every character it could not write.
LITERAL_QUESTION_LOGP = -4.0
# Softmax temperature of the posterior over a lost character's candidates.
TEMPERATURE = 1.0
CONTEXT = 10


# The cell of an observed character the wrong decoder cannot have written.
FOREIGN = -(10**6)


@dataclass(frozen=True)
class Hole:
    start: int  # first cell
    widths: tuple[int, ...]
    optional: bool = False  # a dropped byte that may not be there
    literal: bool = False  # a ? that may be a real question mark
    # Bytes lost by a shift of the stream, not replaced by a decoder: the
    # values each byte may have (None: the decoder's rejections decide), and
    # the log10 cost of an optional hole taken (None: ``DROP_LOGP``).
    allowed: tuple[frozenset[int], ...] | None = None
    logp: float | None = None

    @property
    def end(self) -> int:
        return self.start + max(self.widths)


@dataclass
class Lattice:
    """Cells of bytes: an int for a known byte, ``-1 - hole`` for a byte of a hole."""

    cells: list[int] = field(default_factory=list)
    holes: list[Hole] = field(default_factory=list)
    # item_start[k]: the cell where observed character k begins; one more at the end.
    item_start: list[int] = field(default_factory=list)
    # Observed characters that no byte of the wrong decoder writes: kept as they are.
    foreign: set[int] = field(default_factory=set)


def build_lattice(observed: str, channel: Channel) -> Lattice:
    wrong = decoder(channel.wrong)
    lat = Lattice()
    mark = {"replace": REPLACEMENT, "?": "?", "ignore": None}[channel.errors]
    for k, ch in enumerate(observed):
        lat.item_start.append(len(lat.cells))
        if mark is not None and ch == mark:
            h = len(lat.holes)
            lat.holes.append(Hole(len(lat.cells), wrong.widths, literal=ch == "?"))
            lat.cells += [-1 - h] * max(wrong.widths)
            continue
        try:
            data = ch.encode(wrong.name)
        except UnicodeEncodeError:
            # No byte of the wrong decoder writes it: it can only stay as it is.
            lat.foreign.add(k)
            lat.cells.append(FOREIGN)
            continue
        lat.cells += list(data)
    lat.item_start.append(len(lat.cells))
    if channel.errors == "ignore":
        lat = _with_drops(observed, lat, channel)
    return lat


@lru_cache(maxsize=4)
def _pair_bytes(codec: str) -> tuple[frozenset[int], frozenset[int]]:
    """The first and the second bytes of the pairs ``codec`` reads as private
    use (``tables.private_use_pairs``): what each byte of a deleted pair may be."""
    pairs = private_use_pairs(codec)
    return frozenset(a for a, _ in pairs), frozenset(b for _, b in pairs)


# A stream read one byte late: how often an out-of-step pair is one the reader
# shows as private use (13 of 94 second bytes fall in a user-defined row).
DELETED_PAIR_PRIOR = 13 / 94
# Up to three deleted pairs in a row (the characters between them lost whole).
DELETED_WIDTHS = (2, 4, 6)
LEADS = frozenset(range(0x81, 0xFF))
TRAILS = frozenset(range(0x40, 0xFF)) - {0x7F}
HIGH_TRAILS = frozenset(range(0x80, 0xFF))


def shifted_lattice(run: str, codec: str, *, cut_end: bool) -> Lattice | None:
    """The bytes behind a run of ``codec`` read one byte late, as a lattice (None:
    the run is not made of two-byte characters of ``codec``).

    A byte lost before the run put the reader out of step: each character it
    shows is the second byte of one character and the first byte of the next.
    So the run's bytes are read from its second byte on, in step; the first
    byte is the trail of a character whose lead was lost (a hole of one byte
    before it), and the last byte a lead whose trail is lost (after it; with
    ``cut_end`` the run ended in U+FFFD, where the reader replaced it).  Out-of-step
    pairs the reader showed as private use were deleted: between any two
    characters of the run two bytes may be missing, the trail of one character
    and the lead of the next, or two or three such pairs in a row (the
    characters between them lost whole): an optional hole, each pair costed
    by how often an out-of-step pair falls in a user-defined row.
    """
    firsts, seconds = _pair_bytes(codec)
    lat = Lattice()
    lat.holes.append(Hole(0, (1,), allowed=(LEADS,)))
    lat.cells.append(-1)
    deleted = math.log10(DELETED_PAIR_PRIOR) if firsts else None
    for k, ch in enumerate(run):
        if k and deleted is not None:
            h = len(lat.holes)
            lat.holes.append(
                Hole(len(lat.cells), DELETED_WIDTHS, optional=True, allowed=(firsts, seconds) * 3, logp=deleted)
            )
            lat.cells += [-1 - h] * max(DELETED_WIDTHS)
        lat.item_start.append(len(lat.cells))
        try:
            data = ch.encode(codec)
        except UnicodeEncodeError:
            return None
        if len(data) != 2:
            return None
        lat.cells += list(data)
    # The last byte is a lead whose trail the reader paired with what followed
    # (or, before U+FFFD, replaced: a byte of 80-FE, as 40-7E shows as itself).
    h = len(lat.holes)
    lat.holes.append(Hole(len(lat.cells), (1,), allowed=(HIGH_TRAILS if cut_end else TRAILS,)))
    lat.cells.append(-1 - h)
    lat.item_start.append(len(lat.cells))
    return lat


def read_shifted(run: str, codec: str, scorer: ModelScorer | UnigramScorer, *, cut_end: bool) -> Reading | None:
    """The best reading of a run read one byte late (``shifted_lattice``): the
    model decides, jointly with the characters, where pairs were deleted."""
    lat = shifted_lattice(run, codec, cut_end=cut_end)
    if lat is None:
        return None
    reading = read(run, Channel(codec, codec, "replace"), scorer, whole=True, lattice=lat)
    return reading if reading.pieces else None


MAX_DROPS_PER_ERROR = 3


def _with_drops(observed: str, lat: Lattice, channel: Channel) -> Lattice:
    """Optional holes at the character boundaries nearest where the known bytes
    stop reading in the true codec (a dropped byte puts the reading out of step
    right there)."""
    where = [i for i, c in enumerate(lat.cells) if c >= 0]  # cell of each known byte
    known = bytes(lat.cells[i] for i in where)
    errors = [where[a] for a, _, t in decoder(channel.true).pieces(known) if t == REPLACEMENT]
    boundaries = sorted(set(lat.item_start))
    wanted: set[int] = set()
    if channel.true != "utf-8":
        # GBK and Big5 read on in step after a lost lead byte (almost every
        # pair is valid): nothing shows where it went, so a byte may have gone
        # at any boundary, and the model decides.
        wanted = set(boundaries)
    for pos in errors:
        i = bisect.bisect_right(boundaries, pos)
        for b in boundaries[max(0, i - 1) : i + MAX_DROPS_PER_ERROR - 1]:
            wanted.add(b)
    if not wanted:
        return lat
    widths = decoder(channel.wrong).widths
    out = Lattice(foreign=set(lat.foreign))
    starts = {}
    for cell_pos in range(len(lat.cells) + 1):
        if cell_pos in wanted:
            h = len(out.holes)
            out.holes.append(Hole(len(out.cells), widths, optional=True))
            out.cells += [-1 - h] * max(widths)
        starts[cell_pos] = len(out.cells)
        if cell_pos < len(lat.cells):
            c = lat.cells[cell_pos]
            out.cells.append(c)
    out.item_start = [starts[s] for s in lat.item_start]
    return out


@dataclass(frozen=True)
class Piece:
    """One character of the best reading, with where it came from."""

    text: str
    start: int  # lattice node where its bytes start
    end: int
    lossy: bool  # some of its bytes were lost
    clean: bool  # an observed character kept as it was
    candidates: tuple[str, ...] = ()


@dataclass
class Reading:
    pieces: list[Piece]
    score: float
    lattice: Lattice
    channel: Channel
    posteriors: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    whole: bool = False  # read as mojibake throughout
    # Lost characters with too little known context (``MIN_CONTEXT``).
    thin: set[int] = field(default_factory=set)

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.pieces)


class _Walker:
    """The lattice's moves: which bytes a character may take from a node."""

    def __init__(self, lat: Lattice, channel: Channel) -> None:
        self.lat = lat
        self.cells = lat.cells
        self.n = len(lat.cells)
        self.true = channel.true
        self.true_decoder = decoder(channel.true)
        self.question_mode = channel.errors == "?"
        self.wrong = decoder(channel.wrong)
        self.maxlen = max_length(channel.true)
        # How many bytes a Han character takes in the true codec.
        self.typical = 3 if channel.true == "utf-8" else 2
        self._checked: dict[tuple[int, bytes], bool] = {}
        self.hole_at = {}
        for h, hole in enumerate(lat.holes):
            for j in range(max(hole.widths)):
                self.hole_at[hole.start + j] = (h, j)

    def closure(self, p: int) -> list[int]:
        """Nodes reachable from ``p`` without reading a byte (a hole of a shorter width ended)."""
        out = [p]
        i = 0
        while i < len(out):
            q = out[i]
            i += 1
            got = self.hole_at.get(q)
            if got is None:
                continue
            h, j = got
            hole = self.lat.holes[h]
            if (j == 0 and hole.optional) or (j > 0 and j in hole.widths):
                if hole.end not in out:
                    out.append(hole.end)
        return out

    def reads(self, p: int) -> Iterator[tuple[tuple[int | None, ...], int, tuple[tuple[int, int, int], ...]]]:
        """(byte pattern, end node, lost bytes as (hole, offset, index in pattern)) of each
        character that may start at ``p``."""
        seen = set()
        stack = [(q, (), ()) for q in self.closure(p)]
        while stack:
            q, pattern, lost = stack.pop()
            if pattern:
                key = (pattern, q, lost)
                if key not in seen:
                    seen.add(key)
                    yield pattern, q, lost
            if len(pattern) == self.maxlen:
                continue
            if q >= self.n:
                continue
            c = self.cells[q]
            if c == FOREIGN:
                continue
            nexts = []
            if c >= 0:
                nexts.append((q + 1, (*pattern, c), lost))
            else:
                h, j = self.hole_at[q]
                nexts.append((q + 1, (*pattern, None), (*lost, (h, j, len(pattern)))))
                hole = self.lat.holes[h]
                if hole.literal and j == 0:
                    nexts.append((hole.end, (*pattern, 0x3F), lost))
            for r, pat, ls in nexts:
                for s in self.closure(r) if r < self.n else [r]:
                    stack.append((s, pat, ls))

    def rejected(self, lost: tuple[tuple[int, int, int], ...], data: bytes) -> bool:
        """Whether the wrong decoder would have replaced (or dropped) exactly these
        lost bytes: each hole this character completes must be one invalid piece
        of its width, given the known bytes after it."""
        by_hole: dict[int, list[tuple[int, int]]] = {}
        for h, j, i in lost:
            by_hole.setdefault(h, []).append((j, i))
        last = len(data) - 1
        for h, items in by_hole.items():
            if items[0][0] != 0:
                continue  # the hole began in the character before: its bytes are not all here
            width = len(items)
            hole = self.lat.holes[h]
            if items[-1][1] == last and width < max(hole.widths):
                continue  # the hole may go on into the next character
            if width not in hole.widths:
                return False
            key = (h, bytes(data[i] for _, i in items))
            ok = self._checked.get(key)
            if ok is None:
                got_len, got = self.wrong.first(key[1] + self._known_after(hole.end))
                ok = self._checked[key] = got == REPLACEMENT and got_len == width
            if not ok:
                return False
        return True

    def follow(self, h: int) -> bytes:
        """The known bytes right after hole ``h`` that what the wrong decoder rejected there depends on."""
        return self.wrong.lookahead(self._known_after(self.lat.holes[h].end))

    def fixed(self, p: int) -> bool:
        """Whether known bytes alone, no hole within reach, fix what starts at ``p``."""
        window = self.cells[p : p + self.maxlen]
        return (
            bool(window)
            and all(c >= 0 for c in window)
            and not any(q in self.hole_at for q in range(p, p + len(window) + 1))
        )

    def decode_at(self, p: int) -> tuple[int, str] | None:
        """(end node, character) the true decoder reads at a fixed node ``p`` (None: none)."""
        length, ch = self.true_decoder.first(bytes(self.cells[p : p + self.maxlen]))
        return None if ch == REPLACEMENT else (p + length, ch)

    def known_char(self, p: int) -> tuple[int, str] | None:
        """(end node, character) where known bytes alone fix the one character
        that starts at ``p`` (None: the search decides)."""
        return self.decode_at(p) if self.fixed(p) else None

    def _known_after(self, q: int) -> bytes:
        out = []
        while q < self.n and len(out) < 3 and self.cells[q] >= 0:
            out.append(self.cells[q])
            q += 1
        return bytes(out)


# Histories whose model answers ``read`` keeps at once.
MAX_MEMO = 20_000


def read(
    observed: str,
    channel: Channel,
    scorer: ModelScorer | UnigramScorer,
    *,
    whole: bool = False,
    lattice: Lattice | None = None,
) -> Reading:
    """The best reading of ``observed`` under ``channel``.

    ``whole``: the observed string is mojibake throughout (a line decided as
    such); otherwise each observed character may also stay as it is.
    ``lattice``: the bytes behind ``observed`` where they are not simply what
    the wrong decoder read (a shifted run, ``shifted_lattice``).
    """
    lat = lattice if lattice is not None else build_lattice(observed, channel)
    walker = _Walker(lat, channel)
    n = len(lat.cells)
    starts = {s: k for k, s in enumerate(lat.item_start[:-1])}
    # beams[p]: (mode, history) -> (score, lm state, back pointer)
    # (Only nodes some hypothesis reached have one, and a node's goes once it is read.)
    beams: dict[int, dict] = {0: {("c", ""): (0.0, scorer.start(), None)}}
    # The model's answer for a character after a history, asked once.  (The
    # history names the state: the model sees at most order-1 tokens back.)
    steps: dict[str, dict[str, tuple[float, object, str]]] = {}
    order = max(1, scorer.order - 1)
    for p in range(n + 1):
        # Memory stays bounded on a long line: a node is left behind once read
        # (its hypotheses live on in their successors' back pointers), and the
        # model's answers are kept for recent histories only.
        beam = beams.pop(p, None) if p < n else beams.get(p)
        if not beam:
            continue
        if len(steps) > MAX_MEMO:
            steps.clear()
        beam = _pruned(beam)
        if p == n:
            break
        if whole and len(beam) == 1 and not any(beams.get(q) for q in range(p + 1, min(n, p + walker.maxlen) + 1)):
            # One hypothesis left, reading mojibake throughout: where the
            # known bytes fix the characters there is nothing to choose, so
            # they are read straight on to the next hole (no other hypothesis
            # can be waiting on the nodes skipped).
            ((key, (score, state, back)),) = beam.items()
            hist, q = key[1], p
            while q < n and (got := walker.known_char(q)) is not None:
                end, ch = got
                lp, state, tok = scorer.step(state, ch)
                score += lp
                hist = _hist(hist, tok, order)
                back = (back, ch, q, end, False, False, ())
                q = end
            if q > p:
                _push(beams.setdefault(q, {}), "g", hist, score, state, back)
                continue
        k = starts.get(p)
        options = None if k is not None and k in lat.foreign else _options(walker, p)
        for (mode, hist), (score, state, back) in list(beam.items()):
            # Keep the observed character as it is (a line read whole keeps
            # one only where nothing else reads, at the cost of an unread one).
            if k is not None:
                ch = observed[k]
                lp, st, tok = scorer.step(state, ch)
                if whole:
                    lp = min(lp, UNREAD_LOGP) + ERROR_LOGP
                nxt = lat.item_start[k + 1]
                cost = lp - (SWITCH if mode == "g" and not whole else 0.0)
                _push(
                    beams.setdefault(nxt, {}),
                    "c",
                    _hist(hist, tok, order),
                    score + cost,
                    st,
                    (back, ch, p, nxt, False, True, ()),
                )
            if options is None:
                continue
            # Read a character of the true codec.
            enter = SWITCH if mode == "c" and not whole else 0.0
            memo = steps.get(hist)
            if memo is None:
                memo = steps[hist] = {}
            for end, lossy, cost, cands, listed, paired in options:
                base = score - enter + cost
                if paired:
                    cands = _paired(walker.true, back[1] if back else "", listed)
                for c in cands:
                    got = memo.get(c)
                    if got is None:
                        got = memo[c] = scorer.step(state, c)
                    lp, st, tok = got
                    _push(
                        beams.setdefault(end, {}),
                        "g",
                        _hist(hist, tok, order),
                        base + lp,
                        st,
                        (back, c, p, end, lossy, False, listed),
                    )
            # A byte the true codec cannot read at all: an unread character.
            if (mode == "g" or whole) and lat.cells[p] != FOREIGN:
                _push(
                    beams.setdefault(p + 1, {}),
                    "g",
                    "",
                    score + ERROR_LOGP,
                    scorer.start(),
                    (back, REPLACEMENT, p, p + 1, False, False, ()),
                )
    final = beams.get(n)
    if not final:
        return Reading([], -math.inf, lat, channel)
    (mode, _), (score, _, back) = max(final.items(), key=lambda kv: kv[1][0])
    pieces = []
    while back is not None:
        back, ch, a, b, lossy, clean, cands = back
        pieces.append(Piece(ch, a, b, lossy, clean, cands))
    pieces.reverse()
    reading = Reading(pieces, score, lat, channel)
    _posteriors(reading, scorer)
    return reading


def _sync(cell: int) -> bool:
    """A known byte that starts a UTF-8 character (ASCII or a lead byte): no
    character of the true text can hold it anywhere but at its start."""
    return cell >= 0 and not 0x80 <= cell <= 0xBF


def read_in_step(observed: str, channel: Channel, scorer: ModelScorer | UnigramScorer) -> Reading | None:
    """The reading of every byte of UTF-8 mojibake, slot by slot (None: the
    lattice does not split so, and the general search decides).

    UTF-8 falls back in step at every lead byte: each known ASCII or lead byte
    starts a character, so the lattice splits at them into slots of one
    character each.  A slot of known bytes is the character they encode; a slot
    with lost bytes has the channel's candidates.  The beam then only carries
    the choices at lost characters, and a stretch of known slots is decoded at
    once: this is the general search's answer when the observed string is
    mojibake throughout (``read(..., whole=True)``), at a fraction of its cost.
    A slot no single character reads is left unread (U+FFFD) for the full
    search to read again; it gives up (None) where an observed character no
    byte writes, or known bytes that no character reads, rule the split out.
    """
    if channel.true != "utf-8" or channel.errors == "ignore":
        return None
    lat = build_lattice(observed, channel)
    if lat.foreign:
        return None
    cells = lat.cells
    n = len(cells)
    walker = _Walker(lat, channel)
    order = max(1, scorer.order - 1)
    # Slot boundaries: every known ASCII or lead byte, and the end.
    bounds = [p for p in range(n) if _sync(cells[p])] + [n]
    if not bounds or bounds[0] != 0:
        return None
    beam: dict[str, tuple[float, object, object]] = {"": (0.0, scorer.start(), None)}
    k = 0
    while k < len(bounds) - 1:
        p = bounds[k]
        # A stretch of slots of known bytes only: decoded at once.
        j = k
        while j < len(bounds) - 1 and all(c >= 0 for c in cells[bounds[j] : bounds[j + 1]]):
            j += 1
        if j > k:
            q = bounds[j]
            try:
                text = bytes(cells[p:q]).decode("utf-8")
            except UnicodeDecodeError:
                return None
            if len(text) != j - k:
                return None
            for i, ch in enumerate(text):
                a, b = bounds[k + i], bounds[k + i + 1]
                beam = _advance(beam, scorer, order, ((ch, 0.0, (), False),), (a, b))
            k = j
            continue
        q = bounds[k + 1]
        options = [o for o in _options(walker, p) if o[0] == q and o[3]]
        # A slot whose bytes fit no character is an unread one (a stretch the
        # full search reads again, ``_reread_around``).
        choices = tuple((c, cost, listed, lossy) for _, lossy, cost, cands, listed, _ in options for c in cands)
        choices = choices or ((REPLACEMENT, 0.0, (), False),)
        beam = _advance(beam, scorer, order, choices, (p, q))
        k += 1
    score, _, back = max(beam.values(), key=lambda v: v[0])
    pieces = []
    while back is not None:
        back, piece = back
        pieces.append(piece)
    pieces.reverse()
    reading = Reading(pieces, score, lat, channel)
    _posteriors(reading, scorer)
    return reading


def _advance(beam: dict, scorer, order: int, choices, where: tuple[int, int]) -> dict:
    """The beam after one slot: each hypothesis extended by each choice
    (character, channel cost, candidates listed, lossy), merged by the model's history."""
    a, b = where
    out: dict[str, tuple[float, object, object]] = {}
    for hist, (score, state, back) in beam.items():
        for ch, cost, listed, lossy in choices:
            lp, st, tok = scorer.step(state, ch)
            key = _hist(hist, tok, order)
            total = score + cost + lp
            old = out.get(key)
            if old is None or total > old[0]:
                out[key] = (total, st, (back, Piece(ch, a, b, lossy, False, listed)))
    return _pruned(out)


def _pruned(beam: dict) -> dict:
    """The ``BEAM`` best hypotheses, none more than ``PRUNE`` below the best."""
    if len(beam) <= 1:
        return beam
    kept = sorted(beam.items(), key=lambda kv: -kv[1][0])[:BEAM]
    floor = kept[0][1][0] - PRUNE
    return {key: v for key, v in kept if v[0] >= floor}


def read_line_first_whole(
    observed: str, channel: Channel, scorer: ModelScorer | UnigramScorer, *, whole_only: bool = False
) -> Reading | None:
    """The best reading, trying first that the string is UTF-8 mojibake throughout.

    Most garbling is of a whole line or field, and the search that may keep
    any observed character as it is costs several times the one that reads
    every byte.  When that one reads every byte (no observed character kept,
    none left unread) it is the answer; a character it reads back as itself
    (an ASCII letter, a space) counts as kept, so a line's edits stay where the
    text changed.  Otherwise the full search decides (or, ``whole_only``, the
    answer is None: another channel already read every byte).
    """
    if channel.errors == "ignore" or channel.true != "utf-8":
        # Dropped bytes leave no mark, and GBK or Big5 bytes read on out of
        # step after a lost one: a reading of every byte may be wrong and still
        # read on, so the full search decides.  UTF-8 falls back in step at
        # every character.
        return None if whole_only else read(observed, channel, scorer)
    reading = read_in_step(observed, channel, scorer) or read(observed, channel, scorer, whole=True)
    # Bytes read out of step read on as rare characters: only a reading that
    # looks like text (a rare character now and then) is taken without the full search.
    rare = sum(1 for p in reading.pieces if not p.lossy and _improbable(p.text))
    if rare > len(reading.pieces) * MAX_RARE_SHARE:
        return None if whole_only else read(observed, channel, scorer)
    bad = [i for i, p in enumerate(reading.pieces) if p.clean or p.text == REPLACEMENT]
    if bad:
        if whole_only:
            return None
        return _reread_around(observed, reading, bad, scorer) or read(observed, channel, scorer)
    item_of = {s: k for k, s in enumerate(reading.lattice.item_start)}
    for i, p in enumerate(reading.pieces):
        k = item_of.get(p.start)
        if not p.lossy and k is not None and item_of.get(p.end) == k + 1 and observed[k] == p.text:
            reading.pieces[i] = Piece(p.text, p.start, p.end, False, True)
    reading.whole = True
    return reading


# Pieces of a long line's reading of every byte re-read on each side of a
# character it could not read, by the search that may keep observed text.
REREAD_MARGIN = 24


def _reread_around(observed: str, reading: Reading, bad: list[int], scorer) -> Reading | None:
    """A reading of every byte with the stretches around its unread characters
    read again by the full search (None: those stretches are most of the line,
    and the full search reads it whole).

    A long line of mojibake is decided once, and only where that reading stops
    (a character no candidate fits, an observed character kept) is the line
    searched again, a stretch at a time: one odd character in a megabyte
    costs a few dozen characters of search, not a second pass over the line.
    The stretches are cut where the reading and the observed text both start
    a character at a known lead byte, so every path of the search passes there.
    """
    lat = reading.lattice
    pieces = reading.pieces
    item_of = {s: k for k, s in enumerate(lat.item_start)}
    # The line's two ends are cuts too: every path starts and ends there.
    inner = [i for i, p in enumerate(pieces) if i and p.start in item_of and _sync(lat.cells[p.start])]
    cuts = [0, *inner, len(pieces)]
    spans: list[list[int]] = []
    for b in bad:
        lo = cuts[max(0, bisect.bisect_right(cuts, b - REREAD_MARGIN) - 1)]
        hi = cuts[min(len(cuts) - 1, bisect.bisect_left(cuts, b + 1 + REREAD_MARGIN))]
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    if sum(hi - lo for lo, hi in spans) * 2 > len(pieces):
        return None
    out: list[Piece] = []
    posteriors: dict[int, list[tuple[str, float]]] = {}
    thin: set[int] = set()

    def keep(source: Reading, i: int, piece: Piece) -> None:
        if i in source.posteriors:
            posteriors[len(out)] = source.posteriors[i]
        if i in source.thin:
            thin.add(len(out))
        out.append(piece)

    done = 0
    for lo, hi in spans:
        for i in range(done, lo):
            keep(reading, i, pieces[i])
        k0 = item_of[pieces[lo].start]
        k1 = item_of[pieces[hi].start] if hi < len(pieces) else len(observed)
        sub = read(observed[k0:k1], reading.channel, scorer)
        if not sub.pieces:
            return None
        shift = lat.item_start[k0]
        for i, p in enumerate(sub.pieces):
            keep(sub, i, Piece(p.text, p.start + shift, p.end + shift, p.lossy, p.clean, p.candidates))
        done = hi
    for i in range(done, len(pieces)):
        keep(reading, i, pieces[i])
    # Read whole but for a few stretches: another channel is worth trying only whole.
    return Reading(out, reading.score, lat, reading.channel, posteriors, whole=True, thin=thin)


# Share of improbable characters a reading of every byte may hold and be taken as it is.
MAX_RARE_SHARE = 1 / 40


def _improbable(ch: str) -> bool:
    return char_logp(ch) <= SUSPICIOUS


@lru_cache(maxsize=1 << 14)
def _one_byte_losses(true: str, wrong: str, pattern: tuple[int | None, ...], follow: bytes | None) -> tuple[str, ...]:
    """The characters of ``true`` that fit ``pattern`` (None: a byte ``wrong``
    replaced alone) before the known bytes ``follow`` (None: the character's
    last byte is known).  It depends on the bytes, not on where they stand, so
    the same pattern before the same bytes is filtered once.

    A lost byte followed by another byte of the same character was rejected
    given that byte (E5 9B in Big5 is no pair, EF BC is): its mask depends on
    the candidate's own next byte; the last one's on the bytes after the hole.
    """
    dec = decoder(wrong)
    last = len(pattern) - 1
    mask = dec.rejected_ahead(follow) if follow is not None else None
    inner = [i for i, b in enumerate(pattern[:last]) if b is None]
    return _listed(
        true,
        pattern,
        lambda data: (
            (mask is None or mask[data[last]]) and all(dec.rejected_before(data[i + 1])[data[i]] for i in inner)
        ),
    )


# Candidates of a lost character kept for its ranking after the search.
LISTED = 200


@lru_cache(maxsize=1 << 14)
def _allowed_fits(
    true: str, pattern: tuple[int | None, ...], constraints: tuple[tuple[int, frozenset[int]], ...]
) -> tuple[str, ...]:
    """The characters of ``true`` that fit ``pattern`` and whose bytes at the
    constrained positions are among the values a shift allows there (most
    frequent first; with no byte known, among the most frequent few thousand)."""
    return _listed(true, pattern, lambda data: all(data[i] in allowed for i, allowed in constraints))


def _listed(true: str, pattern: tuple[int | None, ...], keep) -> tuple[str, ...]:
    """The first ``LISTED`` characters (most frequent first) that fit ``pattern``
    and whose bytes ``keep`` accepts; with no byte known, among the most
    frequent ``BLIND_TRIED``."""
    enc = encodings(true)
    cands = fitting(true, pattern)
    if all(b is None for b in pattern):
        cands = cands[:BLIND_TRIED]
    out = []
    for c in cands:
        if keep(enc[c]):
            out.append(c)
            if len(out) >= LISTED:
                break
    return tuple(out)


def _options(walker: _Walker, p: int) -> list[tuple[int, bool, float, tuple[str, ...], tuple[str, ...], bool]]:
    """The characters that may start at node ``p``: (end node, lossy, channel
    cost, candidates searched, candidates listed, paired with the character
    before).  Computed once per node, whatever the hypotheses that reach it."""
    out = []
    holes = walker.lat.holes
    if walker.fixed(p):
        # Known bytes only, no hole within reach: the true decoder reads one
        # character here, or none (the search then writes an unread one).
        got = walker.decode_at(p)
        return [] if got is None else [(got[0], False, 0, (got[1],), (), False)]
    for pattern, end, lost in walker.reads(p):
        cands = fitting(walker.true, pattern)
        drops = 0
        if lost and any(holes[h].allowed is not None for h, _, _ in lost):
            # Bytes a shift lost: any character whose bytes there are values the shift allows.
            constraints = tuple((i, holes[h].allowed[j]) for h, j, i in lost if holes[h].allowed is not None)
            cands = _allowed_fits(walker.true, pattern, constraints)
            # Each deleted pair taken (an optional hole's bytes two at a time) costs its prior.
            cost = sum(
                DROP_LOGP if holes[h].logp is None else holes[h].logp
                for h, j, _ in lost
                if j % 2 == 0 and holes[h].optional
            )
            # A character that starts with the second byte of a deleted pair:
            # the pair's first byte is the last byte of the character before,
            # and the two together must be a pair the reader showed as private
            # use (checked per hypothesis, where that character is known).
            h0, j0, i0 = lost[0]
            paired = i0 == 0 and j0 % 2 == 1 and holes[h0].allowed is not None
            if cands:
                # (A character lost whole between two deleted pairs carries the few most frequent.)
                searched = SEARCH_CANDIDATES if any(b is not None for b in pattern) else BLIND_CANDIDATES
                out.append((end, True, cost, cands[:searched], cands, paired))
            continue
        if lost:
            enc = encodings(walker.true)
            if all(max(holes[h].widths) == 1 for h, _, _ in lost):
                # Lost bytes of one-byte holes: a table lookup per byte, over
                # every character that fits the known bytes.
                last = len(pattern) - 1
                ends = [h for h, _, i in lost if i == last]
                follow = walker.follow(ends[0]) if ends else None
                cands = _one_byte_losses(walker.true, walker.wrong.name, pattern, follow)
            else:
                # Holes of several widths (a UTF-8 decoder's): the most frequent are checked.
                known = sum(b is not None for b in pattern)
                tried = LISTED if len(pattern) - known <= 1 else SEARCH_CANDIDATES if known else BLIND_CANDIDATES * 2
                cands = tuple(c for c in cands[:tried] if walker.rejected(lost, enc[c]))
            drops = sum(1 for h, j, _ in lost if j == 0 and holes[h].optional)
            if not cands and len(pattern) == walker.typical:
                # Bytes lost so that no character fits: one unread character.
                out.append((end, False, drops * DROP_LOGP, (REPLACEMENT,), (), False))
                continue
        # A ? taken for a real question mark: in a line a converter filled with
        # ? for what it could not write, it rarely is one (in '?' mode every
        # observed ? is a hole, so a 3F byte in a pattern is that choice).
        cost = drops * DROP_LOGP + (pattern.count(0x3F) * LITERAL_QUESTION_LOGP if walker.question_mode else 0.0)
        if cands:
            searched = SEARCH_CANDIDATES if any(b is not None for b in pattern) else BLIND_CANDIDATES
            out.append((end, bool(lost), cost, cands[:searched], cands if lost else (), False))
    return out


@lru_cache(maxsize=1 << 14)
def _paired(codec: str, before: str, listed: tuple[str, ...]) -> tuple[str, ...]:
    """The candidates whose first byte makes, with the last byte of ``before``,
    a pair ``codec`` reads as private use (a deleted pair)."""
    enc = encodings(codec)
    data = enc.get(before)
    if data is None:
        return ()
    pairs = private_use_pairs(codec)
    return tuple(c for c in listed if (data[-1], enc[c][0]) in pairs)[:SEARCH_CANDIDATES]


def _hist(hist: str, tok: str, order: int) -> str:
    return (hist + tok)[-order:] if tok else hist


def _push(beam: dict, mode: str, hist: str, score: float, state, back) -> None:
    key = (mode, hist)
    old = beam.get(key)
    if old is None or score > old[0]:
        beam[key] = (score, state, back)


def text_score(observed: str, scorer) -> float:
    """Log10 probability of a text as it stands, left to right."""
    state = scorer.start()
    total = 0.0
    for ch in observed:
        lp, state, _ = scorer.step(state, ch)
        total += lp
    return total


def _posteriors(reading: Reading, scorer) -> None:
    """Each lost character scored again among its candidates, with both sides of its context."""
    pieces = reading.pieces
    # The brackets left open before each piece, over the whole line (an opening
    # bracket may stand far before the lost closing one), with the choices made.
    opened: list[str] = []
    for i, piece in enumerate(pieces):
        if not piece.lossy:
            _track_brackets(opened, piece.text)
            continue
        # The context holds the search's guesses beside (the joint best), but
        # how much of it the bytes fixed decides which reliability row judges
        # the posterior: two guesses side by side vouch for each other (謝謝
        # read as 謐謐, each 謐 sure of itself because of the other).
        reach = max(1, scorer.order - 1)
        known = _known_context(pieces, i, -1, reach) + _known_context(pieces, i, 1, reach)
        left = "".join(p.text for p in pieces[max(0, i - CONTEXT) : i])
        right = "".join(p.text for p in pieces[i + 1 : i + 1 + CONTEXT])
        cands = piece.candidates
        # A guess right after is decided later: a mark is not weighed by it.
        right_known = not (i + 1 < len(pieces) and pieces[i + 1].lossy)
        scores = [
            s + _bracket_cost(c, opened, right)
            for s, c in zip(scorer.rescore(left, cands, right, right_known=right_known), cands, strict=True)
        ]
        top = max(scores)
        weights = [10 ** ((s - top) / TEMPERATURE) for s in scores]
        z = sum(weights)
        ranked = sorted(zip(cands, (w / z for w in weights), strict=True), key=lambda cw: -cw[1])
        reading.posteriors[i] = ranked
        if is_han(ranked[0][0]) and sum(map(is_han, known)) < MIN_CONTEXT:
            # Too little known context for the model to judge by: calibrated apart.
            reading.thin.add(i)
        if ranked[0][0] != piece.text:
            pieces[i] = Piece(ranked[0][0], piece.start, piece.end, True, False, cands)
        _track_brackets(opened, pieces[i].text)


UNPAIRED_LOGP = -3.0
# Known Han characters within the model's reach (both sides together) below
# which a lost character's posterior is judged by a reliability row of its own.
MIN_CONTEXT = 2


def _known_context(pieces: list[Piece], i: int, step: int, limit: int) -> str:
    """Up to ``limit`` characters beside piece ``i`` (before it for step -1),
    stopping at the first lost or unread one."""
    out = []
    j = i + step
    while 0 <= j < len(pieces) and len(out) < limit and not pieces[j].lossy and pieces[j].text != REPLACEMENT:
        out.append(pieces[j].text)
        j += step
    return "".join(reversed(out) if step < 0 else out)


def _bracket_cost(ch: str, opened: list[str], right: str) -> float:
    """Brackets come in pairs and nest: a lost opening bracket with no closing
    one after it, or a closing one that does not close the innermost bracket
    left open before it (」 inside 『…), is unlikely whatever the model says."""
    closing = BRACKET_PAIRS.get(ch)
    if closing is not None:
        return 0.0 if closing in right else UNPAIRED_LOGP
    opening = OPENING_OF.get(ch)
    if opening is not None:
        return 0.0 if opened and opened[-1] == opening else UNPAIRED_LOGP
    return 0.0


def _track_brackets(stack: list[str], text: str) -> None:
    """Update the brackets left open (outermost first) by the text after them.

    >>> s = []; _track_brackets(s, "曰：「吾聞『君子"); s
    ['「', '『']
    >>> _track_brackets(s, "』"); s
    ['「']
    """
    for c in text:
        if c in BRACKET_PAIRS:
            stack.append(c)
        elif c in OPENING_OF and stack and stack[-1] == OPENING_OF[c]:
            stack.pop()
