"""Reference indexes kept on disk: the same answers as built in memory, keyed, written whole."""

import os
import pickle
from collections import Counter

import numpy as np
import pytest

from repair import collate_store
from repair.api import Repairer
from repair.collate import ReferenceIndex, reference_index
from repair.collate_store import Chars, cache_root, cached, index_key, load, save
from repair.fill.reference_witness import ReferenceWitnesses, reference_witnesses
from repair.fill.witness import WitnessIndex, fold
from repair.lm.tokens import to_simplified

CLASSIC = (
    "學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎"
    "有子曰其為人也孝弟而好犯上者鮮矣不好犯上而好作亂者未之有也君子務本本立而道生孝弟也者其為仁之本與"
    "子曰巧言令色鮮矣仁曾子曰吾日三省吾身為人謀而不忠乎與朋友交而不信乎傳不習乎"
    "子曰道千乘之國敬事而信節用而愛人使民以時子曰弟子入則孝出則弟謹而信汎愛衆而親仁行有餘力則以學文"
)
# A reference with notes, punctuation and a mark of its own, in two copies.
REFERENCE = "，".join(CLASSIC[i : i + 9] for i in range(0, len(CLASSIC), 9)) + "（注曰□也）" + CLASSIC[::-1]


def damaged(text: str, every: int, start: int, size: int) -> str:
    doc = list(text[start : start + size])
    for i in range(3, len(doc), every):
        doc[i] = "〓"
    return "".join(doc)


def same_alignment(a, b, doc: str) -> None:
    assert (a.kind, a.ref_at, a.block, a.ref_runs) == (b.kind, b.ref_at, b.block, b.ref_runs)
    assert [a.read(i, i + 1) for i in range(len(doc))] == [b.read(i, i + 1) for i in range(len(doc))]
    assert a.deletions() == b.deletions() and a.insertions() == b.insertions() and a.blocks() == b.blocks()
    assert [a.around(i, i + 1) for i in range(len(doc))] == [b.around(i, i + 1) for i in range(len(doc))]


def test_index_round_trips_through_the_cache(tmp_path):
    built = ReferenceIndex(REFERENCE)
    first = reference_index(REFERENCE, root=tmp_path, min_chars=0)
    (folder,) = tmp_path.iterdir()
    assert {p.name for p in folder.iterdir()} == {
        f"{n}.npy" for n in ("raw", "folded", "offsets", "hashes", "positions")
    }
    mapped = reference_index(REFERENCE, root=tmp_path, min_chars=0)
    assert isinstance(mapped.proj.raw, Chars) and isinstance(mapped.hashes, np.memmap)
    assert mapped.proj.raw[:] == built.proj.raw and mapped.proj.folded[:] == built.proj.folded
    assert len(mapped) == len(built)
    for doc in (damaged(REFERENCE, 7, 0, 60), damaged(REFERENCE, 5, 30, 90), damaged(CLASSIC, 11, 10, 120)):
        expected = built.align(doc)
        same_alignment(expected, first.align(doc), doc)
        same_alignment(expected, mapped.align(doc), doc)
    # and the alignment reads the gaps
    source = CLASSIC[10:130]
    readings = [mapped.align(doc).read(i, i + 1) for i, ch in enumerate(doc) if ch == "〓"]
    assert sum(r.solid and r.text == source[r.start] for r in readings) >= len(readings) - 2


def test_chars_reads_like_a_string():
    text = "學而時習之𠀋不亦說乎"
    chars = Chars(collate_store.codepoints(text))
    assert len(chars) == len(text)
    assert [chars[i] for i in range(-3, len(text))] == [text[i] for i in range(-3, len(text))]
    assert chars[2:7] == text[2:7] and chars[5:] == text[5:] and chars[:0] == ""
    assert "".join(chars) == text and chars == text


def test_changed_reference_gets_its_own_index(tmp_path):
    other = REFERENCE.replace("學而時習之", "學而時誦之")
    assert index_key("collate", REFERENCE) != index_key("collate", other)
    assert index_key("collate", REFERENCE, anchor=5) != index_key("collate", REFERENCE, anchor=6)
    reference_index(REFERENCE, root=tmp_path, min_chars=0)
    changed = reference_index(other, root=tmp_path, min_chars=0)
    assert len(list(tmp_path.iterdir())) == 2
    doc = "〓而時誦之不亦說乎有朋自遠"
    assert changed.align(doc).read(0, 1).text == "學"
    assert "誦" in changed.proj.raw[:20]


def test_fold_table_is_part_of_the_key(monkeypatch):
    before = index_key("collate", REFERENCE)
    collate_store.fold_digest.cache_clear()
    monkeypatch.setattr(collate_store, "FORMAT", collate_store.FORMAT + "-other")
    try:
        assert index_key("collate", REFERENCE) != before
    finally:
        collate_store.fold_digest.cache_clear()


def test_stale_temporary_folder_is_ignored(tmp_path):
    key = index_key("collate", REFERENCE, anchor=5)
    # What a writer killed halfway leaves: a temporary folder holding part of the arrays.
    stale = tmp_path / f".{key}.abcd1234.tmp"
    stale.mkdir()
    (stale / "raw.npy").write_bytes(b"\x93NUMPY half")
    index = reference_index(REFERENCE, root=tmp_path, min_chars=0)
    assert isinstance(index.proj.raw, Chars)
    assert (tmp_path / key).is_dir() and stale.exists()
    doc = damaged(REFERENCE, 7, 0, 60)
    same_alignment(ReferenceIndex(REFERENCE).align(doc), index.align(doc), doc)


def test_write_that_fails_halfway_leaves_nothing(tmp_path, monkeypatch):
    calls = []
    real = np.save

    def failing(f, arr, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full")
        real(f, arr, **kw)

    monkeypatch.setattr(np, "save", failing)
    assert not save(tmp_path / "key", {"a": np.arange(3), "b": np.arange(4)})
    assert list(tmp_path.iterdir()) == []  # neither the index nor its temporary folder
    monkeypatch.setattr(np, "save", real)
    built = []
    arrays, folder = cached("key", ("a",), lambda: built.append(1) or {"a": np.arange(3)}, root=tmp_path)
    assert built == [1] and folder == tmp_path / "key" and list(arrays["a"]) == [0, 1, 2]
    assert load(tmp_path / "key", ("a", "b")) is None  # an incomplete folder is not an index


def test_concurrent_writer_keeps_the_first_copy(tmp_path):
    assert save(tmp_path / "key", {"a": np.arange(3)})
    assert save(tmp_path / "key", {"a": np.arange(5)})  # another process was first: its copy stays
    assert list(load(tmp_path / "key", ("a",))["a"]) == [0, 1, 2]
    assert [p.name for p in tmp_path.iterdir()] == ["key"]


def test_unwritable_cache_falls_back_to_memory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    root = blocker / "cache"
    index = reference_index(REFERENCE, root=root, min_chars=0)
    assert isinstance(index.proj.raw, str)
    doc = damaged(REFERENCE, 7, 0, 60)
    same_alignment(ReferenceIndex(REFERENCE).align(doc), index.align(doc), doc)
    witnesses = reference_witnesses([REFERENCE], root=root, min_chars=0)
    assert isinstance(witnesses, ReferenceWitnesses) and witnesses.parts[0].folder is None
    assert witnesses.lookup("學而時習", "不亦說乎") == Counter({"之": 1})
    assert blocker.read_text() == "not a folder"


def test_cache_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("REPAIR_CACHE_DIR", str(tmp_path / "here"))
    assert cache_root() == tmp_path / "here"
    monkeypatch.setenv("REPAIR_CACHE_DIR", "")
    assert cache_root() is None
    monkeypatch.delenv("REPAIR_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "repair"


def test_no_cache_builds_in_memory(monkeypatch, tmp_path):
    monkeypatch.setenv("REPAIR_CACHE_DIR", "")
    index = reference_index(REFERENCE, min_chars=0)
    assert isinstance(index.proj.raw, str)


TEXTS = (
    REFERENCE,
    to_simplified(CLASSIC[40:]) + "□□其敢已邪〓" + CLASSIC[:30],
    CLASSIC[:50] + "？" + CLASSIC[50:90],
)


@pytest.mark.parametrize("on_disk", [True, False])
def test_reference_witnesses_answer_as_the_dictionary_does(tmp_path, on_disk):
    full = WitnessIndex(TEXTS)
    arrays = reference_witnesses(TEXTS, root=tmp_path if on_disk else None, min_chars=0)
    assert isinstance(arrays, ReferenceWitnesses) and arrays.mapped() == on_disk
    assert sum(len(t) for t in full.runs.values()) > 500
    for width, table in full.runs.items():
        for key, fills in table.items():
            got = arrays.runs[width].get(key)
            assert list(got.items()) == list(fills.items()), (width, key)
            assert key in arrays.runs[width]
        for key in list(table)[:50]:
            assert arrays.runs[width].get(key[::-1]) == table.get(key[::-1])
    assert all(key in arrays.joined for key in full.joined)
    assert fold("之不亦說乎有朋自") in arrays.joined and fold("之不亦說乎有朋鬱") not in arrays.joined
    assert arrays.lookup("學而時習", "不亦說乎") == full.lookup("學而時習", "不亦說乎") == Counter({"之": 3})


def test_reference_witnesses_pickle_as_their_folders(tmp_path):
    arrays = reference_witnesses(TEXTS, root=tmp_path, min_chars=0)
    data = pickle.dumps(arrays)
    assert len(data) < 2000 and str(tmp_path).encode() in data
    back = pickle.loads(data)
    assert back.lookup("學而時習", "不亦說乎") == Counter({"之": 3})
    assert isinstance(back.parts[0].text, np.memmap)


def test_batch_index_laid_over_references_reads_as_merged():
    keys = {fold("學而時習不亦說乎"), fold("人不知而不亦君子"), fold("而好犯上好作亂者")}
    batch_text = "學而時習之不亦說乎人不知而慍不亦君子" + "學而時習也不亦說乎"
    merged = WitnessIndex(only=set(keys))
    merged.add(batch_text)
    merged.merge(WitnessIndex(TEXTS).counts())
    layered = WitnessIndex(only=set(keys))
    layered.add(batch_text)
    layered.include(reference_witnesses(TEXTS, root=None, min_chars=0))
    for width, table in merged.runs.items():
        for key in [*table, *keys]:
            assert (key in table) == (key in layered.runs[width])
            assert list(table.get(key, Counter()).items()) == list(layered.runs[width].get(key, Counter()).items())
    assert list(layered.fills[fold("學而時習不亦說乎")].items()) == [("之", 4), ("也", 1)]
    # an index laid over another passes the references on to the next
    again = WitnessIndex(only=set(keys))
    again.include(layered)
    assert list(again.fills[fold("學而時習不亦說乎")].items()) == [("之", 4), ("也", 1)]


def test_repairer_maps_reference_indexes_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REPAIR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(collate_store, "MIN_CACHED_CHARS", 0)
    doc = "有子曰其為人也孝弟而好犯上者鮮矣不好犯上而好〓亂者未之有也君子務本本立而道生"
    repairer = Repairer(model=None, references=(REFERENCE,))
    assert isinstance(repairer._witnesses, ReferenceWitnesses) and repairer._witnesses.mapped()
    result = repairer.repair_text(doc)
    assert isinstance(repairer._collations()[0].proj.raw, Chars)
    assert {p.name.split("-")[0] for p in tmp_path.iterdir()} == {"collate", "witness"}
    worker = pickle.loads(pickle.dumps(repairer))
    assert worker.repair_text(doc).text == result.text
    assert "作亂" in result.text
    monkeypatch.setenv("REPAIR_CACHE_DIR", "")
    assert Repairer(model=None, references=(REFERENCE,)).repair_text(doc).text == result.text
    assert len(os.listdir(tmp_path)) == 2  # nothing written with the cache turned off


def test_fold_that_changes_length_falls_back_to_the_dictionary(tmp_path, monkeypatch):
    from repair.fill import reference_witness

    monkeypatch.setattr(reference_witness, "_fold_char", lambda ch: "ab" if ch == "習" else ch)
    got = reference_witnesses(TEXTS, root=tmp_path, min_chars=0)
    assert isinstance(got, WitnessIndex)
    assert list(tmp_path.iterdir()) == []  # the half-written arrays went with their temporary folder


def test_cleaned_reference_text_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(collate_store, "MIN_CACHED_CHARS", 0)
    made = []

    def make(data: bytes) -> str:
        made.append(data)
        return data.decode("utf-8").replace("?", "〓")

    data = "學而時?之".encode()
    assert collate_store.cached_text(data, make, root=tmp_path) == "學而時〓之"
    assert collate_store.cached_text(data, make, root=tmp_path) == "學而時〓之"
    assert made == [data]  # the second was read back
    assert collate_store.cached_text("不亦?乎".encode(), make, root=tmp_path) == "不亦〓乎"
    assert len(made) == 2 and len(list(tmp_path.glob("text-*.txt"))) == 2
    assert not list(tmp_path.glob(".*"))
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert collate_store.cached_text(data, make, root=blocker / "cache") == "學而時〓之"
    assert len(made) == 3
