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
(a ``?``, a private-use code, a foreign symbol standing for a character), a
form outside the page is the one.  Where nothing decides between forms, the
gap is left to the fill, which lists the candidates.  References that
disagree decide nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from repair.channel.forward import encodable
from repair.collate import Alignment, ReferenceIndex, is_damage_mark
from repair.fill.channel import narrow_code_page
from repair.fill.ranker import run_widths
from repair.lm.tokens import to_simplified, to_traditional
from repair.plausibility import char_logp, script_of
from repair.types import Candidate, Edit
from repair.variants import variant_class, variants_of

# The gaps a reference can fill: each mark stands for lost characters.
COLLATED_KINDS = ("placeholder", "private_use", "foreign_symbol", "replacement_char", "question_mark")
# Kinds whose mark says the lost form was one the document's code page lacked.
OUTSIDE_PAGE_KINDS = ("question_mark", "private_use", "foreign_symbol")
# Observed accuracy of a solid, unanimous collation reading in the document's
# own form: benchmarks/calibrate_collation.py (seeds 1 and 2, 200 documents
# each, against an exact copy, another edition, an edition with notes and a
# commentary): 3,345 written, 3,327 the very character, 18 the right word in
# another form (the reference's usual form where the document had a rarer
# one), none wrong; (3327+1)/(3345+2).
COLLATION_CONFIDENCE = 0.994
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
        lacked = (page or ("gbk" if simplified else "big5")) if e.kind in OUTSIDE_PAGE_KINDS else None
        forms = [_form(ch, own, simplified, lacked) for ch in reading.text]
        if any(f is None for f in forms):
            continue  # the form is not known: left to the fill, which lists the candidates
        written = "".join(forms)  # type: ignore[arg-type]
        if e.kind == "question_mark" and page is not None and encodable(written, page):
            continue  # a ? stood for a character its code page lacked
        if COLLATION_CONFIDENCE < min_confidence:
            continue
        ref = alignments[n].reference
        at = reading.offsets[0]
        out[i] = replace(
            e,
            after=written,
            applied=True,
            confidence=COLLATION_CONFIDENCE,
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


def _form(ch: str, own: set[str], simplified: bool, lacked: str | None) -> str | None:
    """The document's form of the word the reference writes ``ch``, or None where it is not known.

    ``lacked``: the code page the channel says lacked the lost form (a ``?``,
    a home-made glyph), so that a form outside it is the likely one.  Then
    the document's habit (the one form of the word it uses elsewhere); then
    the reference's form in the document's script, where it is the word's
    usual form (an edition's rare form is the edition's own).
    """
    forms = tuple(dict.fromkeys((ch, *variants_of(ch))))
    if lacked is not None:
        outside = [f for f in forms if not encodable(f, lacked)]
        if outside:
            if ch in outside:
                return ch
            used = [f for f in outside if f in own]
            return used[0] if len(used) == 1 else None
    used = [f for f in forms if f in own]
    if used:
        return used[0] if len(used) == 1 else None
    # The word's forms in the document's script (a traditional document's
    # rival of 亂 is not the simplified 乱).
    convert = to_simplified if simplified else to_traditional
    written = convert(ch)
    usual = max(char_logp(convert(f)) for f in forms)
    return written if char_logp(written) >= usual else None


def _clean_text(text: str, edits: Sequence[Edit]) -> str:
    """The document without its damaged spans (what its habits are read from)."""
    pieces, pos = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        if e.start >= pos:
            pieces.append(text[pos : e.start])
            pos = e.end
    pieces.append(text[pos:])
    return "".join(pieces)
