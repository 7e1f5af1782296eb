"""Where a re-read run of mojibake begins and ends, decided by the model in context.

The codec search (``repair.families.codec_confusion``) has no model: it scores
a re-reading by how plausible its characters are, one at a time.  At the two
ends of a run that is not enough.  Big5 read as GBK often turns a garbled
character into a common one (the run then starts a character late), and a
clean character just before a run can re-read into another real character
(the run starts a character early).  Either way one character comes out
wrong.  Here each end of an applied re-reading is moved by one character
either way (the start also two back: Big5 宴宴 reads as GBK 産産, two common
characters), the same codec re-reads the new stretch, and the model scores
each version with ``CONTEXT`` clean characters around it; a move is taken
only when it beats the detector's choice by ``MARGIN``.

The model sees Han characters only, so a garbled character that reads as a
bracket (GBK 其 is ［ in Big5) costs it nothing, left in or taken out.
Brackets come in pairs, though: of the versions, those that leave the fewest
brackets of the run's line without a partner are kept, and one of them wins
over the detector's choice without the margin if that choice leaves more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from repair.charclass import BRACKET_PAIRS, is_han, unpaired_brackets
from repair.families.codec_confusion import READERS
from repair.lm.model import CharLM
from repair.lm.tokens import han_projection, to_traditional
from repair.types import Edit, Slot

CONTEXT = 8
# Log10 margin a moved end must win by.  Calibrated by
# benchmarks/calibrate_codec_edges.py (seed 1, 600 documents): without the
# check 238 confusion pieces come back exact and 28 wrong; with it, at any
# margin from 0 to 3, 241–242 exact and 24–25 wrong, and no piece the
# detector had right is made wrong.  The wins seen were worth 0.9 to 9.8.
MARGIN = 0.5
MOVES = (-1, 0, 1)
# The start may also move two back, if both characters it takes in read as
# Han.  Seed 1 (600 documents, benchmarks/calibrate_codec_edges.py) is
# unchanged by it; of the lossless confusions of 1,000 documents, seeds 3 and
# 5 got one more piece back each and seed 0 none, with none made wrong.
START_MOVES = (-2, -1, 0, 1)
# How far along its line a run's brackets are paired (a line may be a whole
# chapter: the check stays local).
BRACKET_WINDOW = 200
BRACKETS = frozenset(BRACKET_PAIRS) | frozenset(BRACKET_PAIRS.values())


@cache
def _readers() -> dict[str, object]:
    return {label: fn for label, fn in READERS.items() if not label.endswith("(ftfy)")}


def _score(lm: CharLM, text: str) -> float:
    """Log10 probability of a stretch as the model sees it (unreadable characters cut it)."""
    return sum(lm.sentence_logp(p) for p in han_projection(to_traditional(text)))


def refine(text: str, edits: Sequence[Edit], lm: CharLM, *, placeholder: str, margin: float = MARGIN) -> list[Edit]:
    """The edits with each re-read run's ends moved where the model reads the text best."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out = list(ordered)
    readers = _readers()
    for i, e in enumerate(ordered):
        codecs = e.detail.get("codecs", ())
        if (
            e.kind != "codec_confusion"
            or not e.applied
            or len(codecs) != 1
            or codecs[0] not in readers
            or "collation" in e.detail
        ):
            continue
        read = readers[codecs[0]]
        # The previous run may have moved already: bound by where it ends now.
        lo = out[i - 1].end if i > 0 else 0
        hi = ordered[i + 1].start if i + 1 < len(ordered) else len(text)
        w0, w1 = max(lo, e.start - 2 - CONTEXT), min(hi, e.end + 1 + CONTEXT)
        # The run's line, for pairing brackets.
        a = max(text.rfind("\n", 0, e.start) + 1, e.start - BRACKET_WINDOW)
        b = text.find("\n", e.end)
        b = min(len(text) if b < 0 else b, e.end + BRACKET_WINDOW)
        options: dict[tuple[int, int], tuple[float, str, int]] = {}
        for ds in START_MOVES:
            for de in MOVES:
                s, t = e.start + ds, e.end + de
                if s < lo or t > hi or t - s < 2:
                    continue
                # Only a Han character, or a bracket (which may be a garbled
                # character: see below), may join or leave the run.
                moved = text[min(s, e.start) : max(s, e.start)] + text[min(t, e.end) : max(t, e.end)]
                if not all(is_han(c) or c in BRACKETS for c in moved):
                    continue
                got = read(text[s:t])  # type: ignore[operator]
                if got is None:
                    continue
                reading, _holes = got
                if (ds or de) and reading.count("\ufffd") > e.after.count(placeholder):
                    continue  # a move that loses bytes is not a better reading
                # A character taken in must read as Han: the model does not see
                # anything else (ע, ㄤ, a private-use code would cost nothing).
                if (ds < 0 and not all(map(is_han, reading[:-ds]))) or (de > 0 and not is_han(reading[-1])):
                    continue
                lone = unpaired_brackets(text[a:s] + reading + text[t:b])
                options[(s, t)] = (_score(lm, text[w0:s] + reading + text[t:w1]), reading, lone)
        here = options.get((e.start, e.end))
        if here is None or len(options) < 2:
            continue
        # A bracket with no partner on its line is a garbled character more
        # likely than punctuation (其 in GBK reads ［ as Big5), and the model,
        # which sees Han only, cannot weigh it: a version that leaves fewer
        # brackets unpaired wins without the margin.
        fewest = min(o[2] for o in options.values())
        pool = {k: o for k, o in options.items() if o[2] == fewest}
        (s, t), (score, reading, _) = max(pool.items(), key=lambda kv: kv[1][0])
        if (s, t) == (e.start, e.end) or (here[2] == fewest and score - here[0] < margin):
            continue
        why = f"+{score - here[0]:.1f} log10" if here[2] == fewest else "a bracket paired or left as it was"
        slots = tuple(
            Slot(k, 1, 1, "character whose bytes the confusion lost") for k, ch in enumerate(reading) if ch == "\ufffd"
        )
        after = reading.replace("\ufffd", placeholder)
        out[i] = replace(
            e,
            candidates=tuple(replace(c, text=after) if k == 0 else c for k, c in enumerate(e.candidates)),
            start=s,
            end=t,
            before=text[s:t],
            after=after,
            slots=slots,
            note=f"{e.note}; ends moved by the language model ({why})",
            detail={**e.detail, "detector_span": [e.start, e.end]},
        )
    return out
