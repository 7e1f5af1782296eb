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
from repair.fill.witness import WitnessIndex, fold, other_copies, unanimous
from repair.types import Edit

# Gap kinds whose mark may be half of a glyph spelled in two codes.
PAIR_KINDS = ("private_use", "foreign_symbol", "question_mark")


@dataclass(frozen=True)
class PairReading:
    """What other copies read for a mark together with the character after it."""

    part: str  # the character after the mark, taken in by the reading
    char: str  # the one character other copies have for both
    count: int  # how many witnesses


def following_char(text: str, e: Edit, starts: Sequence[int]) -> str | None:
    """The Han character right after edit ``e`` if no edit starts at it
    (``starts``: the sorted start offsets of the document's edits; edits
    never overlap, so the next start decides).

    >>> e = Edit(1, 2, "\\ue001", "\\ue001", "private_use", 0.0)
    >>> following_char("甲\\ue001瓦乙", e, [1]), following_char("甲\\ue001，乙", e, [1])
    ('瓦', None)
    """
    if e.end >= len(text) or not HAN_RE.match(text[e.end]):
        return None
    k = bisect_left(starts, e.end)
    if k < len(starts) and starts[k] == e.end:
        return None
    return text[e.end]


def common_following_char(
    text: str, edits: Sequence[Edit], members: Sequence[int], starts: Sequence[int]
) -> str | None:
    """The character that follows every occurrence of a code, if one does (a
    digitizer's two codes are always the same two)."""
    parts = {following_char(text, edits[i], starts) for i in members}
    return parts.pop() if len(parts) == 1 else None


def pair_reading(
    part: str,
    contexts: Sequence[tuple[str, str]],
    witnesses: WitnessIndex | None,
    own: WitnessIndex,
    simplified: bool,
) -> PairReading | None:
    """The reading of every occurrence of a one-mark gap together with the
    character after it (``part``), when other copies agree on one; else None.

    ``contexts`` are the occurrences' (left, right) Han contexts as the fill
    reads them (traditional, cut at other gaps): the right one starts with
    ``part``, and the lookup starts one character later.
    """
    if witnesses is None:
        return None
    seen: Counter[str] = Counter()
    for left, right in contexts:
        if len(right) < 2:
            return None
        seen.update(other_copies(witnesses, own, left, right[1:], 1))
    agreed = unanimous(seen, simplified)
    if agreed is None or fold(agreed[0]) == fold(part):
        # A copy that reads the next character there has no mark at all: a
        # copy in which the mark was dropped (a ``?`` or a symbol is not Han,
        # so an index reads across it), not a glyph spelled in two codes.
        return None
    return PairReading(part, *agreed)
