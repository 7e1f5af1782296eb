"""The family registry: every damage family of the design is registered, runs in
priority order, and overlapping detections are resolved in favour of the family
whose channel explains more."""

from __future__ import annotations

import itertools
import re

import pytest

from repair import Repairer, repair_text
from repair.families import FAMILY_KINDS, REGISTRY, families
from repair.families.base import Document
from repair.families.foreign_symbols import ForeignSymbols
from repair.families.private_use import PrivateUse

DESIGN_KINDS = (
    "junk",
    "escape",
    "codec_confusion",
    "byte_shift",
    "radical",
    "component",
    "question_mark",
    "replacement_char",
    "private_use",
    "foreign_symbol",
    "placeholder",
    "deletion",
    "lookalike",
)


def byte_shifted(sentence: str) -> str:
    """A GBK stream that lost its first byte, read as GB18030, private-use debris deleted."""
    text = sentence.encode("gbk")[1:].decode("gb18030", errors="replace")
    return re.sub("[\ue000-\uf8ff]", "", text)


# Its shifted reading holds kana (ふ, フ): 长 is B3A4, 去 is C8A5 in GBK.
KANA_SENTENCE = "长者先幼者后去者不追来者不拒此乃古之君子所以待人之道也今之人则不然矣"


@pytest.mark.parametrize("kind", DESIGN_KINDS)
def test_every_design_family_is_registered(kind):
    assert kind in FAMILY_KINDS


def test_kinds_are_unique():
    assert len(set(FAMILY_KINDS)) == len(FAMILY_KINDS)


@pytest.mark.parametrize("family", REGISTRY, ids=lambda f: f.kind)
def test_family_implements_the_interface(family):
    assert isinstance(family.kind, str) and isinstance(family.priority, int)
    assert callable(family.detect) and callable(family.propose)
    assert isinstance(family.detect(Document("子曰：學而時習之。")), list)


def test_families_run_in_priority_order():
    ordered = families()
    assert {f.kind for f in ordered} == set(FAMILY_KINDS)
    priorities = [f.priority for f in ordered]
    assert priorities == sorted(priorities)
    # The exact channels claim text before the mark-only families.
    position = {f.kind: i for i, f in enumerate(ordered)}
    for exact in ("junk", "escape", "codec_confusion", "byte_shift", "radical"):
        for marker in ("question_mark", "replacement_char", "private_use", "foreign_symbol", "placeholder"):
            assert position[exact] < position[marker], (exact, marker)


def test_selected_families_keep_priority_order():
    selected = families(("foreign_symbol", "byte_shift", "junk"))
    assert [f.kind for f in selected] == ["junk", "byte_shift", "foreign_symbol"]


def test_unknown_family_is_rejected():
    with pytest.raises(ValueError, match="unknown damage families"):
        families(("junk", "no_such_family"))


def test_byte_shifted_run_with_kana_is_one_byte_shift():
    run = byte_shifted(KANA_SENTENCE)
    kana = [c for c in run if "\u3040" <= c <= "\u30ff"]
    assert kana  # the fixture holds what the test is about
    # On its own, the foreign-symbol family would claim the kana.
    assert ForeignSymbols().detect(Document(run))
    result = repair_text(run)
    assert [(e.kind, e.before, e.start) for e in result.edits] == [("byte_shift", run, 0)]
    assert not any(c in result.text for c in kana)


def test_overlap_is_what_suppresses_the_foreign_symbols():
    run = byte_shifted(KANA_SENTENCE)
    alone = Repairer(families=("foreign_symbol",)).repair_text(run)
    assert alone.edits and {e.kind for e in alone.edits} == {"foreign_symbol"}
    both = Repairer(families=("byte_shift", "foreign_symbol")).repair_text(run)
    assert [e.kind for e in both.edits] == ["byte_shift"]


def test_codec_confusion_with_kana_and_private_use_is_one_edit():
    # Big5 read as GBK: the mojibake holds kana and private-use characters.
    sentence = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎"
    mojibake = sentence.encode("big5").decode("gb18030")
    assert PrivateUse().detect(Document(mojibake))  # on its own, that family would claim them
    assert any("\u3040" <= c <= "\u30ff" for c in mojibake)
    result = repair_text(mojibake)
    assert [(e.kind, e.before, e.start) for e in result.edits] == [("codec_confusion", mojibake, 0)]
    assert result.text == sentence


def test_edits_never_overlap():
    text = "子曰&#x5B78;而⼈\ue000？？〓\n" + byte_shifted(KANA_SENTENCE) + "\n學而-dushuzhijia.com"
    result = repair_text(text)
    spans = sorted((e.start, e.end) for e in result.edits)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
    assert {e.kind for e in result.edits} >= {"escape", "radical", "private_use", "byte_shift", "junk"}
    assert result.undo() == text
