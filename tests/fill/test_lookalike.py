"""Look-alike swaps found by the model: a twin from the confusion set wins only by a wide margin."""

from __future__ import annotations

import pytest
from fill_support import needs_model

from repair.families.needs_model import LOOKALIKE_SETS
from repair.fill.lookalike import twins


def test_twins_come_from_the_sets_and_are_symmetric():
    table = twins()
    assert set(table) == {ch for group in LOOKALIKE_SETS for ch in group}
    for ch, others in table.items():
        assert ch not in others
        assert all(ch in table[o] for o in others)


@needs_model
@pytest.mark.parametrize(
    ("damaged", "clean"),
    [
        ("克巳復禮為仁。一日克己復禮，天下歸仁焉。", "克己復禮為仁。一日克己復禮，天下歸仁焉。"),
        ("学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？曾子日：吾日三省吾身。", None),
    ],
)
def test_swap_repaired_or_left_alone(damaged, clean):
    from repair import repair_text

    result = repair_text(damaged)
    looks = [e for e in result.edits if e.kind == "lookalike"]
    if clean is None:
        # Not sure enough (曾子日 is rare but 日 is everywhere): nothing is said.
        assert looks == [] and result.text == damaged
        return
    assert result.text == clean
    (edit,) = looks
    assert edit.applied and edit.before == "巳" and edit.after == "己"
    assert edit.candidates[0].text == "己"
    assert result.undo() == damaged


@needs_model
def test_clean_classics_keep_every_set_character():
    from repair import repair_text

    text = (
        "子曰：學而時習之，不亦說乎？曾子曰：吾日三省吾身。己所不欲，勿施於人。"
        "天下大亂，王者不作，士不可以不弘毅。今之學者為人，古之學者為己。未知生，焉知死。"
    )
    result = repair_text(text)
    assert [e for e in result.edits if e.kind == "lookalike"] == []
