"""The witness benchmark's references: other editions, interleaved notes, commentaries."""

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from corrupt import TRADITIONAL, CorruptedDocument, is_han
from witnesses import (
    COMMENT_LEN,
    NOTE_EVERY,
    NOTE_LEN,
    PIECE_LEN,
    PUNCT,
    PUNCT_ADDED,
    commentary,
    edition,
    interleaved,
    make_witness,
)

from repair.lm.tokens import to_traditional
from repair.variants import variant_class

# Made-up sentences, dense in characters that have edition variants (為 事 所 高 於 賓 凡 面 德).
SENTENCES = [
    "凡為政者，所以事上也。",
    "賓至於門，主人出面迎之；",
    "德高者，其事易成，",
    "於是世人皆曰：「善。」",
    "明年春，王以所得之地為郡。",
]
CLEAN = "\n".join("".join(random.Random(k).sample(SENTENCES, len(SENTENCES))) for k in range(40))
POOL = ["天地之道博也厚也高也明也悠也久也今夫天斯昭昭之多及其無窮也日月星辰繫焉萬物覆焉" * 4] * 5


def _doc(clean: str = CLEAN) -> CorruptedDocument:
    return CorruptedDocument(clean=clean, damaged=clean, damages=(), script=TRADITIONAL, sources=(("mine", 0),))


PARAS = [("other", k, text) for k, text in enumerate(POOL)] + [("mine", 0, CLEAN)]


@pytest.mark.parametrize("kind", ["exact", "edition", "interleaved", "commentary"])
def test_witnesses_are_deterministic(kind):
    a = make_witness(kind, _doc(), 3, PARAS, seed=0)
    assert a == make_witness(kind, _doc(), 3, PARAS, seed=0)
    if kind != "exact":
        assert a.text != make_witness(kind, _doc(), 3, PARAS, seed=1).text
        assert a.text != make_witness(kind, _doc(), 4, PARAS, seed=0).text


def test_notes_come_from_other_books():
    w = make_witness("interleaved", _doc(), 0, PARAS, seed=0)
    assert all(set(note.strip("（）")) <= set(POOL[0]) for _, note in w.notes)


def _unpunctuated(text: str) -> str:
    return "".join(ch for ch in text if ch not in PUNCT and ch not in PUNCT_ADDED)


def test_an_edition_differs_by_variant_forms_and_punctuation_only():
    w = edition(CLEAN, TRADITIONAL, random.Random(0))
    plain, other = _unpunctuated(CLEAN), _unpunctuated(w.text)
    assert len(plain) == len(other)
    differ = [(a, b) for a, b in zip(plain, other, strict=True) if a != b]
    assert all(variant_class(a) == variant_class(b) for a, b in differ)
    assert all(to_traditional(b) == b for _, b in differ)
    assert len(differ) == len(w.swaps)
    han = sum(map(is_han, CLEAN))
    assert 0.015 <= len(differ) / han <= 0.025
    assert w.text != CLEAN and re.sub("[^，。、；：！？「」]", "", w.text) != re.sub("[^，。、；：！？「」]", "", CLEAN)


def test_an_edition_swaps_no_more_than_the_text_allows():
    w = edition("之乎者也" * 30, TRADITIONAL, random.Random(0))
    assert w.swaps == ()


def test_interleaved_notes_have_their_lengths_and_spacing():
    for seed in range(5):
        w = interleaved(CLEAN, POOL, random.Random(seed))
        assert w.notes
        rebuilt, pos, prev = [], 0, 0
        for at, note in w.notes:
            assert NOTE_LEN[0] <= len(note.strip("（）")) <= NOTE_LEN[1]
            assert NOTE_EVERY[0] <= at - prev <= NOTE_EVERY[1]
            prev = at
        # Taking the notes out gives the text back.
        out, k = w.text, 0
        for at, note in w.notes:
            rebuilt.append(CLEAN[pos:at])
            k += at - pos
            assert out[k : k + len(note)] == note
            k += len(note)
            pos = at
        rebuilt.append(CLEAN[pos:])
        assert "".join(rebuilt) == CLEAN


def test_a_commentary_quotes_pieces_in_order_with_comment_between():
    for seed in range(5):
        w = commentary(CLEAN, POOL, random.Random(seed))
        covered = sum(b - a for a, b in w.pieces)
        assert 0 < covered < len(CLEAN)  # some pieces skipped
        k, last_end = 0, 0
        for a, b in w.pieces:
            assert a >= last_end
            assert PIECE_LEN[0] <= b - a <= PIECE_LEN[1] or b == len(CLEAN)
            last_end = b
            found = w.text.find(CLEAN[a:b], k)
            assert found >= 0
            if k:
                comment = re.sub("[「」\n]", "", w.text[k:found])
                assert COMMENT_LEN[0] <= len(comment) <= COMMENT_LEN[1]
            k = found + b - a
