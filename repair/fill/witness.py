"""Exact-context witnesses: what other copies of the text put in the gap.

Commentaries quote their base text word for word, and the same classic recurs
across files, so the surest evidence for a lost character is the same passage
elsewhere: in the clean parts of the document, in the batch, or in reference
texts the user supplies.  A witness is an occurrence of the slot's left and
right context (at least ``MIN_SIDE`` Han characters on each side, punctuation
ignored, both scripts compared in traditional form) with one character
between them.  Texts are indexed once; lookups cost a dictionary access.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache

from repair.lm.tokens import MARK_RE, han_projection, to_simplified, to_traditional
from repair.plausibility import script_of

MIN_SIDE = 4
# The longest run of marks other copies are asked about: a run of placeholders
# is one character per mark, a run of ``?`` or U+FFFD one or several per
# character, and a lacuna longer than this is left to the reader.
MAX_RUN = 4
# An index of only some contexts searches for them when there are fewer than
# one for every this many characters of a text.
FEW_KEYS = 64


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    return to_simplified(ch)


def fold(text: str) -> str:
    """Contexts as keys: each character in its simplified form, one by one.

    OpenCC converts by phrase, so the same characters can come out differently
    in a short context and in a whole text (里 stays 里 in 羑里 but becomes 裏
    in 邪里操); folded a character at a time, both read the same.

    >>> fold("其敢已邪裏操曰臣") == fold("其敢已邪里操曰臣")
    True
    """
    return "".join(map(_fold_char, text))


def context_key(left: str, right: str, side: int = MIN_SIDE) -> str | None:
    """The index key of a gap between ``left`` and ``right``, or None if either side is too short."""
    if len(left) < side or len(right) < side:
        return None
    return fold(left[-side:] + right[:side])


class WitnessIndex:
    """Maps (left context, right context) of every character to what filled it."""

    def __init__(self, texts: Iterable[str] = (), *, side: int = MIN_SIDE, only: set[str] | None = None) -> None:
        """``only``: index just these contexts (a batch's gaps), so that a whole
        batch can witness its own gaps in memory proportional to the gaps."""
        self.side = side
        self.only = only
        # True when the documents being repaired are themselves indexed (a
        # batch witnessing itself): a document's own text must then be taken
        # out again, or it would count as another copy.
        self.includes_documents = False
        # What fills each context, per width: a run of marks (□□, ??, two
        # private-use codes) is asked about at every width it may stand for.
        self.runs: dict[int, dict[str, Counter[str]]] = {w: defaultdict(Counter) for w in range(1, MAX_RUN + 1)}
        self.fills = self.runs[1]
        # Every run of 2·side characters of the texts, for a complete index
        # only: a lost character is restored only where no text reads the two
        # sides joined (``repair.fill.deletions``).
        self.joined: set[str] | None = set() if only is None else None
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        k = self.side
        only = self.only
        joined = self.joined
        # Fills are kept in traditional form, as the vocabulary is; but only a
        # simplified text is converted: a traditional text's own characters
        # are its reading (云 and 从 are characters of traditional texts too,
        # and OpenCC would write them 雲 and 從).
        if script_of(text) == "simplified":
            text = to_traditional(text)
        # A question mark left in a text is punctuation: a lost character's
        # mark is masked before its text is indexed.
        for piece in han_projection(text, MARK_RE):
            folded = fold(piece)
            if only is not None and len(only) * FEW_KEYS < len(piece):
                self._add_sought(piece, folded, only)
                continue
            for width, table in self.runs.items():
                for i in range(k, len(piece) - k - width + 1):
                    key = folded[i - k : i] + folded[i + width : i + width + k]
                    if only is None or key in only:
                        table[key][piece[i : i + width]] += 1
            if joined is not None:
                joined.update(folded[i : i + 2 * k] for i in range(len(piece) - 2 * k + 1))

    def _add_sought(self, piece: str, folded: str, only: set[str]) -> None:
        """``add`` for one piece when only a few contexts are indexed: each
        context's left side is searched for (a few places in a long text)
        instead of reading every place, and the fills are counted in the
        same order as reading every place would."""
        k = self.side
        rights: dict[str, set[str]] = {}
        for key in only:
            if len(key) == 2 * k:
                rights.setdefault(key[:k], set()).add(key[k:])
        starts = []
        for left in rights:
            j = folded.find(left)
            while j >= 0:
                starts.append(j + k)
                j = folded.find(left, j + 1)
        starts.sort()
        for width, table in self.runs.items():
            for i in starts:
                if i > len(piece) - k - width:
                    continue
                right = folded[i + width : i + width + k]
                if right in rights[folded[i - k : i]]:
                    table[folded[i - k : i] + right][piece[i : i + width]] += 1

    def counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """The index as plain data (what a worker sends back), every width; of a
        layered index, its own contexts only."""
        return {
            str(width): {k: dict(v) for k, v in getattr(table, "own", table).items()}
            for width, table in self.runs.items()
        }

    def include(self, other) -> None:
        """Add what ``other`` (an index, or the references' ``ReferenceWitnesses``)
        holds: an index's contexts are copied in; arrays (and what an index was
        laid over) are laid under this one, which then reads each context as its
        own fills followed by theirs, as if they had been copied in."""
        base = other
        if isinstance(other, WitnessIndex):
            self.merge(other.counts())
            base = getattr(other, "base", None)
        if base is not None:
            self.base = base
            self.runs = {w: _Layered(getattr(t, "own", t), base.runs[w]) for w, t in self.runs.items()}
            self.fills = self.runs[1]

    def merge(self, counts: dict[str, dict[str, dict[str, int]]]) -> None:
        """Add another index's ``counts()`` to this one."""
        for width, table in counts.items():
            mine = self.runs[int(width)]
            for k, v in table.items():
                mine[k].update(v)

    def lookup(self, left: str, right: str, width: int = 1) -> Counter[str]:
        """What fills the gap of ``width`` characters (at most MAX_RUN) between
        ``left`` and ``right`` (Han strings, either script)."""
        key = context_key(left, right, self.side)
        table = self.runs.get(width, {})
        return table.get(key, Counter()) if key is not None else Counter()


class _Layered:
    """A table of contexts read as another's laid under it (``WitnessIndex.include``):
    ``get`` gives the two counters added, this one's fills first, as ``merge`` would."""

    def __init__(self, own: dict[str, Counter[str]], base) -> None:
        self.own = own
        self.base = base

    def get(self, key: str, default=None):
        mine, theirs = self.own.get(key), self.base.get(key)
        if theirs is None:
            return mine if mine is not None else default
        if mine is None:
            return theirs
        both = Counter(mine)
        both.update(theirs)
        return both

    def __contains__(self, key: object) -> bool:
        return key in self.own or key in self.base

    def __getitem__(self, key: str) -> Counter[str]:
        got = self.get(key)
        return got if got is not None else Counter()


def other_copies(
    witnesses: WitnessIndex | None, own: WitnessIndex, left: str, right: str, width: int = 1
) -> Counter[str]:
    """What other copies put between ``left`` and ``right``.  When the batch's
    index holds the documents themselves, the document's own text (``own``) is
    taken out again: it is not another copy."""
    if witnesses is None:
        return Counter()
    found = witnesses.lookup(left, right, width)
    return found - own.lookup(left, right, width) if witnesses.includes_documents else found


def unanimous(seen: Counter[str], simplified: bool) -> tuple[str, int] | None:
    """The one reading every copy in ``seen`` gives (compared in the
    document's script when ``simplified``) and how many give it; None when
    they disagree or say nothing."""
    if not seen:
        return None
    forms = {to_simplified(c) if simplified else c for c in seen}
    if len(forms) != 1:
        return None
    return forms.pop(), sum(seen.values())
