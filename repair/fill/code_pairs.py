"""A mark and the character after it, read as one character.

Some digitizations spell a home-made glyph in two codes: a private-use code
(or a stand-in symbol, or the ``?`` a later conversion left of it) for the
part the font lacked, and an ordinary character for the rest, so that one
rare character reads as ``U+E001 瓦``.  Nothing in the two codes says so: the
character after a mark is as often a real character of the text.  Only other
copies can tell, and they tell both ways at once:

- if the mark is one character, the gap between the left context and the
  context that starts with the next character is witnessed;
- if the two codes are one character, the gap between the left context and
  the context after the next character is.

A pair is read as one character only when the plain lookup found nothing at
any width and the lookup past the next character finds one character that
every copy agrees on, for every occurrence of the code, which is followed by
the same character each time (a digitizer's two codes are always the same two).
A copy that reads the next character itself in the pair's place has no mark
there at all (a ``?`` or a stand-in symbol is not Han, so a copy that still
holds it, the batch's own file among them, reads across it): that never
counts as a pair.  The model never decides a pair: calibration saw no such
channel.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from repair.fill.channel import HAN_RE
from repair.fill.witness import WitnessIndex, fold, other_copies
from repair.lm.tokens import to_simplified
from repair.types import Edit

# Gap kinds whose mark may be half of a glyph spelled in two codes.
PAIR_KINDS = ("private_use", "foreign_symbol", "question_mark")


@dataclass(frozen=True)
class PairReading:
    """What other copies read for a mark together with the character after it."""

    part: str  # the character after the mark, taken in by the reading
    char: str  # the one character other copies have for both
    count: int  # how many witnesses


def following_char(text: str, edits: Sequence[Edit], e: Edit, starts: Sequence[int] | None = None) -> str | None:
    """The Han character right after edit ``e`` if no edit covers or starts at it.

    ``starts``: the sorted start offsets of ``edits`` (built once per
    document by the caller; edits never overlap, so the next start decides).

    >>> e = Edit(1, 2, "\\ue001", "\\ue001", "private_use", 0.0)
    >>> following_char("甲\\ue001瓦乙", [e], e), following_char("甲\\ue001，乙", [e], e)
    ('瓦', None)
    """
    if e.end >= len(text) or not HAN_RE.match(text[e.end]):
        return None
    starts = sorted(o.start for o in edits) if starts is None else starts
    k = bisect_left(starts, e.end)
    if k < len(starts) and starts[k] == e.end:
        return None
    return text[e.end]


def pair_reading(
    text: str,
    edits: Sequence[Edit],
    members: Sequence[int],
    contexts: Sequence[tuple[str, str]],
    witnesses: WitnessIndex | None,
    own: WitnessIndex,
    simplified: bool,
    starts: Sequence[int],
) -> PairReading | None:
    """The reading of every occurrence of a one-mark gap together with the
    character after it, when other copies agree on one; else None.

    ``contexts`` are the members' (left, right) Han contexts as the fill reads
    them (traditional, cut at other gaps): the right one starts with the
    character after the mark, and the lookup starts one character later.
    """
    if witnesses is None:
        return None
    parts = {following_char(text, edits, edits[i], starts) for i in members}
    if len(parts) != 1 or None in parts:
        return None
    seen: Counter[str] = Counter()
    for left, right in contexts:
        if len(right) < 2:
            return None
        seen.update(other_copies(witnesses, own, left, right[1:], 1))
    if not seen:
        return None
    forms = {to_simplified(c) if simplified else c for c in seen}
    part = parts.pop()
    if len(forms) != 1 or fold(part) in map(fold, forms):
        # A copy that reads the next character there has no mark at all: a
        # copy in which the mark was dropped (a ``?`` or a symbol is not Han,
        # so an index reads across it), not a glyph spelled in two codes.
        return None
    return PairReading(part, forms.pop(), sum(seen.values()))
