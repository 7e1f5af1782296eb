"""Look-alike swaps: a real character standing where its twin belongs (己 for 已, 日 for 曰).

An OCR engine confuses characters that differ by a stroke; the result is a
real character, so nothing but context can tell.  The confusion sets are data
(``repair.families.needs_model.LOOKALIKE_SETS``).  For each character of the
document that belongs to a set, the model compares it with its twins in
context on both sides.  A twin must win against the prior odds of a swap
(``SWAP_PRIOR``): clean text, where every such character is what it seems, is
the common case and must stay as it is.  A twin that wins is reported; it is
written only at the calibrated confidence threshold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from repair.families.needs_model import LOOKALIKE_SETS
from repair.fill.ranker import left_context, observed_accuracy, posterior, right_context
from repair.lm.model import CharLM
from repair.lm.tokens import to_traditional, to_traditional_each
from repair.types import Candidate, Edit

# Log10 prior odds that a character of a confusion set is a swap rather than
# itself, and the temperature of the posterior; fitted by
# benchmarks/calibrate_lookalikes.py (seed 1, 600 documents, 38,391 clean
# positions of set characters, 324 swaps).  At -2 the check raises 172 false
# alarms on clean positions; at -7 it raises 2 (both one corpus passage, 相殤玉鑠,
# where the prince's title is 王: arguably a corpus error) and finds 61 swaps.
SWAP_PRIOR = -7.0
TEMPERATURE = 1.0
# (lower bound of raw posterior of the twin, cases, right), read as (right+1)/(n+2).
# Below 0.99: 39 right of 41 on the synthetic documents, plus 9 flags on 285,172
# characters of held-out clean text (traditional and simplified), all counted
# wrong although most are errors of the corpus itself (為干偽翻 for 于偽翻,
# 治鎔 for 冶鎔) and one a variant (辨/辯): so reported, not applied.
# From 0.99: 22 right of 22, and no flag on the clean text.
RELIABILITY: tuple[tuple[float, int, int], ...] = ((0.0, 50, 39), (0.99, 22, 22))
# A twin is reported (left marked) from this raw posterior on; below, nothing is said.
REPORT_AT = 0.5
# Context needed on the two sides together before the model is asked at all.
MIN_CONTEXT = 4
# Any character of a confusion set: where the check looks.
SET_RE = re.compile("[" + "".join(sorted({ch for group in LOOKALIKE_SETS for ch in group})) + "]")


@lru_cache(maxsize=1)
def twins() -> dict[str, tuple[str, ...]]:
    """Each character of a confusion set → the others of its set.

    >>> twins()["己"]
    ('已', '巳')
    """
    out: dict[str, tuple[str, ...]] = {}
    for group in LOOKALIKE_SETS:
        for ch in group:
            out[ch] = tuple(dict.fromkeys(out.get(ch, ()) + tuple(x for x in group if x != ch)))
    return out


def calibrated(raw: float) -> float:
    return observed_accuracy(raw, RELIABILITY)


@lru_cache(maxsize=256)
def _candidates(ch: str) -> tuple[list[str], list[str]]:
    """The character and its twins, as written and as the model sees them (computed once per character)."""
    cands = [ch, *twins()[ch]]
    return cands, [to_traditional(c) for c in cands]


def judge(lm: CharLM, left: str, ch: str, right: str) -> tuple[list[str], np.ndarray]:
    """The character and its twins, and the posterior over them (the prior applied)."""
    cands, projected = _candidates(ch)
    scores = np.asarray(lm.score_candidates(to_traditional(left), projected, to_traditional(right)))
    scores[1:] += SWAP_PRIOR
    return cands, posterior(scores, TEMPERATURE)


def _slots(text: str, edits: Sequence[Edit]) -> list[tuple[int, str, str]]:
    """(offset, left context, right context) of each set character outside the
    edits that has enough context for the model to be asked."""
    taken = sorted((e.start, e.end) for e in edits)
    slots = []
    k = 0
    for m in SET_RE.finditer(text):
        i = m.start()
        while k < len(taken) and taken[k][1] <= i:
            k += 1
        if k < len(taken) and taken[k][0] <= i < taken[k][1]:
            continue  # inside another repair
        left, right = left_context(text, i), right_context(text, i + 1)
        if len(left) + len(right) >= MIN_CONTEXT:
            slots.append((i, left, right))
    return slots


def check(text: str, edits: Sequence[Edit], lm: CharLM, *, min_confidence: float) -> list[Edit]:
    """The edits plus a look-alike edit wherever a twin wins in context.

    ``judge`` reports a twin only where it is the posterior's argmax, that is
    where its score plus the swap prior exceeds the character's own (a tie
    goes to the character).  In clean text almost no twin comes near, so that
    is asked of the model first (``CharLM.outscored``: the same scores, each
    twin given up as soon as it falls behind, most before their first term)
    and ``judge`` runs only where the answer is yes, about one position in a
    thousand: skipping the others changes nothing.  The contexts of all
    positions are projected to traditional script in one call.
    """
    slots = _slots(text, edits)
    projected = to_traditional_each([piece for _, left, right in slots for piece in (left, right)])
    found: list[Edit] = []
    for (i, left, right), pleft, pright in zip(slots, projected[::2], projected[1::2], strict=True):
        ch = text[i]
        if not lm.outscored(pleft, _candidates(ch)[1], pright, SWAP_PRIOR):
            continue  # no twin can win: judge would say nothing
        cands, post = judge(lm, left, ch, right)
        best = int(np.argmax(post))
        raw = float(post[best])
        if best == 0 or raw < REPORT_AT:
            continue
        confidence = calibrated(raw)
        applied = confidence >= min_confidence
        ranked = [Candidate(cands[j], round(float(post[j]), 4), "lm, look-alike set") for j in np.argsort(-post)]
        found.append(
            Edit(
                i,
                i + 1,
                ch,
                cands[best] if applied else ch,
                "lookalike",
                confidence,
                tuple(ranked),
                applied,
                note=(f"{'replaced by' if applied else 'may be'} its look-alike {cands[best]} (p={confidence:.3f})"),
                detail={"raw_posterior": round(raw, 4), "set": "".join(cands)},
            )
        )
    return sorted([*edits, *found], key=lambda e: (e.start, e.end))
