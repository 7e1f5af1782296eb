"""A lone 囗 that other copies read as another character.

The placeholder family takes 囗 for a placeholder only between two Han
characters: elsewhere (at a line start, before punctuation) it is as likely
the character itself, the enclosure radical that dictionaries cite as a
head-word (囗，回也).  Other copies tell the two apart: where every copy has
one and the same other character in the same context (four Han characters on
each side), the 囗 was an editor's placeholder, and it is handed to the fill
as one, which writes what the copies have.  Where no copy speaks, or a copy
has 囗 itself, nothing happens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from repair.fill.ranker import left_context, masked_text, right_context
from repair.fill.witness import WitnessIndex, context_key, fold, other_copies
from repair.lm.tokens import to_traditional
from repair.types import Edit, Span

BOX = "囗"
BOX_RE = re.compile(BOX)


def lone_boxes(text: str, edits: Sequence[Edit]) -> list[tuple[int, str, str]]:
    """(offset, left context, right context) of every 囗 of ``text`` that no
    edit covers and that has enough context on both sides to be witnessed."""
    taken = [(e.start, e.end) for e in edits]
    masked = masked_text(text, edits)
    found = []
    for m in BOX_RE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        left = to_traditional(left_context(masked, m.start()))
        right = to_traditional(right_context(masked, m.end()))
        if context_key(left, right) is not None:
            found.append((m.start(), left, right))
    return found


def box_keys(text: str, edits: Sequence[Edit]) -> set[str]:
    """The witness keys of the lone 囗 of ``text`` (what a batch index must hold)."""
    return {key for _, left, right in lone_boxes(text, edits) if (key := context_key(left, right)) is not None}


def witnessed_boxes(text: str, edits: Sequence[Edit], witnesses: WitnessIndex) -> list[Span]:
    """Spans for the lone 囗 of ``text`` (none inside an edit) that other copies
    unanimously read as another character.

    >>> index = WitnessIndex(["人不知而不慍，不亦君子乎。"])
    >>> [s.start for s in witnessed_boxes("人不知而囗慍，不亦君子乎。", [], index)]
    [4]
    >>> witnessed_boxes("人不知而囗慍，不亦君子乎。", [], WitnessIndex(["人不知而囗慍不亦君子乎"]))
    []
    """
    boxes = lone_boxes(text, edits)
    # A batch's index holds this document too: its own text is no other copy.
    keys = {context_key(left, right) for _, left, right in boxes}
    own = WitnessIndex([text], only=keys) if witnesses.includes_documents else WitnessIndex()
    spans = []
    for start, left, right in boxes:
        readings = {fold(c) for c in other_copies(witnesses, own, left, right)}
        if len(readings) == 1 and fold(BOX) not in readings:
            spans.append(Span(start, start + 1, "placeholder", BOX, {"chars": 1, "witnessed": True}))
    return spans
