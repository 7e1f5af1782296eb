"""A byte-shifted run read whole from another copy of the passage, checked byte for byte.

A byte-shifted run loses what no model can give back: the character cut at
each end keeps one byte, and a character pair whose middle bytes read as a
private-use code keeps two of four (``repair.fill.byte_holes``).  Another copy
of the passage (a reference text) has the clean stretch between the same two
contexts, and the channel is exact: encode the stretch, drop its first byte,
read it out of phase, delete the private-use codes.  A stretch of another copy
that gives back the damaged run exactly, byte for byte, is the run's text;
a copy that reads otherwise there (another edition, a variant) does not pass
the check and decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from repair.channel.tables import decoder
from repair.fill.run_forms import shifted_readings
from repair.fill.witness import fold

# Clean characters on each side of the run that anchor it in the other copy
# (punctuation included, line breaks left out, both scripts folded together).
ANCHOR = 6
MIN_ANCHOR = 4
# How far each end of the detected run may move, and the shortest run read so
# (seed 0, 200 documents: runs read whole 78 with 3, 82 with 8; every one exact).
SLACK = 8
MIN_RUN = 4
# Characters shifted, per character of an aligned region, before the search
# of a region gives up (``_aligned_readings``): keeps it linear in the run.
SHIFT_BUDGET = 64


def shifted(clean: str, codec: str) -> str | None:
    """What ``clean`` looks like after the channel: its bytes in ``codec`` with
    the first one lost, read out of phase, private-use codes deleted.

    之 乎 者 也 are D6AE BAF5 D5DF D2B2 in GBK; with D6 lost, AEBA reads as a
    private-use code (deleted), F5D5 as 跽, DFD2 as 咭, and B2 alone as U+FFFD:

    >>> shifted("之乎者也", "gb18030")
    '跽咭\ufffd'

    """
    try:
        raw = clean.encode(codec)[1:]
    except UnicodeEncodeError:
        return None
    read = decoder(codec).decode(raw, "replace")  # the channel forward: first byte lost, read out of phase
    return "".join(c for c in read if not 0xE000 <= ord(c) <= 0xF8FF)


def _before(text: str, start: int) -> str:
    """Up to ANCHOR characters before ``start``, across line breaks (left out)."""
    return text[max(0, start - 4 * ANCHOR) : start].replace("\n", "")[-ANCHOR:]


def _after(text: str, end: int) -> str:
    return text[end : end + 4 * ANCHOR].replace("\n", "")[:ANCHOR]


@lru_cache(maxsize=16)
def _flat(copy: str, folded: str) -> tuple[str, str, frozenset[int]]:
    """A copy without its line breaks (another copy breaks its lines
    elsewhere), folded alike, and where its lines ended."""
    if len(copy) != len(folded):
        copy = folded  # a fold that changed lengths: read the folded copy
    ends, pos = set(), 0
    for line in copy.split("\n"):
        pos += len(line)
        ends.add(pos)
    return copy.replace("\n", ""), folded.replace("\n", ""), frozenset(ends)


def run_reading(
    text: str,
    start: int,
    end: int,
    codec: str,
    copies: Sequence[tuple[str, str]],
    simplified: bool,
    *,
    lo: int = 0,
    hi: int | None = None,
    regions: Sequence[str] = (),
) -> tuple[int, int, str, int] | None:
    """Where the run really is and what it reads as: the one span near
    ``text[start:end]`` (its ends moved by up to ``SLACK`` characters, within
    ``lo``..``hi``) and the one stretch of the other copies that the channel
    turns into it, written in the document's script, with how many places of
    the copies read so; None when nothing passes or two readings do.

    The detector's ends can be off by a character or two: the first garbled
    character may read as a common one (下), or a clean character before the
    run may re-read into debris.  Every moved span is checked the same way.

    ``regions``: stretches of other copies that an alignment put where the
    run is (``repair.fill.collation.run_regions``), for a copy whose text
    around the run differs (another edition, an inserted note): any stretch of
    them the channel turns into the run is a reading, as any anchored one is.

    >>> clean = "子曰学而时习之不亦说乎有朋自远方来不亦乐乎"
    >>> doc = "子曰学而时" + shifted("习之不亦说乎有朋", "gb18030") + "自远方来不亦乐乎"
    >>> doc[5:-8]
    '爸灰嗨岛跤信\ufffd'
    >>> run_reading(doc, 5, len(doc) - 8, "gb18030", [(clean, fold(clean))], True)
    (5, 12, '习之不亦说乎有朋', 1)
    """
    hi = len(text) if hi is None else hi
    w0, w1 = max(lo, start - SLACK), min(hi, end + SLACK)
    spans = [
        (s, t)
        for s in range(w0, start + SLACK + 1)
        for t in range(end - SLACK, w1 + 1)
        if t - s >= MIN_RUN and "\n" not in text[s:t]
    ]
    found: dict[tuple[int, int, str], int] = {}
    for s, t in spans:
        for reading, count in _readings(text, s, t, codec, copies, simplified).items():
            found[(s, t, reading)] = count
    if not found and regions:
        # No copy holds the run between the same contexts: where the alignment
        # puts it, a stretch the channel turns into the run is its reading.
        # Anchored by the characters right beside the run, as the copy has them
        # (the lost lead byte and the cut last character hide a character at
        # each end: without them, 为余夫… and 余夫…军 read the same).
        beside = {s: fold(_before(text, s)[-1:]) for s, _ in spans}
        beside.update({-t - 1: fold(_after(text, t)[:1]) for _, t in spans})
        lefts = {beside[s] for s, _ in spans} - {""}
        rights = {beside[-t - 1] for _, t in spans} - {""}
        aligned = _aligned_readings(regions, codec, simplified, 2 * (w1 - w0) + 2, lefts, rights)
        for s, t in spans:
            left, right = beside[s], beside[-t - 1]
            for before, reading, after in aligned.get(text[s:t].rstrip("\ufffd"), ()):
                if left and right and (before, after) == (left, right):
                    found[(s, t, reading)] = 1
    if not found and regions:
        # Nor as the copy writes it: another edition's forms, marks and notes,
        # varied within what the bytes allow (``repair.fill.run_forms``).
        anchored = [(s, t) for s, t in spans if beside[s] and beside[-t - 1]]
        found = shifted_readings(text, anchored, regions, codec, beside, {t: beside[-t - 1] for _, t in anchored})
    # Spans that differ only by characters read the same either way (a Big5
    # reader back in step after an ASCII-range byte) are one reading: the
    # narrowest is kept.  Two different texts are no reading at all.
    if len({text[w0:s] + reading + text[t:w1] for s, t, reading in found}) != 1:
        return None
    (s, t, reading), count = min(found.items(), key=lambda kv: kv[0][1] - kv[0][0])
    return s, t, reading, count


def attested(clean: str, codec: str) -> bool:
    """Whether every character of ``clean`` shows in the run the channel makes of it (``hidden``).

    >>> attested("子曰学而时习之", "gb18030"), attested("之乎者也", "gb18030")
    (True, False)
    """
    return not hidden(clean, codec)


def hidden(clean: str, codec: str) -> list[int]:
    """The characters of ``clean`` (their indices) that leave no trace in the
    run the channel makes of it.

    The channel deletes the private-use codes the out-of-phase pairs read as,
    so a character whose bytes go only into such pairs (a ， after a character
    whose last byte is AA-AF or F8-FE in GBK, one Han character in fifty or
    so) shows nowhere: a copy that has it and a document that lacks it, or
    has another there, give the same run.  Only a copy of the same edition
    says what the document had.

    >>> hidden("之乎者也", "gb18030")  # 之 keeps only AE, and AE BA is a private-use code
    [0]
    """
    try:
        sizes = [len(ch.encode(codec)) for ch in clean]
    except UnicodeEncodeError:
        return list(range(len(clean)))
    owner = [n for n, size in enumerate(sizes) for _ in range(size)][1:]  # the first byte is lost
    shown = [False] * len(clean)
    pieces = decoder(codec).pieces(clean.encode(codec)[1:])
    # The trailing replacement marks are not compared (the cut last byte).
    last = len(pieces)
    while last and pieces[last - 1][2] == "\ufffd":
        last -= 1
    for a, b, t in pieces[:last]:
        if not 0xE000 <= ord(t[0]) <= 0xF8FF:
            for i in range(a, b):
                shown[owner[i]] = True
    return [n for n, seen in enumerate(shown) if not seen]


def _aligned_readings(
    regions: Sequence[str],
    codec: str,
    simplified: bool,
    longest: int,
    lefts: set[str],
    rights: set[str],
) -> dict[str, set[tuple[str, str, str]]]:
    """What the channel makes of every stretch of the regions (of ``MIN_RUN``
    to ``longest`` characters) that has one of ``lefts`` before it and one of
    ``rights`` after it (folded: the characters beside the run as the
    document has them), mapped back to the stretches with those characters:
    each stretch is shifted once, whatever span of the document it is checked
    against.

    Only stretches between such characters are shifted, and no more than
    ``SHIFT_BUDGET`` characters' worth per region character: a region of
    common characters (之 everywhere) would otherwise cost the cube of its
    length.  Past the budget nothing is read (a reading found in part of the
    stretches could be one of two).
    """
    out: dict[str, set[tuple[str, str, str]]] = {}
    for region in regions:
        region = region.replace("\n", "")
        folded = [fold(c) for c in region]
        budget = SHIFT_BUDGET * len(region)
        ends = [k for k in range(len(folded)) if folded[k] in rights]
        for a in range(1, len(region)):
            if folded[a - 1] not in lefts:
                continue
            for k in ends:
                n = k - a
                if n < MIN_RUN:
                    continue
                if n > min(longest, len(region) - a - 1):
                    break
                budget -= n
                if budget < 0:
                    return {}
                written = fold(region[a:k]) if simplified else region[a:k]
                got = shifted(written, codec)
                if got:
                    out.setdefault(got.rstrip("\ufffd"), set()).add((folded[a - 1], written, folded[k]))
    return out


def _readings(
    text: str, start: int, end: int, codec: str, copies: Sequence[tuple[str, str]], simplified: bool
) -> dict[str, int]:
    """Every stretch of the copies, anchored by the text on both sides of the
    run (or, at the end of the document, by the end of a line of the copy),
    that the channel turns into ``text[start:end]``, with how often each occurs."""
    damaged = text[start:end].rstrip("\ufffd")
    left, right = _before(text, start), _after(text, end)
    found: dict[str, int] = {}
    if len(left) < MIN_ANCHOR or not damaged:
        return found
    folded_left, folded_right = fold(left), fold(right)
    # Every deleted pair glues two characters into one: the clean stretch is
    # at least as long as the damaged run and at most twice as long (plus the
    # character cut at the end).
    shortest, longest = len(damaged), 2 * len(damaged) + 2
    for raw, raw_folded in copies:
        copy, folded, ends = _flat(raw, raw_folded)
        p = folded.find(folded_left)
        while p >= 0:
            a = p + len(folded_left)
            for n in range(shortest, min(longest, len(copy) - a) + 1):
                # Anchored on the right too (the lone byte at the run's end
                # hides whether one more character was there), or at the end
                # of a line of the copy when the document ends there.
                if right and not folded.startswith(folded_right, a + n):
                    continue
                if not right and a + n not in ends:
                    continue
                # The folded copy is the copy in simplified form, a character at a time.
                written = (folded if simplified else copy)[a : a + n]
                got = shifted(written, codec)
                if got is not None and got.rstrip("\ufffd") == damaged:
                    found[written] = found.get(written, 0) + 1
            p = folded.find(folded_left, p + 1)
    return found
