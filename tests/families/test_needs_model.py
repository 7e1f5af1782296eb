"""Deletions and look-alikes: without a language model they detect nothing, by design."""

from __future__ import annotations

import pytest

from repair.families.base import Document
from repair.families.needs_model import LOOKALIKE_SETS, Deletions, LookAlikes

# Texts with a dropped character or an OCR look-alike; none is detected without a model.
CASES = [
    pytest.param("子曰學而時習之不亦乎", id="deletion-说"),
    pytest.param("克已復禮為仁", id="lookalike-已-for-己"),
    pytest.param("子日：學而時習之", id="lookalike-日-for-曰"),
    pytest.param("己所不欲，勿施於人。", id="correct-己"),
    pytest.param("子曰：學而時習之。", id="correct-曰"),
]


@pytest.mark.parametrize("text", CASES)
def test_nothing_detected_without_model(repaired, text):
    result = repaired(text)
    assert result.edits == ()
    assert result.text == text


@pytest.mark.parametrize("family", [Deletions(), LookAlikes()], ids=lambda f: f.kind)
def test_families_are_silent_and_mark_only(family):
    assert family.detect(Document("克已復禮為仁，子日學而")) == []
    assert family.kind in ("deletion", "lookalike")


def test_lookalike_sets_are_han_and_distinct():
    seen: set[str] = set()
    for group in LOOKALIKE_SETS:
        assert len(group) >= 2 and len(set(group)) == len(group), group
        assert all(0x4E00 <= ord(c) <= 0x9FFF for c in group), group
        assert group not in seen
        seen.add(group)
