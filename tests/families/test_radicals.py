"""Radical stand-ins: Kangxi radicals and CJK radical supplement forms become their ideographs."""

from __future__ import annotations

import unicodedata

import pytest

from repair.families.radicals import SUPPLEMENT_EQUIVALENTS

# (input, [(kind, exact span, start)], repaired output)
CASES = [
    pytest.param(
        "⼀⼈之⼤",
        [("radical", "⼀", 0), ("radical", "⼈", 1), ("radical", "⼤", 3)],
        "一人之大",
        id="kangxi-in-text",
    ),
    pytest.param("⻑者", [("radical", "⻑", 0)], "長者", id="supplement-long"),
    pytest.param("⺟⽒", [("radical", "⺟", 0), ("radical", "⽒", 1)], "母氏", id="supplement-and-kangxi"),
    pytest.param(
        "⽗⺟之⾔，不可不知也。",
        [("radical", "⽗", 0), ("radical", "⺟", 1), ("radical", "⾔", 3)],
        "父母之言，不可不知也。",
        id="sentence-with-punctuation",
    ),
    pytest.param("⻄⽅", [("radical", "⻄", 0), ("radical", "⽅", 1)], "西方", id="west"),
    pytest.param("⾨外", [("radical", "⾨", 0)], "門外", id="gate"),
    pytest.param("⿓⻰", [("radical", "⿓", 0), ("radical", "⻰", 1)], "龍龙", id="traditional-and-simplified-dragon"),
    pytest.param("⺠為貴", [("radical", "⺠", 0)], "民為貴", id="people"),
    pytest.param("⼈⺅", [("radical", "⼈", 0), ("radical", "⺅", 1)], "人亻", id="side-form-maps-to-side-form"),
    pytest.param(
        "子曰：⼆三⼦以我為隱乎？",
        [("radical", "⼆", 3), ("radical", "⼦", 5)],
        "子曰：二三子以我為隱乎？",
        id="radicals-amid-clean-text",
    ),
    # A supplement form with no unified equivalent is marked, not changed.
    pytest.param("⺀字", [("radical", "⺀", 0)], "⺀字", id="unmapped-supplement-form"),
    # The ideographs themselves are never touched.
    pytest.param("一人之大", [], "一人之大", id="unified-ideographs"),
    pytest.param("父母之言", [], "父母之言", id="unified-ideographs-2"),
]


@pytest.mark.parametrize(("text", "expected", "output"), CASES)
def test_radicals(repaired, observed, text, expected, output):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == output
    for edit in result.edits:
        assert edit.applied == (edit.after != edit.before)


def test_every_kangxi_radical_maps_to_a_unified_ideograph(repaired):
    radicals = "".join(chr(cp) for cp in range(0x2F00, 0x2FD6))
    result = repaired(radicals)
    assert len(result.edits) == len(radicals)
    assert all(e.applied for e in result.edits)
    assert result.text == unicodedata.normalize("NFKC", radicals)
    assert all(0x4E00 <= ord(c) <= 0x9FFF for c in result.text)


def test_supplement_table_targets_unified_ideographs():
    for form, ideograph in SUPPLEMENT_EQUIVALENTS.items():
        assert 0x2E80 <= ord(form) <= 0x2EF3, form
        assert len(ideograph) == 1, form
        assert 0x4E00 <= ord(ideograph) <= 0x9FFF or 0x3400 <= ord(ideograph) <= 0x4DBF, form
