"""Look-alike swaps found by the model: a twin from the confusion set wins only by a wide margin."""

from __future__ import annotations

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
def test_sure_swap_is_repaired_and_undoable():
    from repair import repair_text

    damaged = "夫子之文章，可得而聞也，夫子之言性與夭道，不可得而聞也。"
    result = repair_text(damaged)
    assert result.text == damaged.replace("夭", "天")
    (edit,) = result.edits
    assert (edit.kind, edit.before, edit.after, edit.applied) == ("lookalike", "夭", "天", True)
    assert edit.candidates[0].text == "天" and edit.confidence >= 0.9
    assert result.undo() == damaged


@needs_model
def test_likely_swap_is_reported_not_applied():
    from repair import repair_text

    damaged = "孟子見梁惠玉。王曰：叟不遠千里而來。"
    result = repair_text(damaged)
    assert result.text == damaged
    (edit,) = result.edits
    assert (edit.kind, edit.before, edit.applied) == ("lookalike", "玉", False)
    assert edit.candidates[0].text == "王" and edit.confidence < 0.9


@needs_model
def test_unsure_swap_is_not_mentioned():
    from repair import repair_text

    # 曾子日 is rare, but 日 is everywhere: the swap prior keeps it quiet.
    damaged = "曾子日：吾日三省吾身。"
    assert repair_text(damaged).edits == ()


@needs_model
def test_clean_classics_keep_every_set_character():
    from repair import repair_text

    text = (
        "子曰：學而時習之，不亦說乎？曾子曰：吾日三省吾身。己所不欲，勿施於人。"
        "天下大亂，王者不作，士不可以不弘毅。今之學者為人，古之學者為己。未知生，焉知死。"
    )
    result = repair_text(text)
    assert [e for e in result.edits if e.kind == "lookalike"] == []
