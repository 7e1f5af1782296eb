"""Second look at byte-shifted runs: which re-read characters are glued pairs.

A deleted out-of-phase pair glues the first byte of one character to the
second byte of the next, and the result often reads as a common character.
The byte-shift channel flags such suspects with a unigram prior; here the
language model judges them in context: P(glued | c, context) =
π·q / (π·q + (1-π)·P_lm(c | context)), where π is the share of boundaries
that hide a deleted pair and q the chance of any one two-byte code.  A suspect
above GLUED_MARK_LM becomes a hole of two characters, like those the bytes gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from repair.families.byte_shift import glued_posterior
from repair.fill.channel import vocabulary
from repair.fill.ranker import left_context, posterior, right_context
from repair.lm.model import CharLM
from repair.lm.tokens import to_simplified, to_traditional
from repair.types import Edit, Slot

# Stricter than the channel's own mark (0.5): the model prefers the corpus's
# variant forms (逺 for 遠), so a right character in a simplified document can
# look unlikely to it; below this a suspect is kept and listed.
GLUED_MARK_LM = 0.7


@lru_cache(maxsize=4)
def _by_simplified(cands: tuple[str, ...]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        groups.setdefault(to_simplified(c), []).append(i)
    return groups


def lm_probability(lm: CharLM, left: str, char: str, right: str, cands: tuple[str, ...]) -> float:
    """P(char | left, right) over the vocabulary, from the model's slot scores.

    Forms that simplify alike are pooled (遠 and its corpus variant 逺 are one
    character to a reader of 远), as the ranker pools its candidates.
    """
    post = posterior(lm.score_candidates(left, cands, right), temperature=1.0)
    idx = _by_simplified(cands).get(to_simplified(char), [])
    return float(post[idx].sum()) if idx else 0.0


def recheck(text: str, edits: Sequence[Edit], lm: CharLM, placeholder: str) -> list[Edit]:
    cands = lm.known(vocabulary())
    out = list(edits)
    for n, e in enumerate(edits):
        suspects = e.detail.get("suspect_chars") if e.kind == "byte_shift" and e.applied else None
        if not suspects:
            continue
        after, slots = e.after, list(e.slots)
        checked = []
        for s in sorted(suspects, key=lambda s: s["offset"], reverse=True):
            off, char = s["offset"], s["char"]
            if after[off : off + 1] != char:
                continue
            before = text[: e.start] + after[:off]
            left = to_traditional(left_context(before, len(before)))
            right = to_traditional(right_context(after[off + 1 :] + text[e.end :], 0))
            p_lm = lm_probability(lm, left, char, right, cands)
            p_glued = glued_posterior(p_lm)
            checked.append({**s, "p_glued_lm": round(p_glued, 3)})
            if p_glued >= GLUED_MARK_LM:
                after = after[:off] + placeholder * 2 + after[off + 1 :]
                slots = [replace(sl, offset=sl.offset + 1) if sl.offset > off else sl for sl in slots]
                slots.append(
                    Slot(off, 2, 2, "two characters glued by a deleted pair (language model)", {"as_read": char})
                )
        out[n] = replace(
            e,
            after=after,
            slots=tuple(sorted(slots, key=lambda sl: sl.offset)),
            detail={**e.detail, "suspect_chars": sorted(checked, key=lambda s: s["offset"])},
        )
    return out
