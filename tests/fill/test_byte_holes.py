"""The byte-shift hole channel: what the surviving bytes allow must include the truth.

Pairs and characters are drawn from the code page itself (not from the seeds),
so the test checks the channel's arithmetic, not one text.
"""

from __future__ import annotations

import random

import pytest

from repair.fill.byte_holes import RELIABILITY, calibrated, candidates, code_page, deleted_pair
from repair.types import Slot

CODEC = "gb18030"


def _sample(n: int, seed: int) -> list[tuple[int, int, str]]:
    items = sorted(code_page(CODEC).items())
    rng = random.Random(seed)
    return [(lead, trail, ch) for (lead, trail), ch in rng.sample(items, n)]


def test_cut_characters_are_among_what_their_byte_allows():
    for lead, trail, ch in _sample(300, 1):
        assert ch in candidates(Slot(0, 1, 1, "cut", {"trail_byte": f"{trail:02X}"}), CODEC)
        assert ch in candidates(Slot(0, 1, 1, "cut", {"lead_byte": f"{lead:02X}"}), CODEC)


def test_glued_pairs_are_among_what_the_outer_bytes_allow():
    pairs = 0
    firsts, seconds = _sample(400, 2), _sample(400, 3)
    for (l1, t1, a), (l2, t2, b) in zip(firsts, seconds, strict=True):
        if not deleted_pair(t1, l2, CODEC):
            continue
        # What a reader sees: the first character's lead byte with the second's trail byte.
        seen = bytes((l1, t2)).decode(CODEC)
        allowed = candidates(Slot(0, 2, 2, "glued", {"as_read": seen}), CODEC)
        assert a + b in allowed
        # The middle pair was deleted, so every candidate must delete it too.
        assert all(deleted_pair(x.encode(CODEC)[1], y.encode(CODEC)[0], CODEC) for x, y in allowed)
        pairs += 1
    assert pairs >= 10


def test_glued_pairs_from_the_channel_itself():
    # The corruption as the seeds show it: GBK bytes, first byte lost, read as
    # GB18030, private-use characters dropped.
    text = "而時之心".encode("gbk")
    for i in range(0, len(text) - 2, 2):
        a, b = text[i : i + 2].decode("gbk"), text[i + 2 : i + 4].decode("gbk")
        if deleted_pair(text[i + 1], text[i + 2], CODEC):
            seen = bytes((text[i], text[i + 3])).decode(CODEC)
            assert a + b in candidates(Slot(0, 2, 2, "glued", {"as_read": seen}), CODEC)


@pytest.mark.parametrize("constraint", [{}, {"as_read": "a"}, {"lead_byte": "41"}])
def test_no_constraint_no_candidates(constraint):
    assert candidates(Slot(0, 1, 1, "cut", constraint), CODEC) == []
    assert candidates(Slot(0, 2, 2, "glued", constraint), CODEC) == []


def test_reliability_is_monotone_and_shrunk():
    values = [calibrated(lo) for lo, _, _ in RELIABILITY]
    assert values == sorted(values)
    assert all(v < 1.0 for v in values)
