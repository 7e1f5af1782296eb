"""Shared machinery of the two re-decoding channels (codec confusion, byte shift).

Both look for the same thing, a stretch of text that is improbable as Chinese
and that becomes probable once its bytes are read another way, and both must
never touch clean text.  This module finds the improbable stretches and holds
the acceptance rule, so the two families differ only in how they re-read bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repair.plausibility import char_logp, text_logp

# A character at or below this prior is evidence of mojibake.
SUSPICIOUS = -5.0
# Clusters of suspicious characters closer than this merge into one stretch.
MAX_GAP = 6
# Acceptance: the re-read text must look like text, and be much more probable
# than what it replaces, per character of the original.
MIN_CANDIDATE_MEAN = -4.6
MIN_GAIN_PER_CHAR = 1.0
MIN_SUSPICIOUS_SHARE = 0.2
# One odd character is a rare word far more often than it is mojibake: a
# re-reading needs several improbable characters and a large total gain
# (log10: the new text must be a million times more probable).
MIN_ORIGINAL_CHARS = 3
MIN_SUSPICIOUS_CHARS = 2
MIN_TOTAL_GAIN = 6.0
MAX_CANDIDATE_SUSPICIOUS_SHARE = 0.1

RUN_RE = re.compile(r"[^\s]+")


@dataclass(frozen=True)
class Stretch:
    """A run of text (no whitespace) and the suspicious region within it."""

    run_start: int
    run_end: int
    start: int
    end: int


def suspicious_stretches(text: str) -> list[Stretch]:
    """Regions worth re-reading: clusters of improbable characters.

    >>> [text[s.start:s.end] for text in ["之乎者也鐢ㄦ埛也"] for s in suspicious_stretches(text)]
    ['鐢ㄦ埛']
    """
    out = []
    for m in RUN_RE.finditer(text):
        run = m.group(0)
        flags = [char_logp(c) <= SUSPICIOUS for c in run]
        if not any(flags):
            continue
        i, n = 0, len(run)
        while i < n:
            if not flags[i]:
                i += 1
                continue
            j = last = i
            while j < n and j - last <= MAX_GAP:
                if flags[j]:
                    last = j
                j += 1
            out.append(Stretch(m.start(), m.end(), m.start() + i, m.start() + last + 1))
            i = last + 1
    return out


def suspicious_share(text: str) -> float:
    return sum(char_logp(c) <= SUSPICIOUS for c in text) / len(text) if text else 0.0


def gain(original: str, candidate: str) -> float:
    """Log10 improvement of the candidate over the original text."""
    return text_logp(candidate) - text_logp(original)


HOLE_LOGP = -4.0


def acceptable(original: str, readable: str, *, holes: int = 0) -> bool:
    """The rule that keeps re-decoding away from clean text.

    ``readable`` is the re-read text without its holes (characters the bytes
    could not give back), each of which is charged as an ordinary character.
    The original must be mostly debris, the re-read text must read like text,
    and the swap must gain a lot per original character.
    """
    if not readable or len(original) < MIN_ORIGINAL_CHARS:
        return False
    suspicious = sum(char_logp(c) <= SUSPICIOUS for c in original)
    if suspicious < MIN_SUSPICIOUS_CHARS:
        return False
    cand_lp = text_logp(readable)
    total = cand_lp + holes * HOLE_LOGP
    return (
        total - text_logp(original) >= MIN_TOTAL_GAIN
        and suspicious / len(original) >= MIN_SUSPICIOUS_SHARE
        and suspicious_share(readable) <= MAX_CANDIDATE_SUSPICIOUS_SHARE
        and cand_lp / len(readable) >= MIN_CANDIDATE_MEAN
        and (total - text_logp(original)) / len(original) >= MIN_GAIN_PER_CHAR
    )
