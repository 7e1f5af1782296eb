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
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from repair.fill.channel import FILLABLE, candidate_set, narrow_code_page
from repair.lm.cache import CacheModel
from repair.lm.model import CharLM
from repair.lm.tokens import CUT_RE, NON_HAN_RE, to_simplified, to_traditional
from repair.types import Candidate, Edit

CONTEXT = 10
# Fitted on the synthetic benchmark (benchmarks/run_benchmark.py): with it the
# posterior of the best candidate tracks how often it is right.
TEMPERATURE = 1.0
CACHE_WEIGHT = 0.1
TOP = 5


def _left_context(text: str, start: int) -> str:
    window = text[max(0, start - 4 * CONTEXT) : start]
    piece = CUT_RE.split(window)[-1]
    return NON_HAN_RE.sub("", piece)[-CONTEXT:]


def _right_context(text: str, end: int) -> str:
    window = text[end : end + 4 * CONTEXT]
    piece = CUT_RE.split(window)[0]
    return NON_HAN_RE.sub("", piece)[:CONTEXT]


def posterior(scores: Sequence[float], temperature: float = TEMPERATURE) -> list[float]:
    """Softmax of log10 scores."""
    if not scores:
        return []
    top = max(scores)
    weights = [math.exp(math.log(10) * (s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def fill(
    text: str,
    edits: Sequence[Edit],
    lm: CharLM,
    *,
    min_confidence: float,
    script: str,
    cache_texts: Sequence[str] = (),
) -> list[Edit]:
    """The edits with fillable spans ranked, and applied where confident."""
    slots = [i for i, e in enumerate(edits) if e.kind in FILLABLE and not e.applied]
    if not slots:
        return list(edits)
    simplified = script == "simplified"
    clean = _clean_text(text, edits)
    page = narrow_code_page(clean)
    cache = CacheModel([to_traditional(t) if simplified else t for t in (clean, *cache_texts)])
    # Group recurring codes: one decision per private-use point or symbol.
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i in slots:
        e = edits[i]
        key = (e.kind, e.before) if e.kind in ("private_use", "foreign_symbol") else (e.kind, f"#{i}")
        groups[key].append(i)
    out = list(edits)
    for (kind, _), members in groups.items():
        cands = [c for c in candidate_set(kind, page, simplified) if c in lm]
        if not cands:
            continue
        totals = [0.0] * len(cands)
        for i in members:
            e = edits[i]
            left, right = _left_context(text, e.start), _right_context(text, e.end)
            if simplified:
                left, right = to_traditional(left), to_traditional(right)
            scores = lm.score_candidates(left, cands, right, cache=cache, weight=CACHE_WEIGHT)
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        # The posterior is over what would be written: traditional forms that
        # simplify to the same character (爲 為 → 为) pool their mass.
        pooled: dict[str, list[float]] = {}
        for p, s, c in zip(posterior(totals), totals, cands, strict=True):
            out_c = to_simplified(c) if simplified else c
            acc = pooled.setdefault(out_c, [0.0, s])
            acc[0] += p
            acc[1] = max(acc[1], s)
        ranked = sorted(((p, s, c) for c, (p, s) in pooled.items()), reverse=True)[:TOP]
        best_p = ranked[0][0]
        shown = [Candidate(c, round(s, 3), f"lm p={p:.3f}") for p, s, c in ranked]
        for i in members:
            e = edits[i]
            applied = best_p >= min_confidence
            out[i] = replace(
                e,
                candidates=tuple(shown),
                confidence=best_p,
                applied=applied,
                after=shown[0].text if applied else e.before,
                note=(
                    f"filled by the language model (p={best_p:.3f}"
                    + (f", {len(members)} occurrences decided together" if len(members) > 1 else "")
                    + ")"
                    if applied
                    else f"left marked: best candidate {shown[0].text} at p={best_p:.3f}"
                ),
            )
    return out


def _clean_text(text: str, edits: Sequence[Edit]) -> str:
    """The document with every detected span cut out (for the cache and the code page)."""
    parts, pos = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        parts.append(text[pos : e.start])
        parts.append("\n")
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)
