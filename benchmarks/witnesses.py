"""Seeded references that are not exact copies of a document, for the witness benchmark.

Users repair a damaged document against the references they have, and those
are seldom the same edition:

- ``exact``: the document's clean text itself (what ``run_benchmark.py
  --witness`` gives);
- ``edition``: another edition, which writes about 2% of the Han characters
  in another form (爲 for 為, 賔 for 賓: characters of ``repair/variants.py``'s
  table, in the document's script) and punctuates otherwise (、 for ，, a
  full stop dropped or added, 「」 dropped);
- ``interleaved``: the text with notes of 5–40 characters printed every
  10–60 characters, as editions with commentary print them, in （） or inline;
- ``commentary``: a commentary that quotes the text in pieces of 8–40
  characters, in order, some skipped, with 20–120 characters of its own
  between them.

Notes and commentary are cut from held-out paragraphs of other books, in the
document's script.  Everything is drawn from ``random.Random`` seeded with the
seed, the document's number and the kind, so each witness is the same however
many documents or kinds are made.  Nothing here stores corpus text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from corrupt import SIMPLIFIED, CorruptedDocument, is_han

from repair.lm.tokens import to_simplified, to_traditional
from repair.variants import pair_sources, variants_of

KINDS: tuple[str, ...] = ("exact", "edition", "interleaved", "commentary")

VARIANT_SHARE = 0.02
# The variant table's sources whose pairs are forms editions print for one
# another (OpenCC's regional variants and allographs, Unihan's z-variants,
# the supplement).  Semantic variants and the simplification tables join
# words that only share some senses (只/子, 二/貳, 干/幹): no edition swaps them.
EDITION_SOURCES = frozenset({"tw", "hk", "jp", "allo", "z", "extra"})
# Marks an edition punctuates otherwise, and what it may write instead ("" drops the mark).
PUNCT_CHANGES: dict[str, tuple[str, ...]] = {
    "，": ("、", "。", "；", ""),
    "、": ("，", ""),
    "。": ("，", "；", ""),
    "；": ("，", "。"),
    "：": ("，", ""),
    "！": ("。",),
    "？": ("。",),
    "「": ("",),
    "」": ("",),
}
PUNCT_CHANGE_SHARE = 0.15
# Marks added between two Han characters, per pair.
PUNCT_ADD_SHARE = 0.01
PUNCT_ADDED = "，，，。、；"

NOTE_LEN = (5, 40)
NOTE_EVERY = (10, 60)
PIECE_LEN = (8, 40)
COMMENT_LEN = (20, 120)
SKIP_SHARE = 0.25
# Characters a note never holds: the corpus's own note brackets and lacuna marks.
NOT_IN_NOTES = re.compile("[（）()〓□\n]")
PUNCT = frozenset("，。、；：！？「」『』")


@dataclass(frozen=True)
class Witness:
    """A reference text and how it was made from the clean text.

    ``swaps``: (clean offset, clean character, written character) of an
    edition; ``notes``: (clean offset the note follows, note as printed) of an
    interleaved text; ``pieces``: (clean start, clean end) of each quoted
    piece of a commentary, in order.
    """

    kind: str
    text: str
    swaps: tuple[tuple[int, str, str], ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    pieces: tuple[tuple[int, int], ...] = ()


def _rng(seed: int, index: int, kind: str) -> random.Random:
    return random.Random(f"{seed}/{index}/{kind}")


@cache
def _edition_forms(ch: str, simplified: bool) -> tuple[str, ...]:
    """Forms another edition in the same script may write for ``ch``: its
    variants by an edition source that are characters of that script (not the
    other script's form of it) and not compatibility code points."""
    out = []
    for v in variants_of(ch):
        if not is_han(v) or "\uf900" <= v <= "\ufaff" or "\U0002f800" <= v <= "\U0002fa1f":
            continue
        if not EDITION_SOURCES.intersection(pair_sources(ch, v)):
            continue
        if (to_simplified(v) if simplified else to_traditional(v)) != v:
            continue
        out.append(v)
    return tuple(out)


def edition(clean: str, script: str, rng: random.Random, share: float = VARIANT_SHARE) -> Witness:
    """Another edition of ``clean``: ``share`` of its Han characters (as far
    as enough of them have variants) in another form, and other punctuation."""
    simplified = script == SIMPLIFIED
    han = [i for i, ch in enumerate(clean) if is_han(ch)]
    eligible = [i for i in han if _edition_forms(clean[i], simplified)]
    chosen = sorted(rng.sample(eligible, min(len(eligible), round(share * len(han)))))
    swaps = tuple((i, clean[i], rng.choice(_edition_forms(clean[i], simplified))) for i in chosen)
    swapped = dict((i, v) for i, _, v in swaps)
    out = []
    for i, ch in enumerate(clean):
        ch = swapped.get(i, ch)
        if ch in PUNCT_CHANGES and rng.random() < PUNCT_CHANGE_SHARE:
            ch = rng.choice(PUNCT_CHANGES[ch])
        out.append(ch)
        if is_han(ch) and i + 1 < len(clean) and is_han(clean[i + 1]) and rng.random() < PUNCT_ADD_SHARE:
            out.append(rng.choice(PUNCT_ADDED))
    return Witness("edition", "".join(out), swaps=swaps)


def _snippet(pool: Sequence[str], length: int, rng: random.Random) -> str:
    """``length`` characters (fewer if no text is long enough) of a random text of ``pool``."""
    for _ in range(20):
        text = NOT_IN_NOTES.sub("", rng.choice(pool))
        if len(text) >= length:
            start = rng.randrange(len(text) - length + 1)
            return text[start : start + length]
    return text[:length]


def interleaved(clean: str, pool: Sequence[str], rng: random.Random) -> Witness:
    """``clean`` with a note after every 10–60 characters (just after a
    punctuation mark where the stretch has one), all in （） or all inline."""
    parenthesized = rng.random() < 0.5
    notes = []
    out = []
    pos = 0
    while True:
        lo, hi = pos + NOTE_EVERY[0], pos + NOTE_EVERY[1]
        if lo >= len(clean):
            break
        span = range(lo, min(hi, len(clean)) + 1)
        after_mark = [j for j in span if clean[j - 1] in PUNCT]
        at = rng.choice(after_mark) if after_mark else rng.choice(span)
        note = _snippet(pool, rng.randint(*NOTE_LEN), rng)
        printed = f"（{note}）" if parenthesized else note
        out.append(clean[pos:at])
        out.append(printed)
        notes.append((at, printed))
        pos = at
    out.append(clean[pos:])
    return Witness("interleaved", "".join(out), notes=tuple(notes))


def commentary(clean: str, pool: Sequence[str], rng: random.Random) -> Witness:
    """A commentary on ``clean``: pieces of 8–40 characters quoted in order
    (a quarter of them skipped), each followed by 20–120 characters of
    comment, as 「piece」 or as a bare line."""
    quoted = rng.random() < 0.5
    pieces = []
    out = []
    pos = 0
    while pos < len(clean):
        end = min(len(clean), pos + rng.randint(*PIECE_LEN))
        if rng.random() >= SKIP_SHARE:
            piece = clean[pos:end]
            comment = _snippet(pool, rng.randint(*COMMENT_LEN), rng)
            out.append(f"「{piece}」{comment}\n" if quoted else f"{piece}\n{comment}\n")
            pieces.append((pos, end))
        pos = end
    return Witness("commentary", "".join(out), pieces=tuple(pieces))


def note_pool(
    doc: CorruptedDocument, paras: Sequence[tuple[str, int, str]], size: int, rng: random.Random
) -> list[str]:
    """``size`` held-out paragraphs (at least as long as the longest note) of
    books other than the document's, in its script."""
    own = {name for name, _ in doc.sources}
    picked: list[str] = []
    for _ in range(size * 20):
        if len(picked) == size:
            break
        name, _, text = paras[rng.randrange(len(paras))]
        if name not in own and len(NOT_IN_NOTES.sub("", text)) >= NOTE_LEN[1]:
            picked.append(text)
    if doc.script == SIMPLIFIED:
        picked = [to_simplified(t) for t in picked]
    return picked


def make_witness(
    kind: str, doc: CorruptedDocument, index: int, paras: Sequence[tuple[str, int, str]], seed: int
) -> Witness:
    """The witness of ``kind`` for document number ``index`` of a benchmark run."""
    rng = _rng(seed, index, kind)
    if kind == "exact":
        return Witness("exact", doc.clean)
    if kind == "edition":
        return edition(doc.clean, doc.script, rng)
    pool = note_pool(doc, paras, 30, rng)
    if kind == "interleaved":
        return interleaved(doc.clean, pool, rng)
    if kind == "commentary":
        return commentary(doc.clean, pool, rng)
    raise ValueError(f"unknown witness kind {kind!r}")
