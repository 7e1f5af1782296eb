"""Filling the holes of a byte-shifted run from the bytes that survive.

A byte-shifted run re-read in phase still has holes (``repair.families.byte_shift``),
but each hole keeps some of its bytes, and that is a narrow channel:

- the character cut at the start of the run kept its second byte: one of the
  ~100 Han characters of the code page with that trail byte;
- the character cut at the end kept its first byte: one of the ~190 with that
  lead byte;
- two characters glued by a deleted pair kept the first byte of the first and
  the second byte of the second, and the deleted middle pair (the first
  character's trail byte, the second's lead byte) must itself have read as a
  private-use code: a few thousand pairs, not the square of the vocabulary.

The language model ranks what the bytes allow, in the context of the re-read
run and the clean text around it; holes are decided left to right, each one's
best guess feeding the next one's context.  The posterior goes through its own
reliability table (fitted by ``benchmarks/calibrate_byte_holes.py``, seed 1),
since a constrained channel is far sharper than an open slot.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from weakref import WeakKeyDictionary

import numpy as np

from repair.channel.forward import encodable, strict_encode
from repair.channel.tables import private_use_pairs, strict_decode
from repair.fill.byte_witness import hidden, run_reading
from repair.fill.channel import HAN_RE
from repair.fill.collation import run_regions
from repair.fill.ranker import (
    CALIBRATION_TEMPERATURES,
    WITNESS_CONFIDENCE,
    left_context,
    observed_accuracy,
    posterior,
    right_context,
)
from repair.lm.model import CharLM
from repair.lm.tokens import to_simplified_each, to_traditional, to_traditional_each
from repair.types import Candidate, Edit, Slot

# Fitted by benchmarks/calibrate_byte_holes.py (seed 1): see that script's
# output in benchmarks/results/calibration_byte_holes.json.
TEMPERATURE = 1.5
# (lower bound of raw posterior, decisions, right) at that temperature, all
# kinds of decision pooled (holes cut at either end, glued holes, re-read
# characters checked for glue), read as (right+1)/(n+2) like the open-slot
# table in repair.fill.ranker.  Seed 1, 300 documents, 103 runs.
RELIABILITY: tuple[tuple[float, int, int], ...] = (
    (0.0, 93, 32),
    (0.5, 67, 49),
    (0.8, 35, 31),
    (0.9, 48, 46),
    (0.95, 104, 103),
    (0.99, 109, 108),
    (0.999, 135, 135),
)
# A simplified document's lost characters are simplified ones far more often
# than not; the bytes tell the two apart but the model (on the traditional
# projection) cannot.  Log10 penalty for a form a simplified text would not use.
OTHER_SCRIPT_PENALTY = 1.0
TOP = 5
LEAD_BYTES = range(0x81, 0xFF)
TRAIL_BYTES = range(0x40, 0xFF)


@lru_cache(maxsize=4)
def code_page(codec: str) -> dict[tuple[int, int], str]:
    """Every two-byte code of ``codec`` that reads as one unified Han character."""
    table = {}
    for lead in LEAD_BYTES:
        for trail in TRAIL_BYTES:
            ch = strict_decode(bytes((lead, trail)), codec)
            if ch is not None and len(ch) == 1 and HAN_RE.fullmatch(ch):
                table[(lead, trail)] = ch
    return table


@lru_cache(maxsize=4)
def _by_lead(codec: str) -> dict[int, list[tuple[int, str]]]:
    out: dict[int, list[tuple[int, str]]] = {}
    for (lead, trail), ch in code_page(codec).items():
        out.setdefault(lead, []).append((trail, ch))
    return out


@lru_cache(maxsize=4)
def _by_trail(codec: str) -> dict[int, list[tuple[int, str]]]:
    out: dict[int, list[tuple[int, str]]] = {}
    for (lead, trail), ch in code_page(codec).items():
        out.setdefault(trail, []).append((lead, ch))
    return out


def deleted_pair(first: int, second: int, codec: str) -> bool:
    """Whether the out-of-phase pair (first, second) reads as a private-use code (and was dropped).

    >>> deleted_pair(0xAA, 0xA1, "gb18030"), deleted_pair(0xB0, 0xA1, "gb18030")
    (True, False)
    """
    return (first, second) in private_use_pairs(codec)


def _byte(constraint: dict, key: str) -> int | None:
    value = constraint.get(key)
    return int(value, 16) if isinstance(value, str) else None


def candidates(slot: Slot, codec: str) -> list[str]:
    """What the surviving bytes of ``slot`` allow, as text (one or two characters).

    之 is D6 AE and 乎 is BA F5 in GBK; read out of phase, AE BA is a
    private-use code and is dropped, leaving D6 F5 (瞩):

    >>> glued = candidates(Slot(0, 2, 2, "glued", {"as_read": "瞩"}), "gb18030")
    >>> "之乎" in glued, len(glued) < 3000
    (True, True)
    >>> cut = Slot(0, 1, 1, "cut", {"trail_byte": "AE"})
    >>> "之" in candidates(cut, "gb18030")
    True
    """
    c = slot.constraint
    lead, trail = _byte(c, "lead_byte"), _byte(c, "trail_byte")
    if slot.chars == 1 and lead is not None and isinstance(c.get("resync_reader"), str):
        return resynced(lead, _byte(c, "next_byte"), codec, c["resync_reader"])
    if (lead is None or trail is None) and isinstance(c.get("as_read"), str) and len(c["as_read"]) == 1:
        raw = strict_encode(c["as_read"], codec) or b""
        if len(raw) == 2:
            lead, trail = raw[0], raw[1]
    if slot.chars == 1:
        found: list[str] = []
        if lead is not None:
            found = [ch for _, ch in _by_lead(codec).get(lead, ())]
        elif trail is not None:
            found = [ch for _, ch in _by_trail(codec).get(trail, ())]
        reader = c.get("not_in")
        # A lead byte lost to a narrower reader: the character is one it lacks.
        return [ch for ch in found if not encodable(ch, reader)] if isinstance(reader, str) else found
    if slot.chars == 2 and lead is not None and trail is not None:
        return list(_glued(lead, trail, codec))
    return []


@lru_cache(maxsize=4)
def _dropped_after(codec: str) -> dict[int, frozenset[int]]:
    """For each first byte, the second bytes with which it makes a deleted pair."""
    out: dict[int, set[int]] = {}
    for first, second in private_use_pairs(codec):
        out.setdefault(first, set()).add(second)
    return {first: frozenset(seconds) for first, seconds in out.items()}


@lru_cache(maxsize=4096)
def _glued(lead: int, trail: int, codec: str) -> tuple[str, ...]:
    """The pairs of characters a deleted pair glues into (lead, trail), as ``candidates`` lists them."""
    dropped = _dropped_after(codec)
    seconds = _by_trail(codec).get(trail, ())
    out: list[str] = []
    for t1, a in _by_lead(codec).get(lead, ()):
        leads = dropped.get(t1)
        if leads:
            out.extend(a + b for l2, b in seconds if l2 in leads)
    return tuple(out)


# A mark restored at a resync point: the bytes allow a dozen symbols of which
# the document uses one (，among ＊＋－．／ｘｙｚ｛｜｝￣).  Observed on whole
# paragraphs read with a narrower page (benchmarks/narrow_reader.py --seed 1;
# the README's numbers are seed 0): 42 right of 42, read as (42+1)/(42+2).
SYMBOL_CONFIDENCE = 0.977


@lru_cache(maxsize=1024)
def resynced(lead: int, next_byte: int | None, codec: str, reader: str) -> list[str]:
    """Every character (Han or not) of ``codec`` with this lead byte whose trail
    byte, read by ``reader`` as a lead before ``next_byte``, makes an invalid pair:
    where a reader out of step falls back in step.  The table is the whole code
    page: ，(A3 AC in GBK; AC starts no GB2312 pair) is among a dozen symbols.

    >>> "，" in resynced(0xA3, 0xB2, "gb18030", "gb2312"), "；" in resynced(0xA3, 0xB2, "gb18030", "gb2312")
    (True, False)
    """
    found = []
    for trail in range(0x80, 0xFF):
        ch = strict_decode(bytes((lead, trail)), codec)
        if ch is None or len(ch) != 1 or 0xE000 <= ord(ch) <= 0xF8FF:
            continue
        if next_byte is not None and strict_decode(bytes((trail, next_byte)), reader) is not None:
            continue  # a valid pair: the reader would have read on out of step
        found.append(ch)
    return found


# Per model: whether it knows a character's traditional form, and which of a
# set of allowed fills it can score (the same sets come back hole after hole).
_KNOWN: WeakKeyDictionary[CharLM, dict[str, bool]] = WeakKeyDictionary()
_SCOREABLE: WeakKeyDictionary[CharLM, dict[tuple[str, ...], tuple[str, ...]]] = WeakKeyDictionary()
MAX_SCOREABLE = 4096


def _scoreable(lm: CharLM, allowed: Sequence[str]) -> tuple[str, ...]:
    """The fills of ``allowed`` whose every character the model knows (in traditional form), in order."""
    sets = _SCOREABLE.get(lm)
    if sets is None:
        sets = _SCOREABLE[lm] = {}
    key = tuple(allowed)
    got = sets.get(key)
    if got is not None:
        return got
    known = _KNOWN.get(lm)
    if known is None:
        known = _KNOWN[lm] = {}
    out = []
    for c in key:
        for ch in c:
            ok = known.get(ch)
            if ok is None:
                ok = known[ch] = to_traditional(ch) in lm
            if not ok:
                break
        else:
            out.append(c)
    if len(sets) >= MAX_SCOREABLE:
        sets.clear()
    got = sets[key] = tuple(out)
    return got


def calibrated(raw: float) -> float:
    return observed_accuracy(raw, RELIABILITY)


def _scores(lm: CharLM, left: str, cands: list[str], right: str, simplified: bool) -> np.ndarray:
    projected = to_traditional_each(cands)
    scores = np.asarray(lm.score_candidates(left, projected, right))
    # Not the other way: traditional texts of the corpus write 无 盖 黄 too,
    # and penalizing them lost more than it saved (benchmarks/narrow_reader.py).
    if simplified:
        other = np.asarray([s != c for s, c in zip(to_simplified_each(cands), cands, strict=True)])
        scores = scores - OTHER_SCRIPT_PENALTY * other
    return scores


# A re-read character is kept as read only while the model gives the glued
# pairs its bytes allow less than this much: above it, it is marked as a hole
# with its readings (itself first when it is still the likeliest one).
# Measured on seed 1 (600 documents, 3,790 re-read characters the model
# preferred as they were read; the benchmark's seed 0 is not among them):
# kept below 0.3, 3,122 with 20 wrong (0.6%); kept at any level, as before,
# 176 wrong (4.6%), the plausible wrong characters of a repaired run.
GLUED_KEEP = 0.3


def _as_glued(ch: str, codec: str) -> Slot | None:
    """The two-character hole a re-read character would be if a deleted pair glued it."""
    raw = strict_encode(ch, codec)
    if raw is None or len(raw) != 2 or not HAN_RE.fullmatch(ch):
        return None
    return Slot(0, 2, 2, "two characters glued by a deleted pair", {"as_read": ch})


def decode_run(
    text: str, e: Edit, lm: CharLM, *, min_confidence: float, simplified: bool, placeholder: str
) -> tuple[str, list[Slot], list[dict]]:
    """Re-decide a byte-shifted run left to right: each re-read character is
    itself or a glued pair, each hole what its bytes allow."""
    codec = e.detail.get("codec", "gb18030")
    slots = {s.offset: s for s in e.slots}
    out, kept, decided = "", [], []
    pos = 0
    after = e.after
    while pos < len(after):
        slot = slots.get(pos)
        if slot is not None:
            span, glued_check = slot.length, False
        else:
            span = 1
            slot = _as_glued(after[pos], codec) if e.detail.get("deleted_pairs", True) else None
            glued_check = slot is not None
            if slot is None:
                out += after[pos]
                pos += 1
                continue
        allowed = candidates(slot, codec)
        if not glued_check and "resync_reader" in slot.constraint and not any(HAN_RE.match(c) for c in allowed):
            # A symbol row (the reader fell back in step at a mark): of what the
            # bytes allow, the one mark this document uses is the answer.
            used = [c for c in allowed if c in text]
            if len(used) == 1 and SYMBOL_CONFIDENCE >= min_confidence:
                out += used[0]
                decided.append(
                    {
                        "offset": len(out) - 1,
                        "as_read": None,
                        "chars": 1,
                        "constraint": slot.constraint,
                        "allowed": len(allowed),
                        "best": used[0],
                        "candidates": [[c, None] for c in allowed],
                        "confidence": SYMBOL_CONFIDENCE,
                        "applied": True,
                    }
                )
                pos += span
                continue
        cands = list(_scoreable(lm, allowed))
        if glued_check:
            cands = [after[pos], *cands]
        if not cands or (glued_check and len(cands) == 1):
            if glued_check:
                out += after[pos]
            else:
                kept.append(replace(slot, offset=len(out)))
                out += after[pos : pos + span]
            pos += span
            continue
        before = text[: e.start] + out
        left = to_traditional(left_context(before, len(before)))
        right = to_traditional(right_context(after[pos + span :] + text[e.end :], 0))
        scores = _scores(lm, left, cands, right, simplified)
        post = posterior(scores, TEMPERATURE)
        order = np.argsort(-post)[:TOP]
        best, raw = cands[order[0]], float(post[order[0]])
        record = {
            "offset": len(out),
            "as_read": after[pos] if glued_check else None,
            "chars": slot.chars,
            "constraint": slot.constraint,
            "allowed": len(cands),
            "best": best,
            "raw_posterior": round(raw, 4),
            "candidates": [[cands[i], round(float(post[i]), 4)] for i in order],
            "best_by_temperature": {
                str(t): [cands[int(np.argmax(p))], float(p.max())]
                for t in CALIBRATION_TEMPERATURES
                for p in [posterior(scores, t)]
            },
        }
        if glued_check:
            p_glued = 1.0 - float(post[0])
            record["p_glued"] = round(p_glued, 4)
        confidence = calibrated(raw)
        record["confidence"] = round(confidence, 4)
        itself = glued_check and best == after[pos]
        if glued_check and p_glued < GLUED_KEEP:
            out += after[pos]  # itself, or a pair not likely enough to doubt it
            record["applied"] = False
        elif confidence >= min_confidence and not itself:
            out += best
            record["applied"] = True
        else:
            # Marked: a hole the bytes cannot fill surely, or a re-read
            # character that may be a glued pair (one placeholder while it is
            # still likeliest as itself, two when a pair is).
            width = 1 if itself else 2 if glued_check else span
            chars = 1 if itself else slot.chars
            note = "re-read character that may be two glued by a deleted pair" if itself else slot.note
            ranked = record["candidates"]
            kept.append(Slot(len(out), width, chars, note, {**slot.constraint, "candidates": ranked}))
            out += placeholder * width if glued_check else after[pos : pos + span]
            record["applied"] = False
            record["marked"] = True
        pos += span
        decided.append(record)
    return out, kept, decided


def fill_runs(
    text: str,
    edits: Sequence[Edit],
    lm: CharLM,
    *,
    min_confidence: float,
    simplified: bool,
    placeholder: str,
    copies: Sequence[tuple[str, str]] = (),
    alignments: Sequence = (),
    same_edition: bool = False,
) -> list[Edit]:
    """The edits with every byte-shifted run re-decided within what its bytes
    allow: read whole from another copy (``copies``: (text, folded text) of
    each reference; ``alignments``: the document aligned with each, which
    finds the run's place in a copy that differs around it) where one
    stretch of it passes the byte check, else hole by hole by the model.

    A character of the reading that the bytes do not show
    (``byte_witness.hidden``) is the copy's: written only when the copies are
    the same edition, else left marked with the copy's character in the report."""
    out = list(edits)
    starts = sorted(o.start for o in edits)
    ends = sorted(o.end for o in edits)
    for n, e in enumerate(edits):
        # A run the detector was unsure of (not applied) may still be read whole.
        if e.kind != "byte_shift" or not (e.applied or copies):
            continue
        codec = e.detail.get("codec", "gb18030")
        whole = None
        if copies and e.detail.get("deleted_pairs", True):
            # The run's ends may move, but not into another edit: bounded by
            # the last end before it and the first start after it.
            k, j = bisect_right(ends, e.start), bisect_left(starts, e.end)
            lo = ends[k - 1] if k else 0
            hi = starts[j] if j < len(starts) else len(text)
            regions = run_regions(alignments, e.start, e.end)
            whole = run_reading(text, e.start, e.end, codec, copies, simplified, lo=lo, hi=hi, regions=regions)
        if whole is not None and WITNESS_CONFIDENCE >= min_confidence:
            s, t, reading, count = whole
            # What the bytes do not show is the copy's: written only from the same
            # edition, and only as a copy has it (a reading through another form,
            # mark or note may keep a note's character the bytes do not show).
            unseen = [] if same_edition and count else hidden(reading, codec)
            after = "".join(placeholder if i in unseen else c for i, c in enumerate(reading))
            out[n] = replace(
                e,
                start=s,
                end=t,
                before=text[s:t],
                after=after,
                slots=tuple(
                    Slot(
                        i,
                        1,
                        1,
                        note=f"the copy reads {reading[i]} here, which the bytes do not show (or nothing)",
                        constraint={"copy": reading[i]},
                    )
                    for i in unseen
                ),
                applied=True,
                confidence=WITNESS_CONFIDENCE,
                candidates=(
                    Candidate(
                        reading,
                        float(count),
                        f"witness ×{count}, checked byte for byte"
                        if count
                        else "a copy's forms, marks and notes varied, checked byte for byte",
                    ),
                    *e.candidates,
                ),
                detail={
                    **e.detail,
                    "byte_witness": count,
                    "byte_witness_hidden": [reading[i] for i in unseen],
                    **({"detector_span": [e.start, e.end]} if (s, t) != (e.start, e.end) else {}),
                },
                note=f"{e.note}; read whole from another copy whose bytes give back the run exactly"
                + (f", {len(unseen)} character(s) the bytes do not show left marked" if unseen else ""),
            )
            continue
        if not e.applied:
            continue
        after, slots, decided = decode_run(
            text, e, lm, min_confidence=min_confidence, simplified=simplified, placeholder=placeholder
        )
        changed = [r for r in decided if r["applied"] or r.get("marked") or r["best"] != r["as_read"]]
        filled = sum(r["applied"] for r in decided)
        out[n] = replace(
            e,
            after=after,
            slots=tuple(slots),
            candidates=(
                (Candidate(after, e.candidates[0].score if e.candidates else 0.0, "holes filled"), *e.candidates[1:])
                if filled
                else e.candidates
            ),
            detail={**e.detail, "byte_holes": changed},
            note=e.note + (f"; {filled} hole(s) filled from their surviving bytes" if filled else ""),
        )
    return out
