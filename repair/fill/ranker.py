"""Ranking candidates for marked spans and deciding with a calibrated posterior.

Each fillable edit becomes a slot: its Han context on both sides (across
punctuation, cut at other damage), the channel's candidate set, and scores
from the language model mixed with a cache of the document's own clean text.
A code that recurs (a private-use point, a foreign symbol) is decided once from
all its occurrences: their scores add up.  Scores become a posterior by a
softmax whose temperature was fitted on the benchmark; a repair is applied
only at or above the confidence threshold, otherwise the span stays marked
and the report lists the ranked candidates.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

import numpy as np

from repair.channel.calibration import observed_accuracy
from repair.channel.forward import encodable
from repair.fill.channel import FILLABLE, candidate_set, narrow_code_page, split_candidates
from repair.fill.code_pairs import PAIR_KINDS, common_following_char, pair_reading
from repair.fill.glyphs import GLYPH_KINDS, GlyphTable
from repair.fill.witness import MAX_RUN, WitnessIndex, context_key, fold, other_copies, unanimous
from repair.lm.cache import CacheModel
from repair.lm.model import CharLM
from repair.lm.tokens import CUT_RE, NON_HAN_RE, to_simplified, to_traditional
from repair.plausibility import script_of
from repair.types import Candidate, Edit

CONTEXT = 10
# Fitted by benchmarks/calibrate_fill.py (synthetic damage, seed 1, 1,000
# documents, 2,979 spans): the temperature with the lowest calibration error.
TEMPERATURE = 1.5
# Which channel each kind of gap came through: what could hide behind it.
# A placeholder or U+FFFD may hide any character; a ``?`` one its code page
# lacked; a private-use code or foreign symbol a home-made glyph, that is a
# rare character, often a variant form the model takes for its common twin.
# Gaps another stage already marked at the width the bytes tell (锟斤拷: two
# characters lost before the text was garbled): ranked here like any gap, and
# kept as marks where the ranking is not confident.
LOST_GAPS = "lost_characters"
CHANNEL_OF: dict[str, str] = {
    "placeholder": "any character",
    "replacement_char": "any character",
    "question_mark": "outside the code page",
    "private_use": "home-made glyph",
    "foreign_symbol": "home-made glyph",
    "split_char": "lead byte lost",
    LOST_GAPS: "any character",
}
# Kinds whose channel names the exact form: the surviving bytes belong to one
# character of the source code page, which is written as it was, not in the
# document's script (a simplified GBK text may hold 丟 or 說 on purpose).
EXACT_FORM_KINDS = ("split_char",)
# Reliability of the raw posterior at that temperature, per channel: (lower
# bound of the raw posterior, spans, right), read as (right+1)/(n+2).  Fitted
# by benchmarks/calibrate_fill.py (seeds 1, 2 and 4, 8,000 documents, 24,034
# single-character spans; the benchmark's seed 0 is not among them).  Two rows
# at most: the reported confidence is the observed accuracy, so a finer bin
# right 90–99% of the time would be applied at the default threshold with up
# to 10% wrong.  The high row starts where at most 1% of the model's answers
# were wrong, pooled and in each seed's run alone; a channel with no such cut
# has one row and is never filled on the model's word.
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {
    # From 0.999: 13 of 13 (0.933).  From 0.99, 179 of 181, but 68 of 70 in
    # seed 4's run (划 for 画, 执 for 秉: words the context allows either way).
    "any character": ((0.0, 7881, 3296), (0.999, 13, 13)),
    # From 0.99: 216 of 216 (0.995).  From 0.9, 148 of 152 in seed 4's run.
    "outside the code page": ((0.0, 1983, 901), (0.99, 216, 216)),
    # No cut keeps wrong answers under 1% (from 0.999, 476 of 546 right).
    "home-made glyph": ((0.0, 11958, 2598),),
    # From 0.99: 661 of 665 (0.993; the 4 wrong are one recurring 𤳹 read as
    # 𡰥, which the model knows better); the surviving byte leaves a few dozen
    # candidates, and the model's first choice is right 84% of the time.  From
    # 0.9 it was 967 of 980, but 475 of 482 in seed 2's run.
    "lead byte lost": ((0.0, 1318, 1007), (0.99, 665, 661)),
}
CACHE_WEIGHT = 0.1
# Observed accuracy of a unanimous exact-context witness (4 characters each
# side) in calibration (benchmarks/calibrate_fill.py --references --runs
# 1:500,2:500: each synthetic document given its clean text as a witness):
# 2,937 right of 2,938, shrunk as the reliability table is, (2937+1)/(2938+2).
# (The previous generator's run: 377 of 379.)  A real witness may differ in
# variant forms more than that copy does.
WITNESS_CONFIDENCE = 0.999
# OWN_WITNESS: a unanimous witness from the document's own clean text alone was
# right in 5 of 11 cases in calibration (benchmarks/calibrate_fill.py, seed 1,
# 1,000 documents), and in none of the 6 where the model was unsure: parallel
# phrases, not quotations.  So it never decides; it is listed as a candidate.
TOP = 5
# Candidates scored in full per gap, out of the whole vocabulary; measured by
# benchmarks/calibrate_fill.py: the shortlist keeps the truth wherever full
# scoring would have ranked it in the top 5.
SHORTLIST = 400


def left_context(text: str, start: int) -> str:
    """Up to CONTEXT Han characters before ``start``, across punctuation, cut at other damage."""
    window = text[max(0, start - 4 * CONTEXT) : start]
    piece = CUT_RE.split(window)[-1]
    return NON_HAN_RE.sub("", piece)[-CONTEXT:]


def right_context(text: str, end: int) -> str:
    """Up to CONTEXT Han characters from ``end`` on, across punctuation, cut at other damage."""
    window = text[end : end + 4 * CONTEXT]
    piece = CUT_RE.split(window)[0]
    return NON_HAN_RE.sub("", piece)[:CONTEXT]


MASK = "〓"


def _masked(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with each edit's span replaced by cut marks, one per character
    (so offsets hold), and one for an empty span (so it still cuts)."""
    pieces, pos = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        if e.start >= pos:
            pieces += [text[pos : e.start], MASK * max(1, e.end - e.start)]
            pos = e.end
    pieces.append(text[pos:])
    return "".join(pieces)


def masked_text(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with every gap still to fill replaced by the cut mark, offsets unchanged.

    A foreign symbol is not Han, so the Han projection would drop it and join
    its two sides: the context of one gap would run across another as if
    nothing were there (薛ス薛ス read as 薛薛).  Masked, the context stops there.
    """
    return _masked(text, (e for e in edits if not e.applied and (e.kind in FILLABLE or e.kind in CUT_KINDS)))


# Damage a stage marked and could not read (codec debris, a byte-shifted run
# left as it was) is no context for a gap beside it either: garbage read as
# context ranks the gap after random characters.
CUT_KINDS = ("codec_confusion", "byte_shift")


# Temperatures tried by the calibration (benchmarks/calibrate_fill.py).
CALIBRATION_TEMPERATURES = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)


def posterior(scores: Sequence[float], temperature: float = TEMPERATURE) -> np.ndarray:
    """Softmax of log10 scores."""
    s = np.asarray(scores, dtype=float)
    if s.size == 0:
        return s
    w = np.exp(math.log(10) * (s - s.max()) / temperature)
    return w / w.sum()


def calibrated(raw: float, channel: str = "any character") -> float:
    """The observed accuracy of fills through ``channel`` whose raw posterior was ``raw``."""
    return observed_accuracy(raw, RELIABILITY[channel])


def channel_of(kind: str, page: str | None) -> str:
    """The channel a gap came through, which decides its candidates and its calibration row.

    A ``?`` is a code page's loss only where the page is known (and not
    refuted by another copy): otherwise it is as open as a placeholder.
    """
    if kind == "question_mark" and page is None:
        return CHANNEL_OF["placeholder"]
    return CHANNEL_OF[kind]


def run_widths(kind: str, marks: int) -> tuple[int, ...]:
    """How many characters a run of ``marks`` marks of this kind may stand for (at most MAX_RUN).

    An editor puts one placeholder per lost character, and a digitizer one
    code per home-made glyph; a lossy conversion writes one ``?`` per
    character or one per byte; a decoder one U+FFFD per character or per
    invalid byte (up to three for a UTF-8 character).

    >>> run_widths("placeholder", 3), run_widths("question_mark", 2), run_widths("replacement_char", 3)
    ((3,), (1, 2), (1, 2, 3))
    """
    if kind in EXACT_FORM_KINDS:
        return (1,)
    if kind == "question_mark":
        widths = {marks, marks // 2} if marks % 2 == 0 else {marks}
    elif kind == "replacement_char":
        widths = set(range(-(-marks // 3), marks + 1))
    else:
        widths = {marks}
    return tuple(sorted(w for w in widths if 1 <= w <= MAX_RUN))


def _pooled_best(totals: np.ndarray, out_chars: list[str], temperature: float) -> tuple[str, float]:
    post = posterior(totals, temperature)
    pooled: dict[str, float] = defaultdict(float)
    for p, c in zip(post, out_chars, strict=True):
        pooled[c] += p
    best = max(pooled, key=pooled.__getitem__)
    return best, pooled[best]


def fill(
    text: str,
    edits: Sequence[Edit],
    lm: CharLM,
    *,
    min_confidence: float,
    script: str,
    cache_texts: Sequence[str] = (),
    witnesses: WitnessIndex | None = None,
    glyphs: GlyphTable | None = None,
    same_edition: bool = False,
) -> list[Edit]:
    """The edits with fillable spans ranked, and applied where confident.

    ``same_edition``: the witnesses are copies of the same edition, so a
    character they lack is a loss, not a variant reading.
    """
    slots = [i for i, e in enumerate(edits) if (e.kind in FILLABLE and not e.applied) or _lost_gaps(e)]
    if not slots:
        return list(edits)
    clean = clean_text(text, edits)
    masked = masked_text(text, edits)
    # The script the fills are written in: the document's, judged on its clean
    # text with any evidence at all (a short text still has a script).
    simplified = (script if script != "neutral" else script_of(clean)) == "simplified"
    page = narrow_code_page(clean)
    cache = CacheModel([to_traditional(t) if simplified else t for t in (clean, *cache_texts)])
    # Witnesses: the document's own clean text, plus any batch or reference texts.
    # The document's own clean text is a weaker witness than another copy: its
    # parallel phrases (間一歲則覜之…則省之) match a context with another
    # character, so the two kinds are counted apart.  (Only the contexts of
    # this document's gaps are indexed: lookups need no more.)
    own = WitnessIndex([clean], only=_gap_keys(masked, edits))
    # Each gap's two-sided context (traditional Han, cut at other gaps), read once.
    context_of = {
        i: (to_traditional(left_context(masked, edits[i].start)), to_traditional(right_context(masked, edits[i].end)))
        for i in slots
    }
    if page is not None and _page_refuted(edits, slots, context_of, page, simplified, witnesses, own):
        # Another copy fills a ``?`` with a character the page holds: this
        # document's marks are not that page's losses (a home-made glyph lost
        # in a later conversion becomes ``?`` too), so they are not narrowed.
        page = None
    joint = (
        _joint_witnesses(masked, edits, slots, context_of, lm, page, simplified, witnesses)
        if witnesses is not None
        else {}
    )
    # Group recurring codes: one decision per private-use point or symbol.
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i in slots:
        e = edits[i]
        kind = LOST_GAPS if _lost_gaps(e) else e.kind
        key = (kind, e.before) if kind in ("private_use", "foreign_symbol") else (kind, f"#{i}")
        groups[key].append(i)
    out = list(edits)
    starts = sorted(e.start for e in edits)
    for (kind, _), members in groups.items():
        exact = kind in EXACT_FORM_KINDS
        # The script fills are written in: the document's, unless the channel names the form.
        simp = simplified and not exact
        run = edits[members[0]].before
        cands, form_of = _channel_candidates(lm, kind, run, page, simplified)
        if not cands:
            continue
        widths = (_lost_gaps(edits[members[0]]),) if kind == LOST_GAPS else run_widths(kind, len(run))
        # Other copies are asked at every width the run may stand for; the
        # document's own text only about single characters (it is listed, never deciding).
        seen_at: dict[int, Counter[str]] = {w: Counter() for w in widths}
        seen_own: Counter[str] = Counter()
        contexts = [context_of[i] for i in members]
        for left, right in contexts:
            if 1 in widths:
                seen_own.update(own.lookup(left, right))
            for w in widths:
                seen_at[w].update(other_copies(witnesses, own, left, right, w))
        channel = channel_of(kind, page)
        shown: list[Candidate] = []
        raw_p, calibration = 0.0, None
        if 1 in widths:
            shown, raw_p, calibration = _ranked_singles(lm, contexts, cands, cache, form_of if exact else None, simp)
        # The model decides only what is one character (a single mark, or a
        # mark with its surviving byte): calibration saw nothing else.
        # A run of marks may be several characters, whose best readings are
        # listed for the reader beside any one-character ones.
        best_p = calibrated(raw_p if widths == (1,) else 0.0, channel)
        for w in widths:
            if w > 1:
                shown += _readings(lm, contexts[0], cands, w, simp, cache)
        if not shown:
            continue
        # Other copies decide when they agree with each other (and, for one
        # character, with the document's own text), and only where a single
        # width has answers: a run that some copies fill with one character
        # and some with two stays undecided.  Copies agree when they write the
        # same character in either script (an exact-form channel then picks
        # the form its bytes allow).
        agree = simp or exact
        answered = [w for w in widths if seen_at[w]]
        witness = None
        if len(answered) == 1:
            w = answered[0]
            witness = unanimous(seen_at[w] + (seen_own if w == 1 else Counter()), agree)
        if witness is None and witnesses is not None and kind in ("private_use", "foreign_symbol"):
            # A code that recurs close by cuts its own contexts (薛ス薛ス): try
            # each candidate in every occurrence at once.
            witness = _recurring_witness(text, edits, [edits[i] for i in members], cands, witnesses, simp)
        if witness is None and len(members) == 1 and members[0] in joint:
            witness = joint[members[0]]
        if witness is not None and exact:
            # Another copy may write the character in another script or form;
            # it decides only through the one candidate the bytes allow.
            witness = _in_channel(witness, tuple(form_of.values()))
        # The mark and the character after it may be one glyph in two codes
        # (repair.fill.code_pairs): asked only when no copy reads the mark alone.
        pairable = kind in PAIR_KINDS and len(run) == 1 and not any(seen_at.values())
        part = common_following_char(text, edits, members, starts) if pairable else None
        pair = pair_reading(part, contexts, witnesses, own, simp) if witness is None and part is not None else None
        reported_pair = None
        if pair is not None and not same_edition and len(members) == 1:
            # One occurrence, against copies that may be another edition:
            # they may just lack the character after the mark (a variant
            # reading), so the pair is reported, not read.
            reported_pair, pair = pair, None
        own_witness = unanimous(seen_own, simp) if not any(seen_at.values()) else None
        if own_witness is not None and all(c.text != own_witness[0] for c in shown):
            # Listed for the reader, never deciding (see OWN_WITNESS).
            shown = [*shown, Candidate(own_witness[0], float(own_witness[1]), f"own-text witness ×{own_witness[1]}")]
        glyph = glyphs.get(edits[members[0]].before) if glyphs is not None and kind in GLYPH_KINDS else None
        if glyph is None and witness is None and pair is None and part is not None and glyphs is not None:
            # The table may know the two codes together.
            glyph = glyphs.get(run + part)
            spelled_with = part if glyph is not None else None
        else:
            spelled_with = pair.part if pair is not None else None
        # The mark's own confidence, should a reading of it with the next
        # character (below) be left unapplied.
        mark_p = best_p
        if pair is not None:
            best_p = WITNESS_CONFIDENCE
            others = [c for c in shown if c.text != pair.char][: TOP - 1]
            shown = [
                Candidate(pair.char, float(pair.count), f"witness ×{pair.count}, with the {pair.part} after it"),
                *others,
            ]
        if glyph is not None and witness is None and pair is None:
            # The digitization's table says what this code is.
            best_p = glyph.confidence
            others = [c for c in shown if c.text != glyph.char][: TOP - 1]
            shown = [Candidate(glyph.char, float(glyph.occurrences), f"glyph table ({glyph.source})"), *others]
        if witness is not None:
            # Every witness puts the same character in the gap: that decides,
            # with the confidence witnesses earned in calibration.
            char, count = witness
            best_p = WITNESS_CONFIDENCE
            others = [c for c in shown if c.text != char][: TOP - 1]
            shown = [Candidate(char, float(count), f"witness ×{count}"), *others]
        applied = best_p >= min_confidence
        pair_detail: dict = {}
        if reported_pair is not None:
            pair_detail = {
                "pair_reading": reported_pair.char,
                "pair_witnesses": reported_pair.count,
                "pair_with": reported_pair.part,
            }
        if spelled_with is not None:
            # A reading of the mark with the character after it: applied, it
            # takes that character in; left marked, it is listed in the
            # detail with its confidence, not among the mark's own candidates,
            # and the mark keeps its own confidence.
            pair_detail = {"spelled_with": spelled_with, "pair_reading": shown[0].text}
            if not applied:
                pair_detail["pair_confidence"] = best_p
                pair_detail["pair_source"] = "witness" if pair is not None else "glyph table"
                best_p = mark_p
                shown = shown[1:]
                if not shown:
                    continue
        for i in members:
            e = edits[i]
            if spelled_with is not None and applied:
                e = replace(e, end=e.end + 1, before=e.before + spelled_with)
            out[i] = replace(
                e,
                candidates=tuple(shown),
                confidence=best_p,
                applied=applied or kind == LOST_GAPS,  # the marks stay written
                after=shown[0].text if applied else e.after if kind == LOST_GAPS else e.before,
                detail={
                    **e.detail,
                    "channel": channel,
                    "occurrences": len(members),
                    **pair_detail,
                    **(
                        {"raw_posterior": round(raw_p, 4), "best_by_temperature": calibration}
                        if calibration is not None
                        else {}
                    ),
                },
                note=(f"{e.note}; " if kind == LOST_GAPS else "")
                + (
                    f"filled by {_evidence(witness or pair, glyph)} (p={best_p:.3f}"
                    + (f", {len(members)} occurrences decided together" if len(members) > 1 else "")
                    + ")"
                    if applied
                    else f"left marked: best candidate {shown[0].text} at p={best_p:.3f}"
                ),
            )
    return out


def _channel_candidates(
    lm: CharLM, kind: str, run: str, page: str | None, simplified: bool
) -> tuple[tuple[str, ...], dict[str, str]]:
    """The candidates the channel allows for a gap (as the model knows them),
    and for an exact-form channel how each is written."""
    if kind not in EXACT_FORM_KINDS:
        return lm.known(candidate_set(kind, page, simplified)), {}
    # Written as the bytes name them, scored as the model knows them: in a
    # simplified document through the traditional form, as its context is (𪸩 as 煇).
    form_of: dict[str, str] = {}
    for w in split_candidates(run, page):
        scored = to_traditional(w) if simplified else w
        scored = scored if scored in lm else w if w in lm else ""
        if scored:
            form_of.setdefault(scored, w)
    return tuple(form_of), form_of


def _lost_gaps(e: Edit) -> int:
    """How many characters an edit marked as lost, when it only marked them (else 0)."""
    n = e.detail.get(LOST_GAPS)
    return n if isinstance(n, int) and 1 <= n <= MAX_RUN and e.applied and not e.candidates[1:] else 0


def _joint_witnesses(
    masked: str,
    edits: Sequence[Edit],
    slots: Sequence[int],
    context_of: dict[int, tuple[str, str]],
    lm: CharLM,
    page: str | None,
    simplified: bool,
    witnesses: WitnessIndex,
) -> dict[int, tuple[str, int]]:
    """Gaps decided together with a neighbour that cuts their context.

    Two gaps a character or two apart leave each other too little context for
    a witness (杙�6�7謂�3�7古文).  Each such gap is looked up with its
    neighbour as a wildcard: every character the neighbour's channel allows is
    tried in its place, and the gap is decided only if exactly one of them
    makes the context witnessed and the copies agree on what fills the gap.
    Only one-character gaps are paired, and only with one neighbour.  A text
    that holds the wildcard's code point itself is not searched so.
    """
    found: dict[int, tuple[str, int]] = {}
    if SENTINEL in masked:
        return found
    single = [i for i in slots if run_widths(edits[i].kind, len(edits[i].before)) == (1,)]
    for i in single:
        left, right = context_of[i]
        short_left, short_right = len(left) < witnesses.side, len(right) < witnesses.side
        if short_left == short_right:
            continue  # enough context already, or cut on both sides
        e = edits[i]
        # The nearest one-character gap on the short side (j == i is never on it).
        if short_left:
            j = max((k for k in single if edits[k].end <= e.start), key=lambda k: edits[k].end, default=None)
        else:
            j = min((k for k in single if edits[k].start >= e.end), key=lambda k: edits[k].start, default=None)
        if j is None:
            continue
        n = edits[j]
        # Every gap stays masked but the neighbour, which becomes the wildcard
        # (the gap's own span lies outside its two contexts).
        read = masked[: n.start] + SENTINEL + masked[n.end :]
        shift = (n.end - n.start - 1) if n.start < e.start else 0
        key = context_key(
            to_traditional(left_context(read, e.start - shift)),
            to_traditional(right_context(read, e.end - shift)),
            witnesses.side,
        )
        if key is None or key.count(SENTINEL) != 1:
            continue
        neighbour, _ = _channel_candidates(lm, n.kind, n.before, page, simplified)
        answers = _wildcard_fills([key], neighbour, witnesses)
        if len(answers) == 1:
            (fills,) = answers.values()
            agreed = unanimous(fills, simplified or e.kind in EXACT_FORM_KINDS)
            if agreed is not None:
                found[i] = agreed
    return found


def _page_refuted(
    edits: Sequence[Edit],
    slots: Sequence[int],
    context_of: dict[int, tuple[str, str]],
    page: str,
    simplified: bool,
    witnesses: WitnessIndex | None,
    own: WitnessIndex,
) -> bool:
    """Whether other copies fill any ``?`` of the document with a character ``page`` holds."""
    for i in slots:
        if edits[i].kind == "question_mark" and len(edits[i].before) == 1:
            agreed = unanimous(other_copies(witnesses, own, *context_of[i]), simplified)
            if agreed is not None and encodable(agreed[0], page):
                return True
    return False


def gap_keys(text: str, edits: Sequence[Edit], side: int = 4) -> set[str]:
    """The witness keys (context on both sides, traditional Han) of a text's fillable gaps."""
    return _gap_keys(masked_text(text, edits), edits, side)


def _gap_keys(masked: str, edits: Sequence[Edit], side: int = 4) -> set[str]:
    keys = set()
    for e in edits:
        if e.kind in FILLABLE and not e.applied:
            left, right = left_context(masked, e.start), right_context(masked, e.end)
            key = context_key(left, right, side)
            if key is not None:
                keys.add(key)
            if e.kind in PAIR_KINDS and len(e.before) == 1 and right[:1] == masked[e.end : e.end + 1]:
                # Also past the next character: the mark may be half of a glyph in two codes.
                key = context_key(left, right[1:], side)
                if key is not None:
                    keys.add(key)
    return keys


# A Han code point that stands for "this code" while contexts are read
# (U+9FFF: last of the main block, absent from the model and the corpus).
SENTINEL = "\u9fff"


def _recurring_witness(
    text: str,
    edits: Sequence[Edit],
    members: Sequence[Edit],
    cands: Sequence[str],
    witnesses: WitnessIndex,
    simplified: bool,
) -> tuple[str, int] | None:
    """The one candidate that, written at every occurrence of a code, makes
    every occurrence's context witnessed with itself; None unless exactly one does.

    Only contexts that hold the code itself are worth this: the plain lookup
    has already failed for the others.
    """
    code = members[0].before
    if len(code) != 1:
        return None
    # Contexts are read within 4·CONTEXT characters of a gap: occurrences
    # farther apart than that cannot hold each other (the common case, and
    # then nothing below is worth computing).
    starts = sorted(e.start for e in members)
    if all(b - a > 4 * CONTEXT for a, b in pairwise(starts)) or SENTINEL in text:
        return None
    spans = {(e.start, e.end) for e in members}
    # The other gaps stay masked; this code's occurrences become the sentinel.
    others = [e for e in edits if (e.start, e.end) not in spans]
    read = masked_text(text, others).replace(code, SENTINEL)
    found_keys = (context_key(left_context(read, e.start), right_context(read, e.end), witnesses.side) for e in members)
    keys = [key for key in found_keys if key is not None]
    if not any(SENTINEL in key for key in keys):
        return None
    found = {
        c: sum(fills.values()) for c, fills in _wildcard_fills(keys, cands, witnesses).items() if set(fills) == {c}
    }
    if len(found) != 1:
        return None
    ((char, count),) = found.items()
    return (to_simplified(char) if simplified else char), count


def _wildcard_fills(keys: Sequence[str], cands: Sequence[str], witnesses: WitnessIndex) -> dict[str, Counter[str]]:
    """For each candidate written at the wildcard (SENTINEL) of ``keys``, what
    other copies put in the gaps those keys are the contexts of; only the
    candidates with any answer."""
    answers: dict[str, Counter[str]] = {}
    for c in cands:
        folded = fold(c)
        fills: Counter[str] = Counter()
        for key in keys:
            fills.update(witnesses.fills.get(key.replace(SENTINEL, folded), ()))
        if fills:
            answers[c] = fills
    return answers


def _ranked_singles(
    lm: CharLM,
    contexts: Sequence[tuple[str, str]],
    cands: Sequence[str],
    cache: CacheModel,
    form_of: dict[str, str] | None,
    simplified: bool,
) -> tuple[list[Candidate], float, dict[str, list]]:
    """The best single characters for a gap (or a code's every occurrence,
    whose scores add up), their raw posterior, and the best at each
    temperature calibration tries.

    ``form_of`` maps an exact-form channel's candidates (as the model knows
    them) to how they are written; otherwise fills are written in the
    document's script, and traditional forms that simplify to the same
    character (爲 為 → 为) pool their mass.
    """
    # Only a shortlist is scored in full (see CharLM.shortlist); the union
    # over a code's occurrences, so that their scores add up per candidate.
    short: set[int] = set()
    for left, right in contexts:
        short.update(lm.shortlist(left, cands, right, SHORTLIST, cache=cache))
    cands = tuple(cands[j] for j in sorted(short))
    totals = np.zeros(len(cands))
    for left, right in contexts:
        totals += lm.score_candidates(left, cands, right, cache=cache, weight=CACHE_WEIGHT)
    if form_of is not None:
        out_chars = [form_of[c] for c in cands]
    else:
        out_chars = [to_simplified(c) for c in cands] if simplified else list(cands)
    pooled: dict[str, list[float]] = {}
    for p, s, c in zip(posterior(totals), totals, out_chars, strict=True):
        acc = pooled.setdefault(c, [0.0, s])
        acc[0] += p
        acc[1] = max(acc[1], s)
    ranked = sorted(((p, s, c) for c, (p, s) in pooled.items()), reverse=True)[:TOP]
    shown = [Candidate(c, round(float(s), 3), f"lm p={p:.3f}") for p, s, c in ranked]
    calibration = {str(t): list(_pooled_best(totals, out_chars, t)) for t in CALIBRATION_TEMPERATURES}
    return shown, float(ranked[0][0]), calibration


# Readings of a run of marks as several characters: a beam of this width,
# each position's options conditioned on the likeliest reading so far, drawn
# from the channel's READING_POOL most frequent characters.  They are listed
# for the reader, never applied, and a full vocabulary pass per position made
# a run of three U+FFFD (widths 1, 2 and 3) cost six passes instead of one.
RUN_BEAM = 20
READINGS_SHOWN = 3
READING_POOL = 3000


def _readings(
    lm: CharLM, context: tuple[str, str], cands: Sequence[str], width: int, simplified: bool, cache: CacheModel
) -> list[Candidate]:
    """The best ``width``-character fillings of a run (candidates for the report, never applied)."""
    left, right = context
    cands = cands[:READING_POOL]
    beam, scores = [""], [0.0]
    for pos in range(width):
        after = right if pos == width - 1 else ""
        options = [cands[j] for j in lm.shortlist(left + beam[0], cands, after, RUN_BEAM)]
        grown = [b + c for b in beam for c in options]
        if not grown:
            return []
        scores = lm.score_candidates(left, grown, after, cache=cache, weight=CACHE_WEIGHT)
        best = sorted(zip(scores, grown, strict=True), reverse=True)[:RUN_BEAM]
        scores, beam = [s for s, _ in best], [g for _, g in best]
    return [
        Candidate(to_simplified(text) if simplified else text, round(score, 3), f"lm, {width} characters")
        for score, text in zip(scores[:READINGS_SHOWN], beam[:READINGS_SHOWN], strict=True)
    ]


def _evidence(witness: object, glyph: object) -> str:
    return "exact-context witnesses" if witness else "the glyph table" if glyph else "the language model"


def _in_channel(witness: tuple[str, int], allowed: Sequence[str]) -> tuple[str, int] | None:
    """The witnessed character in the form the channel allows, if exactly one allowed form folds to it."""
    char, count = witness
    forms = [c for c in allowed if fold(c) == fold(char)]
    return (forms[0], count) if len(forms) == 1 else None


def clean_text(text: str, edits: Sequence[Edit]) -> str:
    """The document with every detected span cut out (for the cache, the own-text
    witnesses and the code page).  Each span leaves cut marks: a line break
    alone would let the Han projection join the two sides, and the document
    would then seem to witness its own gap with the character after it."""
    return _masked(text, edits)
