"""Gaps read from references aligned by collation (``repair.collate``).

An exact-context witness (``repair.fill.witness``) needs the same four
characters on each side of a gap; another edition's variant forms, an edition
that prints notes inside the text, or a commentary that quotes the text in
pieces hide most gaps from it.  Aligned first, those copies still say what a
gap held, wherever the alignment around the gap is solid (anchors on both
sides in one block, its neighbours matching).

What is written is the document's own form of the word the reference shows:
the form the document itself uses elsewhere (it writes 靣, so 靣 and not the
reference's 面), else the reference's character in the document's script.
Where the channel says the lost form was one the document's code page lacked
(a ``?``, a private-use code, a foreign symbol standing for a character) and
the word has another form outside the page, the form is not known: the
reading is listed, not written.  References that disagree decide nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from repair.channel.forward import encodable
from repair.collate import Alignment, ReferenceIndex, is_damage_mark
from repair.fill.channel import narrow_code_page
from repair.fill.ranker import run_widths
from repair.lm.tokens import to_simplified
from repair.plausibility import script_of
from repair.types import Candidate, Edit
from repair.variants import variant_class, variants_of

# The gaps a reference can fill: each mark stands for lost characters.
COLLATED_KINDS = ("placeholder", "private_use", "foreign_symbol", "replacement_char", "question_mark")
# Kinds whose mark says the lost form was one the document's code page lacked.
OUTSIDE_PAGE_KINDS = ("question_mark", "private_use", "foreign_symbol")
# Observed accuracy of a solid, unanimous collation reading in the document's
# own form; fitted by benchmarks/calibrate_collation.py (seeds 1 and 2, every
# kind of witness), read as (right+1)/(n+2).
COLLATION_CONFIDENCE = 0.995
# Characters of the reference shown on each side of a reading in the report.
SNIPPET = 8


def read_gaps(
    text: str,
    edits: Sequence[Edit],
    indexes: Sequence[ReferenceIndex],
    *,
    min_confidence: float,
    script: str,
) -> list[Edit]:
    """The edits, with each gap the aligned references read alike written in the document's form."""
    gaps = [i for i, e in enumerate(edits) if e.kind in COLLATED_KINDS and not e.applied]
    if not gaps or not indexes:
        return list(edits)
    marks = {c for i in gaps for c in edits[i].before}
    alignments = [index.align(text, is_gap=lambda c: c in marks or is_damage_mark(c)) for index in indexes]
    clean = _clean_text(text, edits)
    own = set(clean)
    # The script fills are written in: the document's, judged on its clean text with any evidence at all.
    simplified = (script if script != "neutral" else script_of(clean)) == "simplified"
    page = narrow_code_page(clean)
    out = list(edits)
    for i in gaps:
        e = edits[i]
        got = _reading(alignments, e)
        if got is None:
            continue
        n, reading = got
        if len(reading.text) not in run_widths(e.kind, len(e.before)):
            continue
        forms = [_form(ch, own, simplified) for ch in reading.text]
        if e.kind == "question_mark" and page is not None and any(encodable(f[0], page) for f in forms):
            continue  # a ? stood for a character its code page lacked
        known = all(len(f) == 1 for f in forms)
        if known and e.kind in OUTSIDE_PAGE_KINDS and page is not None:
            # The lost form was outside the page: a form the page holds is
            # unlikely where the word has one it lacks.
            known = not any(encodable(f[0], page) and _outside_forms(f[0], page) for f in forms)
        written = "".join(f[0] for f in forms)
        confidence = COLLATION_CONFIDENCE if known else 0.0
        applied = known and confidence >= min_confidence
        if not applied:
            continue  # listed by the fill with the model's candidates
        ref = alignments[n].reference
        at = reading.offsets[0]
        out[i] = replace(
            e,
            after=written,
            applied=True,
            confidence=confidence,
            candidates=(Candidate(written, 0.0, f"witness: reference {n + 1}, aligned by collation"),),
            slots=(),
            note=f"read from reference {n + 1}, aligned by collation",
            detail={
                **e.detail,
                "collation": {
                    "reference": n + 1,
                    "offset": at,
                    "reference_text": reading.text,
                    "snippet": ref[max(0, at - SNIPPET) : reading.offsets[-1] + 1 + SNIPPET],
                    "matches": [reading.left_matches, reading.right_matches],
                },
            },
        )
    return out


def _reading(alignments: Sequence[Alignment], e: Edit):
    """(which reference, its reading) where the references that read the gap solidly agree, else None."""
    readings = [(n, a.read(e.start, e.end)) for n, a in enumerate(alignments)]
    solid = [(n, r) for n, r in readings if r.solid and r.run == (e.start, e.end)]
    if not solid or any(not r.text or any(map(is_damage_mark, r.text)) for _, r in solid):
        return None  # a reference with nothing there, or damaged there too
    words = {tuple(variant_class(c) for c in r.text) for _, r in solid}
    return solid[0] if len(words) == 1 else None


def _form(ch: str, own: set[str], simplified: bool) -> tuple[str, ...]:
    """The document's form of the word ``ch`` writes: the one form of it the
    document uses, else ``ch`` in the document's script; several when the
    document uses several (then the form is not known)."""
    forms = (ch, *variants_of(ch))
    used = tuple(f for f in forms if f in own)
    if used:
        return used
    return (to_simplified(ch),) if simplified else (ch,)


def _outside_forms(ch: str, page: str) -> bool:
    return any(not encodable(v, page) for v in variants_of(ch))


def _clean_text(text: str, edits: Sequence[Edit]) -> str:
    """The document without its damaged spans (what its habits are read from)."""
    pieces, pos = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        if e.start >= pos:
            pieces.append(text[pos : e.start])
            pos = e.end
    pieces.append(text[pos:])
    return "".join(pieces)
