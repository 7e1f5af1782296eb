"""The variant table: editions' forms of one word fold together, other characters stay apart."""

import pytest

from repair.variants import same_word, variant_class, variants_of

# Pairs that users' references write in another form than their documents.
PAIRS = ["靣面", "飮飲饮", "荅答", "賔賓", "凢凡", "䘮喪丧", "爲為为", "於于"]


@pytest.mark.parametrize("group", PAIRS)
def test_edition_variants_fold_together(group):
    assert len({variant_class(ch) for ch in group}) == 1
    for ch in group:
        assert set(group) - {ch} <= set(variants_of(ch))


@pytest.mark.parametrize("ch", ["之", "曰", "。", "a"])
def test_a_character_without_variants_folds_to_itself(ch):
    assert variant_class(ch) == ch
    assert variants_of(ch) == ()


@pytest.mark.parametrize(
    "simplified, traditional", [("说", "說"), ("礼", "禮"), ("国", "國"), ("门", "門"), ("爱", "愛")]
)
def test_simplified_and_traditional_forms_fold(simplified, traditional):
    assert variant_class(simplified) == variant_class(traditional)


def test_distinct_words_stay_apart():
    assert variant_class("曰") != variant_class("日")
    assert variant_class("己") != variant_class("已")
    assert not same_word("爲之", "爲也")


def test_the_key_is_in_its_own_group():
    for ch in "爲於賔凢䘮":
        key = variant_class(ch)
        assert variant_class(key) == key
        assert ch == key or ch in variants_of(key)
