"""The language model: training, loading, scoring in context, the cache."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from repair.lm import CharLM, default_model_path, han_projection
from repair.lm.cache import CacheModel
from repair.lm.tokens import training_lines


def test_han_projection_keeps_context_across_punctuation_and_cuts_at_unknowns():
    assert han_projection("子曰：「學而時習之，不亦說乎？」") == ["子曰學而時習之不亦說乎"]
    assert han_projection("學而〓習之") == ["學而", "習之"]
    assert training_lines("學而時") == ["學 而 時"]


def test_damaged_sentence_scores_lower(tiny_model):
    lm = CharLM(tiny_model)
    clean = "學而時習之不亦說乎"
    assert lm.sentence_logp(clean) > lm.sentence_logp("學而時習乎不亦說之")
    assert lm.sentence_logp(clean) > lm.sentence_logp("學而時國之不亦說乎")  # a wrong character costs


def test_slot_scoring_ranks_the_right_character_first(tiny_model):
    lm = CharLM(tiny_model)
    candidates = ["習", "乎", "國", "信", "仁"]
    scores = lm.score_candidates("學而時", candidates, "之不亦")
    assert max(zip(scores, candidates, strict=True))[1] == "習"


def test_slot_scores_equal_full_window_scores(tiny_model):
    """Reusing the left state gives the same numbers as scoring the whole window."""
    lm = CharLM(tiny_model)
    left, right = "有朋自遠", "來不亦樂乎"
    for cand in ("方", "國", "方來"):
        window = lm.model.score(" ".join(left + cand + right), bos=False, eos=False)
        base = lm.model.score(" ".join(left), bos=False, eos=False)
        tail = list(lm.model.full_scores(" ".join(left + cand + right), bos=False, eos=False))
        far = sum(p for p, _, _ in tail[len(left) + len(cand) + lm.order - 1 :])
        got = lm.score_candidates(left, [cand], right)[0]
        assert got == pytest.approx(window - base - far, abs=1e-4)


def test_save_load_round_trip(tmp_path, corpus_file, tiny_model, kenlm_tools):
    from repair.lm.train import train

    arpa = tmp_path / "tiny.arpa"
    train([corpus_file], arpa, order=3, prune=(0, 0, 0))
    binary, text = CharLM(tiny_model), CharLM(arpa)
    again = pickle.loads(pickle.dumps(binary))
    assert again.path == binary.path
    for s in ("學而時習之", "孟子見梁惠王"):
        assert again.sentence_logp(s) == binary.sentence_logp(s)
        # The binary is quantized to 8 bits: close to the ARPA, not equal.
        assert binary.sentence_logp(s) == pytest.approx(text.sentence_logp(s), abs=0.3)


def test_train_lm_command(tmp_path, corpus_file, kenlm_tools):
    out = tmp_path / "cli.binary"
    run = subprocess.run(
        [sys.executable, "-m", "repair", "train-lm", str(corpus_file), "-o", str(out), "--order", "3", "--prune", "0"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0 and "order 3" in run.stderr
    assert CharLM(out).order == 3


def test_train_lm_refuses_a_missing_corpus(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "repair", "train-lm", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "m.bin")],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr and "no such file" in run.stderr
    assert not (tmp_path / "m.bin").exists()


def test_cache_raises_what_the_document_says(tiny_model):
    lm = CharLM(tiny_model)
    cache = CacheModel(["夫子溫良恭儉讓以得之", "溫良恭儉讓"])
    plain = lm.score_candidates("溫良恭儉", ["讓", "仁"], "以得之")
    cached = lm.score_candidates("溫良恭儉", ["讓", "仁"], "以得之", cache=cache, weight=0.3)
    assert cached[0] - cached[1] > plain[0] - plain[1]
    assert cache.prob("恭儉", "讓") > cache.prob("恭儉", "仁")


def test_shipped_model_loads_and_scores():
    path = default_model_path()
    assert path.exists(), f"the default model is missing: {path}"
    assert path.stat().st_size < 60 * 2**20
    lm = CharLM(path)
    assert lm.order >= 4
    clean = "天下皆知美之為美斯惡已"
    assert lm.sentence_logp(clean) > lm.sentence_logp("天下皆知美之為美斯惡已"[::-1])
    scores = lm.score_candidates("天下皆知美之為", ["美", "鼠", "鐵"], "斯惡已")
    assert scores[0] == max(scores)
