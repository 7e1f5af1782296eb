"""One fixture shared by the family tests: repair a text and check the edit invariants.

Every edit must name exactly the input it covers (``before == text[start:end]``)
and the result must undo back to the input; the family tests then compare the
(kind, before, start) triples and the output against their tables.
"""

from __future__ import annotations

import pytest

from repair import Result, repair_text


def _repair(text: str, **settings: object) -> Result:
    result = repair_text(text, **settings)
    for edit in result.edits:
        assert text[edit.start : edit.end] == edit.before, edit
    assert result.undo() == text
    return result


@pytest.fixture
def repaired():
    return _repair


@pytest.fixture
def observed():
    def spans(result: Result) -> list[tuple[str, str, int]]:
        return [(e.kind, e.before, e.start) for e in result.edits]

    return spans
