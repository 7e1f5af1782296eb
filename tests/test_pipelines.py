"""A Repairer in pipelines: it pickles as its settings, works in a process pool,
and ``repair_many`` streams (see docs/pipelines.md)."""

from __future__ import annotations

import multiprocessing
import os
import pickle

import pytest

from repair.api import Repairer

TRAD = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎"
TEXTS = [
    "子曰\\u5b78而時習之，不亦說乎？",
    "魚&amp;熊掌，&#x5B78;而時習之",
    "前言：" + TRAD.encode("big5").decode("gb18030") + "。",
    "有朋自遠方來，不亦樂乎？",
    "子曰學而時??之，不亦說乎",
    "子曰學而時習之不亦說乎".encode().decode("gbk", errors="replace"),  # lost bytes: a placeholder
    "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎",
]


def outcome(result) -> tuple:
    return result.text, result.edits, result.encoding


def test_pickle_round_trip_keeps_settings_and_model():
    repairer = Repairer(min_confidence=0.95, placeholder="□", families=("escape", "question_mark", "replacement_char"))
    copy = pickle.loads(pickle.dumps(repairer))
    assert copy.__getstate__() == repairer.__getstate__()
    assert (copy.min_confidence, copy.placeholder, copy.families) == (0.95, "□", repairer.families)
    if repairer.lm is None:
        assert copy.lm is None
    else:
        assert copy.lm is not repairer.lm and copy.lm.path == repairer.lm.path
    assert [outcome(copy.repair_text(t)) for t in TEXTS] == [outcome(repairer.repair_text(t)) for t in TEXTS]
    # The settings took effect in the copy: no codec-confusion repairs (not among its families).
    assert copy.repair_text(TEXTS[2]).text == TEXTS[2] != Repairer().repair_text(TEXTS[2]).text


# A worker builds its Repairer once, in the initializer, from the pickled one.
_WORKER: Repairer | None = None


def _init_worker(blob: bytes) -> None:
    global _WORKER
    _WORKER = pickle.loads(blob)


def _repair_in_worker(text: str) -> tuple:
    assert _WORKER is not None
    return (os.getpid(), *outcome(_WORKER.repair_text(text)))


def test_spawned_pool_gives_the_in_process_results():
    repairer = Repairer(placeholder="□")
    texts = TEXTS * 2
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2, initializer=_init_worker, initargs=(pickle.dumps(repairer),)) as pool:
        got = pool.map(_repair_in_worker, texts, chunksize=1)
    assert [g[1:] for g in got] == [outcome(repairer.repair_text(t)) for t in texts]
    assert os.getpid() not in {g[0] for g in got}
    assert any("□" in g[1] for g in got)  # the workers use the pickled settings


def test_pool_map_with_a_bound_method():
    # The short form: the Repairer travels with every chunk (and reloads its model there).
    repairer = Repairer(placeholder="□")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.map(repairer.repair_text, TEXTS, chunksize=3)
    assert [outcome(r) for r in got] == [outcome(repairer.repair_text(t)) for t in TEXTS]


def test_repair_many_streams_lazily():
    docs = [TEXTS[0], TRAD.encode("gbk"), TEXTS[1], TRAD.encode("big5"), TEXTS[3]]
    pulled = []

    def source():
        for doc in docs:
            pulled.append(doc)
            yield doc
        raise RuntimeError("the source broke")

    repairer = Repairer()
    stream = repairer.repair_many(source())
    assert pulled == []  # nothing is read before the first result is asked for
    for n, doc in enumerate(docs, 1):
        result = next(stream)
        assert len(pulled) == n  # one document read per result
        want = repairer.repair_bytes(doc) if isinstance(doc, bytes) else repairer.repair_text(doc)
        assert outcome(result) == outcome(want)
    assert [r.text for r in Repairer().repair_many(docs[1:2])] == [TRAD]
    with pytest.raises(RuntimeError, match="the source broke"):
        next(stream)
