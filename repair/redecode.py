"""Shared machinery of the two re-decoding channels (codec confusion, byte shift).

Both look for the same thing, a stretch of text that is improbable as Chinese
and that becomes probable once its bytes are read another way, and both must
never touch clean text.  This module finds the improbable stretches and holds
the acceptance rule, so the two families differ only in how they re-read bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from repair.charclass import foreign_symbol_class, unpaired_brackets
from repair.plausibility import char_logp, char_logp_table, script_of, text_logp

# A character at or below this prior is evidence of mojibake.
SUSPICIOUS = -5.0
# Clusters of suspicious characters closer than this merge into one stretch.
MAX_GAP = 6
# Acceptance: the re-read text must look like text, and be much more probable
# than what it replaces, per character of the original.
MIN_CANDIDATE_MEAN = -4.6
# Debris to the extreme may read as modern words the classical table finds rare
# (你好 from ä½\xa0å¥½ averages -4.8): the reading's mean may be this much lower.
EXTREME_MEAN_ALLOWANCE = 0.5
MIN_GAIN_PER_CHAR = 1.0
MIN_SUSPICIOUS_SHARE = 0.2
# One odd character is a rare word far more often than it is mojibake: a
# re-reading needs several improbable characters and a large total gain
# (log10: the new text must be a million times more probable).
MIN_ORIGINAL_CHARS = 3
MIN_SUSPICIOUS_CHARS = 2
MIN_ACCEPT_SUSPICIOUS = 3
MIN_TOTAL_GAIN = 6.0
MAX_CANDIDATE_SUSPICIOUS_SHARE = 0.1
DEBRIS_GAIN_PER_CHAR = 3.0


@dataclass(frozen=True)
class Stretch:
    """A suspicious region and the stretch of its run worth trying around it.

    ``run_start``/``run_end`` are the run (no whitespace) clipped to a window
    around the region, so a 30,000-character paragraph with one rare
    character costs a few lookups, not a re-encoding of the paragraph.
    """

    run_start: int
    run_end: int
    start: int
    end: int
    suspicious: int


# How far around a suspicious region the re-readings look for its edges.
WINDOW = 8


@lru_cache(maxsize=1)
def _suspicious_re() -> re.Pattern[str]:
    """A regex for improbable characters: anything outside the common set.

    Scanning clean text is the fast path, so it is one C-level regex search
    instead of a lookup per character.
    """
    common = {c for c, lp in char_logp_table().items() if lp > SUSPICIOUS}
    common |= {chr(c) for c in range(0x80)}
    ranges = []
    for cp in sorted(ord(c) for c in common):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    body = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"[^{body}]")


def suspicious_stretches(text: str) -> list[Stretch]:
    """Regions worth re-reading: clusters of improbable characters.

    A lone improbable character is a rare word, not mojibake: a region needs
    ``MIN_SUSPICIOUS_CHARS`` of them.  A cluster never crosses white space.

    >>> [text[s.start:s.end] for text in ["之乎者也鐢ㄦ埛也"] for s in suspicious_stretches(text)]
    ['鐢ㄦ埛']
    """
    positions = [m.start() for m in _suspicious_re().finditer(text)]
    out: list[Stretch] = []
    i = 0
    while i < len(positions):
        j = i
        while (
            j + 1 < len(positions)
            and positions[j + 1] - positions[j] <= MAX_GAP
            and not _has_space(text, positions[j], positions[j + 1])
        ):
            j += 1
        count = j - i + 1
        if count >= MIN_SUSPICIOUS_CHARS:
            start, end = positions[i], positions[j] + 1
            run_start, run_end = _run_bounds(text, start, end)
            out.append(Stretch(max(run_start, start - WINDOW), min(run_end, end + WINDOW), start, end, count))
        i = j + 1
    return out


# Separators a mojibake run never contains.  NBSP (byte A0) and NEL (85)
# are not among them: cp1252/Latin-1 mojibake of UTF-8 is full of them.
SEPARATORS = frozenset("\t\n\v\f\r \u3000\u2028\u2029")


def _has_space(text: str, a: int, b: int) -> bool:
    return any(c in SEPARATORS for c in text[a:b])


def _run_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    lo = start
    while lo > 0 and start - lo < WINDOW and text[lo - 1] not in SEPARATORS:
        lo -= 1
    hi = end
    while hi < len(text) and hi - end < WINDOW and text[hi] not in SEPARATORS:
        hi += 1
    return lo, hi


def suspicious_share(text: str) -> float:
    return sum(char_logp(c) <= SUSPICIOUS for c in text) / len(text) if text else 0.0


def gain(original: str, candidate: str) -> float:
    """Log10 improvement of the candidate over the original text."""
    return text_logp(candidate) - text_logp(original)


HOLE_LOGP = -4.0


# Characters a re-reading of text never produces: controls, format and
# combining marks, private use, vertical and small punctuation forms.
# ︰ (U+FE30) is the exception among the vertical forms: traditional editions
# print it as a colon (優旃曰︰「善。), 826 times in the corpus.
FOREIGN_TO_TEXT_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u0300-\u036f\u200b-\u200f\ue000-\uf8ff\ufe10-\ufe2f\ufe31-\ufe6f]"
)
LATIN_RE = re.compile("[\u00a0-\u02ff]")
# A re-reading in the other script than the document's needs this much text.
MIN_CROSS_SCRIPT_CHARS = 12


def acceptable(original: str, readable: str, *, holes: int = 0, doc_script: str = "neutral") -> bool:
    """The rule that keeps re-decoding away from clean text.

    ``readable`` is the re-read text without its holes (characters the bytes
    could not give back), each of which is charged as an ordinary character.
    The original must be mostly debris; the re-read text must read like text
    of this document (no control or vertical-form debris, no Latin letters
    that were not there, the document's own script unless the stretch is
    long); and the swap must gain a lot per original character.
    """
    if not readable or len(original) < MIN_ORIGINAL_CHARS:
        return False
    odd = [c for c in original if char_logp(c) <= SUSPICIOUS]
    suspicious = len(odd)
    # Three different improbable characters: a doubled rare word (獶獶) is not
    # debris, and neither is a run of one symbol row (ㄅㄆㄇ, a kana word).
    # A bracket without its partner counts as one (GBK 其 reads ［ in Big5:
    # 際ㄛ謁［衄曹ㄛ騰敕 is 悔，恐其有变，乃闭 with only ㄛ and 衄 improbable).
    if len(set(odd)) + (unpaired_brackets(original) > 0) < MIN_ACCEPT_SUSPICIOUS:
        return False
    rows = {foreign_symbol_class(c) for c in original}
    if len(rows) == 1 and None not in rows:
        return False
    if FOREIGN_TO_TEXT_RE.search(readable) or any(foreign_symbol_class(c) for c in readable):
        return False
    if any(c.isascii() and c.isalnum() for c in readable) and not any(c.isascii() and c.isalnum() for c in original):
        return False
    # Nor Latin-1 or other Latin symbols (¦ from a UTF-8 tail read in step
    # with the clean character after the run), unless the original had some.
    if LATIN_RE.search(readable) and not LATIN_RE.search(original):
        return False
    cand_lp = text_logp(readable)
    total = cand_lp + holes * HOLE_LOGP
    gained = total - text_logp(original)
    # Rare characters in the reading: at most a tenth, unless the original
    # is debris to the extreme (Latin mojibake of UTF-8 costs about 6 log10
    # per character more than its reading; clean text, even dense with rare
    # characters, cannot lose 3 per character to any reading that passes the
    # mean below).  A sentence of such mojibake may well name 裙, 牏 and 浣.
    extreme = gained / len(original) >= DEBRIS_GAIN_PER_CHAR
    rare = sum(char_logp(c) <= SUSPICIOUS for c in readable)
    if not extreme and rare > max(1, MAX_CANDIDATE_SUSPICIOUS_SHARE * len(readable)):
        return False
    if doc_script != "neutral" and len(original) < MIN_CROSS_SCRIPT_CHARS:
        other = "simplified" if doc_script == "traditional" else "traditional"
        if script_of(readable) == other:
            return False
    return (
        gained >= MIN_TOTAL_GAIN
        and suspicious / len(original) >= MIN_SUSPICIOUS_SHARE
        and cand_lp / len(readable) >= MIN_CANDIDATE_MEAN - (EXTREME_MEAN_ALLOWANCE if extreme else 0.0)
        and gained / len(original) >= MIN_GAIN_PER_CHAR
    )
