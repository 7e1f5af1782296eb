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

from repair.channel.forward import encodable, garble
from repair.collate import Alignment, ReferenceIndex, fold_char, is_damage_mark
from repair.fill.channel import narrow_code_page, split_candidates
from repair.fill.ranker import clean_text, run_widths
from repair.lm.tokens import to_simplified, to_traditional
from repair.plausibility import char_logp, script_of
from repair.types import Candidate, Edit
from repair.variants import forms_of, variant_class, variants_of

# The gaps a reference can fill: each mark stands for lost characters.
COLLATED_KINDS = ("placeholder", "private_use", "foreign_symbol", "replacement_char", "question_mark")
# A mark and the byte that survived of a character's two: read like a gap,
# written in the one form those bytes allow.
SPLIT = "split_char"
# A run of mojibake: written in one code page, read in another (with that
# reader's errors, which lose characters); read whole from the aligned
# reference where a stretch of it gives back the run through that channel.
CODEC = "codec_confusion"
# Characters shifted through the channel, per character of a region, before
# the search of a region gives up (keeps it linear in the run).
CODEC_BUDGET = 64
# Kinds whose mark says the lost form was one the document's code page lacked.
OUTSIDE_PAGE_KINDS = ("question_mark", "private_use", "foreign_symbol")
# Observed accuracy of a solid, unanimous collation reading in the document's
# own form: benchmarks/calibrate_collation.py (seeds 1 and 2, 200 documents
# each, against an exact copy, another edition, an edition with notes and a
# commentary): 3,864 written (lost lead bytes included), 3,851 the very
# character, 13 the right word in another form (the reference's usual form
# where the document had a rarer one), none wrong; (3851+1)/(3864+2).
COLLATION_CONFIDENCE = 0.996
# Characters of the reference shown on each side of a reading in the report.
SNIPPET = 8
# How much rarer (log10) than the word's usual form the reference's form may
# be and still be written where nothing else decides: an edition's rare form
# (𢖽 for 志, a ten-thousandth as frequent) is the edition's own.
RARER = 1.0
# Characters of a reference read on each side of where a garbled run aligns.
REGION_MARGIN = 8


def aligned(
    text: str, edits: Sequence[Edit], indexes: Sequence[ReferenceIndex], *, always: bool = False
) -> list[Alignment]:
    """The document aligned with each reference (its gaps' marks as wildcards),
    or nothing when it has no gap or run a reference could read (unless
    ``always``: lost characters leave no mark, so only the alignment finds them)."""
    if not always and not any(e.kind in (*COLLATED_KINDS, SPLIT, CODEC, "byte_shift") for e in edits):
        return []
    marks = {c for e in edits if e.kind in COLLATED_KINDS for c in e.before}
    return [index.align(text, is_gap=lambda c: c in marks or is_damage_mark(c)) for index in indexes]


def run_regions(alignments: Sequence[Alignment], start: int, end: int) -> tuple[str, ...]:
    """The stretch of each reference that the alignment puts where the
    document's ``start:end`` (a garbled run) is, with a margin on each side
    (the run's ends are not exactly known)."""
    out = []
    for a in alignments:
        got = a.around(start, end)
        if got is not None and got[1] - got[0] <= 4 * (end - start) + 2 * REGION_MARGIN:
            out.append(a.reference[max(0, got[0] - REGION_MARGIN) : got[1] + 1 + REGION_MARGIN])
    return out


def read_gaps(
    text: str,
    edits: Sequence[Edit],
    alignments: Sequence[Alignment],
    *,
    min_confidence: float,
    script: str,
) -> list[Edit]:
    """The edits, with each gap the aligned references read alike written in the document's form."""
    gaps = [i for i, e in enumerate(edits) if e.kind in (*COLLATED_KINDS, SPLIT) and not e.applied]
    if not gaps or not alignments:
        return list(edits)
    clean = clean_text(text, edits)
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
        if e.kind == SPLIT:
            forms = [split_form(reading.text, e.before, page)]
        else:
            forms = [document_form(ch, own, simplified, lacked) for ch in reading.text]
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
    # The run of marks the span holds (a lost lead byte's span ends with the byte that survived).
    marks = (e.start, e.end)
    if e.kind == SPLIT:
        marks = (e.start, e.start + max((i + 1 for i, c in enumerate(e.before) if is_damage_mark(c)), default=0))
    solid = [(n, r) for n, r in readings if r.solid and r.run == marks]
    if not solid or any(not r.text or any(map(is_damage_mark, r.text)) for _, r in solid):
        return None  # a reference with nothing there, or damaged there too
    words = {tuple(variant_class(c) for c in r.text) for _, r in solid}
    return solid[0] if len(words) == 1 else None


def split_form(ch: str, run: str, page: str | None) -> str | None:
    """The one form of the word ``ch`` whose bytes a reader shows as ``run``
    (a mark and the byte that survived), or None: the surviving byte names
    the form, whatever the reference writes.

    >>> split_form("说", "?f", "gb2312"), split_form("說", "?g", "gb2312")
    ('說', None)
    """
    fits = forms_of(ch).intersection(split_candidates(run, page))
    return next(iter(fits)) if len(fits) == 1 else None


def document_form(ch: str, own: set[str], simplified: bool, lacked: str | None = None) -> str | None:
    """The document's form of the word the reference writes ``ch``, or None where it is not known.

    ``lacked``: the code page the channel says lacked the lost form (a ``?``,
    a home-made glyph), so that a form outside it is the likely one.  Then
    the document's habit (the one form of the word it uses elsewhere); then
    the reference's form in the document's script, where it is the word's
    usual form (an edition's rare form is the edition's own).
    """
    # The word's forms in the document's script: a simplified document's are
    # simplified; a traditional document keeps the reference's character as
    # it is (云 and 从 are characters of traditional texts too) and has no
    # rival in a simplified form (乱 for 亂).
    if simplified:
        mine = to_simplified(ch)
        forms = tuple(dict.fromkeys(to_simplified(f) for f in (ch, *variants_of(ch))))
    else:
        mine = ch
        forms = (ch, *(f for f in variants_of(ch) if to_traditional(f) == f))
    if lacked is not None:
        outside = [f for f in forms if not encodable(f, lacked)]
        if outside:
            if mine in outside:
                return mine
            used = [f for f in outside if f in own]
            return used[0] if len(used) == 1 else None
    used = [f for f in forms if f in own]
    if used:
        return used[0] if len(used) == 1 else None
    return mine if char_logp(mine) >= max(map(char_logp, forms)) - RARER else None


def read_runs(
    text: str, edits: Sequence[Edit], alignments: Sequence[Alignment], *, min_confidence: float, same_edition: bool
) -> list[Edit]:
    """The edits, with each mojibake run read whole from the references where
    exactly one stretch of them, between the characters the document has on
    each side of the run, gives back the run through the run's channel (its
    code pages and the reader's errors).

    That is what a lossy run cannot give by itself: the characters its reader
    lost (U+FFFD, ``?``, or nothing) are the reference's, and the check
    covers every byte that survived.  Another edition's form of a character
    that survived fails the check.  What the reader lost is not in the bytes
    at all, so the reference's characters there are trusted only when the
    references are the same edition (``same_edition``); a lossless run needs
    no reference (the channel reads it).
    """
    out = list(edits)
    if not same_edition:
        return out
    for n, e in enumerate(edits):
        if e.kind != CODEC or not {"true", "wrong", "errors"} <= set(e.detail):
            continue
        true, wrong, errors = e.detail["true"], e.detail["wrong"], e.detail["errors"]
        left = fold_char(text[e.start - 1]) if e.start > 0 else ""
        right = fold_char(text[e.end]) if e.end < len(text) else ""
        if not left or not right:
            continue
        readings = set()
        for region in run_regions(alignments, e.start, e.end):
            got = _run_readings(region, e.before, left, right, true, wrong, errors)
            if got is None:
                readings = set()
                break
            readings |= got
        if len(readings) != 1 or COLLATION_CONFIDENCE < min_confidence:
            continue
        reading = readings.pop()
        out[n] = replace(
            e,
            after=reading,
            applied=True,
            confidence=COLLATION_CONFIDENCE,
            candidates=(
                Candidate(reading, 0.0, "witness: a reference aligned by collation, checked through the channel"),
                *e.candidates,
            ),
            slots=(),
            note=f"{e.note}; read whole from a reference aligned by collation, checked through the channel",
            detail={**e.detail, "collation": {"reference_text": reading}},
        )
    return out


def _run_readings(
    region: str, observed: str, left: str, right: str, true: str, wrong: str, errors: str
) -> set[str] | None:
    """The stretches of ``region`` between ``left`` and ``right`` (folded) that
    the channel turns into ``observed``; None past the budget."""
    folded = [fold_char(c) for c in region]
    ends = [k for k, c in enumerate(folded) if c == right]
    budget = CODEC_BUDGET * max(1, len(region))
    found = set()
    for a in range(1, len(region)):
        if folded[a - 1] != left:
            continue
        for k in ends:
            if k <= a:
                continue
            budget -= k - a
            if budget < 0:
                return None
            stretch = region[a:k]
            if "\n" not in stretch and garble(stretch, true, wrong, errors) == observed:
                found.add(stretch)
    return found
