"""Silent deletions: a character dropped with no trace, restored where another copy shows it.

A lost character leaves two real characters side by side, so nothing in the
text itself marks the place.  The evidence that decides is another copy of the
passage: a reference text (the base text of a commentary, another edition)
that has the same context on both sides with one character between, and that
never has the two sides joined as the document does.  Both conditions matter:
the first says what is missing, the second rules out a reading the reference
also knows (a phrase quoted once with and once without a particle).

Every boundary of the document between two adjacent Han characters is looked
up: ``MIN_SIDE`` characters on each side, in traditional form, one dictionary
access each, so the search costs little even on long files.  A boundary that
punctuation separates is taken only when the references as written say on
which side of it the lost character sits; one whose context touches another
repair is skipped.

What a witness is worth here depends on the reference, which the tool cannot
know.  Given its own clean text as the reference (benchmarks/run_benchmark.py
--witness), the search found 128 insertions in 300 synthetic documents, 124 of
them right.  Given another edition (benchmarks/cross_reference.py: 前漢書
against 史記, 禮記注疏 against 禮記集說, …), it found 171 places on 344,000 clean
characters, every one a variant reading of that edition, not a loss.  The
model cannot tell the two apart either: it prefers the inserted character as
often at a variant as at a real loss.  So a witnessed insertion is reported
(the references' reading, for the reader to judge), never written at the
default threshold.  Without a reference, nothing is searched: the model alone
separates lost characters from rare turns of phrase even less well (see the
README, "Silent deletions").
"""

from __future__ import annotations

from collections.abc import Sequence

from repair.collate import EQUAL, Alignment, is_damage_mark
from repair.fill.collation import SNIPPET, document_form
from repair.fill.ranker import clean_text
from repair.fill.witness import WitnessIndex, context_key, fold
from repair.lm.tokens import MARK_RE, NON_HAN_RE, to_simplified, to_traditional
from repair.types import Candidate, Edit
from repair.variants import variant_class

# The share of right insertions over both measurements above, shrunk:
# (124 + 1) / (128 + 171 + 2).  The reference's kind decides the real share.
WITNESSED_CONFIDENCE = 0.415
# When the user says the references are copies of the same edition
# (``--same-edition``), the first measurement alone applies: (124 + 1) / (128 + 2).
SAME_EDITION_CONFIDENCE = 0.962


def boundaries(text: str, edits: Sequence[Edit], side: int, *, across: bool = False) -> list[tuple[int, str, str]]:
    """(offset, left, right) for every boundary between two adjacent Han characters
    with ``side`` clean Han characters on each side (traditional form).  With
    ``across``, the boundaries that punctuation separates instead: (offset of
    the separator, left, right)."""
    return [(at, left, right) for at, left, right, punct in _boundaries(text, edits, side) if punct == across]


def _boundaries(text: str, edits: Sequence[Edit], side: int) -> list[tuple[int, str, str, bool]]:
    """Both kinds of boundary in one pass (the text is converted to
    traditional form once): (offset, left, right, whether punctuation separates)."""
    blocked = bytearray(len(text) + 1)
    for e in edits:
        for i in range(max(0, e.start - side), min(len(text), e.end + side) + 1):
            blocked[i] = 1
    out: list[tuple[int, str, str, bool]] = []
    pos = 0
    # Cut at the marks of lost characters but not at a question mark: one
    # that stands for a lost character is an edit, whose surroundings are
    # skipped anyway, so a ？ left in the text is punctuation.
    for piece in MARK_RE.split(text):
        positions = [pos + i for i, ch in enumerate(piece) if not NON_HAN_RE.match(ch)]
        pos += len(piece) + 1
        if len(positions) < 2 * side:
            continue
        han = to_traditional("".join(text[i] for i in positions))
        for j in range(side - 1, len(positions) - side):
            at = positions[j] + 1
            if blocked[at] or blocked[positions[j + 1]]:
                continue
            out.append((at, han[j - side + 1 : j + 1], han[j + 1 : j + 1 + side], positions[j + 1] != at))
    return out


def _placement_unsure(text: str, at: int, char: str) -> bool:
    """Whether ``char`` at ``at`` repeats a neighbour in a run that touches punctuation.

    The index reads across punctuation, so 亡走，齊宣 lacking a 齊 matches 亡走齊，齊宣:
    the lost 齊 may belong before the comma, and the text would differ.
    >>> _placement_unsure("亡走，齊宣王", 4, "齊"), _placement_unsure("亡走齊宣王", 3, "齊")
    (True, False)
    """
    a = at
    while a > 0 and text[a - 1] == char:
        a -= 1
    b = at
    while b < len(text) and text[b] == char:
        b += 1
    if a == b:
        return False  # no neighbour repeats it: the place is clear
    return any(0 <= i < len(text) and NON_HAN_RE.match(text[i]) for i in (a - 1, b))


def _side_in(text: str, sep_at: int, char: str, raw: Sequence[str]) -> int | None:
    """Where ``char`` goes at the punctuation starting at ``sep_at``: before it or
    after it, as the references read that stretch with their punctuation; None
    unless exactly one of the two is found.

    >>> ref = [fold("人不知而不慍，不亦君子乎。")]
    >>> _side_in("人不知而不慍，亦君子乎。", 6, "不", ref), _side_in("人不知而慍，不亦君子乎。", 5, "不", ref)
    (7, None)
    >>> _side_in("所金反又七南反）（息暫反", 7, "三", [fold("所金反又七南反）三（息暫反")])
    8
    """
    end = sep_at
    while end < len(text) and NON_HAN_RE.match(text[end]) and not MARK_RE.match(text[end]):
        end += 1
    before, after = text[max(0, sep_at - WINDOW) : sep_at], text[end : end + WINDOW]
    # Before the punctuation, after it, or between two of its marks (反）三（息).
    places = [
        at
        for at in range(sep_at, end + 1)
        if any(fold(before + text[sep_at:at] + char + text[at:end] + after) in r for r in raw)
    ]
    return places[0] if len(places) == 1 else None


# Raw characters on each side of the punctuation compared with the references.
WINDOW = 4


def witnessed(
    text: str,
    edits: Sequence[Edit],
    references: WitnessIndex | None,
    *,
    min_confidence: float,
    simplified: bool,
    same_edition: bool = False,
    raw: Sequence[str] = (),
) -> list[Edit]:
    """The edits plus an insertion wherever the references show a lost character.

    ``raw``: the references as written, folded (``fold``), to place a lost
    character beside punctuation."""
    confidence = SAME_EDITION_CONFIDENCE if same_edition else WITNESSED_CONFIDENCE
    if references is None or references.joined is None:
        return list(edits)
    found: list[Edit] = []
    for at, left, right, punct in _boundaries(text, edits, references.side):
        if punct and not raw:
            continue
        key = context_key(left, right, references.side)
        fills = references.fills.get(key)
        if not fills or key in references.joined:
            continue
        forms = {to_simplified(c) if simplified else c for c in fills}
        if len(forms) != 1:
            continue
        char, count = forms.pop(), sum(fills.values())
        read = fills.most_common(1)[0][0]
        if punct:
            # Punctuation between: the lost character sits on one side of it,
            # and only a reference punctuated the same way says which.
            at = _side_in(text, at, char, raw)
            if at is None:
                continue
        elif _placement_unsure(text, at, char):
            continue
        found.append(
            _insertion(
                at,
                Candidate(char, float(count), f"witness ×{count}"),
                confidence,
                min_confidence,
                same_edition,
                f"the references read {left}{read}{right} and never {left}{right}",
                {"witnesses": count, "context": [left, right]},
            )
        )
    return sorted([*edits, *_one_per_run(text, found)], key=lambda e: (e.start, e.end))


def _insertion(
    at: int,
    candidate: Candidate,
    confidence: float,
    min_confidence: float,
    same_edition: bool,
    evidence: str,
    detail: dict,
) -> Edit:
    """A lost character put back at ``at`` (or, below the threshold, only reported)."""
    applied = confidence >= min_confidence
    char = candidate.text
    return Edit(
        at,
        at,
        "",
        char if applied else "",
        "deletion",
        confidence,
        (candidate,),
        applied,
        note=(
            f"{'restored' if applied else 'may have lost'} {char}: {evidence} (p={confidence:.3f}"
            + (", same edition)" if same_edition else ": another edition's variant looks the same)")
        ),
        detail=detail,
    )


def _one_per_run(text: str, found: list[Edit]) -> list[Edit]:
    """One insertion per run of the lost character.

    A character lost from a run of itself (蠕蠕 read 蠕) is witnessed at every
    boundary of the run, since each reads the same with it put back there;
    it was lost once, so it is put back once, at the run's start.

    >>> e = [Edit(k, k, "", "", "deletion", 0.4, (Candidate("蠕", 1.0, "witness ×1"),)) for k in (2, 3)]
    >>> [x.start for x in _one_per_run("入塞蠕大檀", e)]
    [2]
    """
    kept: list[Edit] = []
    for e in sorted(found, key=lambda e: e.start):
        # The lost character is the first candidate (a reported one writes nothing).
        char = e.candidates[0].text
        if kept and kept[-1].candidates[0].text == char and set(text[kept[-1].start : e.start]) <= {char}:
            continue
        kept.append(e)
    return kept


# A character lost where the references, aligned by collation, read one
# between two of the document's characters (and the exact contexts did not).
# Observed on the generator's copies of the same edition
# (benchmarks/calibrate_collation.py, seeds 1 and 2, 400 documents each against
# the exact copy, the copy with notes and the commentary quoting the text):
# 78 found (1 against the exact copy, 45 with notes, 32 in the commentary),
# all right; (78+1)/(78+2).  Against another edition the generator's 43 were
# right too, but a real edition's extra characters are its own readings
# (``WITNESSED_CONFIDENCE``).
ALIGNED_SAME_EDITION_CONFIDENCE = 0.988
# Characters on each side of a found place that no other repair may touch: a
# repair there changes what the alignment matched.
ALIGNED_CLEAR = 4


def collated(
    text: str,
    edits: Sequence[Edit],
    alignments: Sequence[Alignment],
    *,
    min_confidence: float,
    simplified: bool,
    same_edition: bool = False,
) -> list[Edit]:
    """The edits plus an insertion wherever every reference aligned solidly
    there reads one character the document lacks between two matching characters.

    Unlike the exact contexts of ``witnessed``, the alignment sees past
    another edition's punctuation, variant forms and notes.  What it cannot
    see is whether the reference's extra character is a loss or that
    edition's own reading, so, as there, a place is only reported unless the
    references are copies of the same edition.  Where the document has
    punctuation between the two characters, the reference says on which side
    the lost one sat, or the place is left alone.
    """
    if not alignments:
        return list(edits)
    confidence = ALIGNED_SAME_EDITION_CONFIDENCE if same_edition else WITNESSED_CONFIDENCE
    blocked = bytearray(len(text) + 1)
    for e in edits:
        for i in range(max(0, e.start - ALIGNED_CLEAR), min(len(text), e.end + ALIGNED_CLEAR) + 1):
            blocked[i] = 1
    own: set[str] | None = None  # the document's own characters, read once a place needs them
    places = {(run.before, run.after) for a in alignments for run in a.deletions(max_chars=1)}
    found: list[Edit] = []
    for before, after in sorted(places):
        if blocked[before] or blocked[after]:
            continue
        readings = [(n, a.read(after, after)) for n, a in enumerate(alignments)]
        solid = [(n, r) for n, r in readings if r.solid and _matched_beside(alignments[n], after)]
        if not solid or any(len(r.text) != 1 or is_damage_mark(r.text) for _, r in solid):
            continue  # a reference reading the two characters side by side, or damaged there
        if len({variant_class(r.text) for _, r in solid}) != 1:
            continue
        n, reading = solid[0]
        if own is None:
            own = set(clean_text(text, edits))
        char = document_form(reading.text, own, simplified)
        if char is None:
            continue
        at = _aligned_place(text, before, after, alignments[n].reference, reading.offsets[0])
        if at is None:
            continue
        ref = alignments[n].reference
        ref_at = reading.offsets[0]
        found.append(
            _insertion(
                at,
                Candidate(char, float(len(solid)), f"witness: reference {n + 1}, aligned by collation"),
                confidence,
                min_confidence,
                same_edition,
                f"reference {n + 1}, aligned by collation, reads {reading.text} here",
                {
                    "collation": {
                        "reference": n + 1,
                        "offset": ref_at,
                        "reference_text": reading.text,
                        "snippet": ref[max(0, ref_at - SNIPPET) : ref_at + 1 + SNIPPET],
                        "matches": [reading.left_matches, reading.right_matches],
                    }
                },
            )
        )
    taken = {e.start for e in edits if e.kind == "deletion"}
    found = [e for e in _one_per_run(text, found) if e.start not in taken]
    return sorted([*edits, *found], key=lambda e: (e.start, e.end))


def _matched_beside(alignment: Alignment, after: int, side: int = ALIGNED_CLEAR - 1) -> bool:
    """Whether the ``side`` characters on each side of the place (the document
    character at ``after`` and those before it) all match the reference, in
    one block: between two anchors, the edit distance also pairs a comment's
    words with the text's by chance (二十年 with 中二年), and a lost character
    inside one's own edition leaves its neighbours exact."""
    p = int(alignment._positions(after, after)[0])
    span = range(p - side, p + side)
    if span.start < 0 or span.stop > len(alignment.kind):
        return False
    blocks = {alignment.block[i] for i in span}
    return all(alignment.kind[i] == EQUAL for i in span) and len(blocks) == 1 and -1 not in blocks


def _aligned_place(text: str, before: int, after: int, reference: str, ref_at: int) -> int | None:
    """Where the lost character goes between the document's characters at
    ``before`` and ``after``: between them when nothing separates them, else
    on the side of the punctuation where the reference has it touching its
    neighbour (its ``ref_at``), or None when the reference does not say.

    >>> _aligned_place("天地玄黃", 1, 2, "天地之玄黃", 2)
    2
    >>> _aligned_place("天地，玄黃", 1, 3, "天地之，玄黃", 2), _aligned_place("天地，玄黃", 1, 3, "天地，之玄黃", 3)
    (2, 3)
    >>> _aligned_place("天地，玄黃", 1, 3, "天地、之、玄黃", 3) is None
    True
    """
    if after == before + 1:
        return after
    left = ref_at > 0 and not NON_HAN_RE.match(reference[ref_at - 1])
    right = ref_at + 1 < len(reference) and not NON_HAN_RE.match(reference[ref_at + 1])
    if left and not right:
        return before + 1
    if right and not left:
        return after
    return None
