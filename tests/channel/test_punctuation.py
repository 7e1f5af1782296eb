"""A mark lost at a line's end is read by its place: after which character, at the end or not."""

from __future__ import annotations

import pytest

from repair.channel.forward import garble
from repair.channel.scorer import Punctuation, context_factor
from repair.lm.model import default_model_path

needs_model = pytest.mark.skipif(not default_model_path().exists(), reason="the shipped model is missing")


def test_a_line_ends_with_a_stop_not_a_comma() -> None:
    p = Punctuation()
    assert p.logp_at("。", "也", at_end=True) > p.logp_at("，", "也", at_end=True)
    # A comma is likelier inside a line than at its end.
    assert p.logp_at("，", "之", at_end=False) > p.logp_at("，", "之", at_end=True)


def test_a_question_follows_its_particle_and_a_quote_closes_after_a_stop() -> None:
    assert context_factor("？", "乎") > context_factor("。", "乎")
    assert context_factor("」", "。") > context_factor("。", "。")


def test_marks_are_only_weighed_as_marks() -> None:
    p = Punctuation()
    assert p.logp_at("之", "也", at_end=True) == p.logp("之")


@needs_model
@pytest.mark.parametrize(
    "text",
    ["子曰：「君子不器。」", "有朋自遠方來，不亦樂乎？"],
)
def test_lost_marks_at_the_end_of_a_line_are_read_or_marked(text: str) -> None:
    from repair import Repairer

    garbled = garble(text, "utf-8", "gbk")
    assert "\ufffd" in garbled[-2:]  # the last mark lost bytes
    result = Repairer().repair_text(garbled)
    assert result.text[:-1] == text[:-1]
    assert result.text[-1] in (text[-1], "〓")  # read, or marked: never another mark


@needs_model
def test_a_closing_quote_after_a_stop_is_read() -> None:
    from repair import Repairer

    text = "子曰：「君子不器。」"
    assert Repairer().repair_text(garble(text, "utf-8", "gbk")).text == text
