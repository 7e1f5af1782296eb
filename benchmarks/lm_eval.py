"""Evaluate character language models on the held-out 5% of the corpus.

For each model: file size, load time, perplexity per script (simplified text
scored through an OpenCC s2t mapping of its context), and fill-in accuracy:
one character hidden with 10 characters of context on each side, every Han
character of the vocabulary scored in the slot, top-1 and top-5; optionally
also with a cache of the other held-out paragraphs of the same book.

    python benchmarks/lm_eval.py ../shared/corpus MODEL... [--slots 300] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from repair.lm.cache import CacheModel  # noqa: E402
from repair.lm.model import CharLM  # noqa: E402
from repair.lm.split import paragraphs  # noqa: E402
from repair.lm.tokens import han_projection, to_simplified, to_traditional  # noqa: E402
from repair.plausibility import char_logp_table  # noqa: E402

CONTEXT = 10


def held_out_books(corpus: Path) -> dict[str, list[str]]:
    books: dict[str, list[str]] = defaultdict(list)
    for name, _no, text in paragraphs(corpus, held_out=True):
        books[name].append(text)
    return books


def pick_slots(books: dict[str, list[str]], n: int, seed: int) -> list[tuple[str, int, str, int]]:
    """(book, paragraph index, Han piece, position) with full context on both sides."""
    rng = random.Random(seed)
    options = []
    for book, paras in books.items():
        for i, text in enumerate(paras):
            for piece in han_projection(text):
                if len(piece) >= 2 * CONTEXT + 1:
                    options.append((book, i, piece))
    slots = []
    for _ in range(n):
        book, i, piece = rng.choice(options)
        pos = rng.randrange(CONTEXT, len(piece) - CONTEXT)
        slots.append((book, i, piece, pos))
    return sorted(slots)


def vocabulary() -> list[str]:
    return [c for c in char_logp_table() if "\u3400" <= c <= "\u9fff" or c >= "\U00020000"]


def perplexity(model: CharLM, books: dict[str, list[str]], script: str, limit: int, model_script: str) -> float:
    total, tokens = 0.0, 0
    for paras in books.values():
        for text in paras:
            for piece in han_projection(text):
                if script == "simplified":
                    piece = to_simplified(piece)
                    if model_script == "traditional":
                        piece = to_traditional(piece)
                elif model_script == "simplified":
                    piece = to_simplified(piece)
                lp, n = model.perplexity_parts(piece)
                total += lp
                tokens += n
                if tokens >= limit:
                    return 10 ** (-total / tokens)
    return 10 ** (-total / tokens)


def fill_in(
    model: CharLM,
    slots,
    books,
    vocab,
    script: str,
    cache_weight: float,
    model_script: str = "traditional",
    backward: CharLM | None = None,
) -> tuple[float, float]:
    """Top-1/top-5 of the true character, answers compared in the text's script."""
    top1 = top5 = 0
    for book, i, piece, pos in slots:
        text = to_simplified(piece) if script == "simplified" else piece
        truth = text[pos]
        left, right = text[pos - CONTEXT : pos], text[pos + 1 : pos + 1 + CONTEXT]
        if script == "simplified" and model_script == "traditional":
            left, right = to_traditional(left), to_traditional(right)
        elif script == "traditional" and model_script == "simplified":
            left, right = to_simplified(left), to_simplified(right)
        cache = None
        if cache_weight:
            # The rest of the book (this paragraph left out, or the answer
            # would be in the cache).
            cache = _book_cache(books, book, i, script)
        if backward is not None:
            # Two one-sided models: P_f(c | left) · P_b(c | right read backwards).
            fwd = model.score_candidates(left, vocab, "")
            bwd = backward.score_candidates(right[::-1], vocab, "")
            scores = [f + b for f, b in zip(fwd, bwd, strict=True)]
        else:
            scores = model.score_candidates(left, vocab, right, cache=cache, weight=cache_weight)
        ranked = [c for _, c in sorted(zip(scores, vocab, strict=True), reverse=True)[:5]]
        if script == "simplified" and model_script == "traditional":
            ranked = [to_simplified(c) for c in ranked]
        elif script == "traditional" and model_script == "simplified":
            ranked = [to_traditional(c) for c in ranked]
        top1 += ranked[0] == truth
        top5 += truth in ranked
    return top1 / len(slots), top5 / len(slots)


def _rss_mb() -> float:
    """Resident memory of this process (MB); mmap'd model pages count once touched."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


_CACHES: dict[tuple[str, int, str], CacheModel] = {}


def _book_cache(books: dict[str, list[str]], book: str, skip: int, script: str) -> CacheModel:
    key = (book, skip, script)
    if key not in _CACHES:
        conv = (lambda t: to_traditional(to_simplified(t))) if script == "simplified" else (lambda t: t)
        _CACHES.clear()
        _CACHES[key] = CacheModel(conv(p) for j, p in enumerate(books[book]) if j != skip)
    return _CACHES[key]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("models", nargs="+", type=Path)
    ap.add_argument("--slots", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ppl-tokens", type=int, default=300_000)
    ap.add_argument("--cache-weight", type=float, default=0.0, help="also measure fill-in with a document cache")
    ap.add_argument("--backward", type=Path, help="a model of reversed text: also measure forward+backward scoring")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lm_eval.json")
    args = ap.parse_args()
    books = held_out_books(args.corpus)
    slots = pick_slots(books, args.slots, args.seed)
    vocab = vocabulary()
    rows = []
    for path in args.models:
        rss0 = _rss_mb()
        t0 = time.perf_counter()
        model = CharLM(path)
        load = time.perf_counter() - t0
        # Which script the model was trained in, by its file name: a mixed
        # model scores either script as it is.
        model_script = "simplified" if "simp" in path.name else "mixed" if "mixed" in path.name else "traditional"
        model_vocab = sorted({to_simplified(c) for c in vocab}) if model_script == "simplified" else vocab
        row = {
            "model": path.name,
            "script": model_script,
            "order": model.order,
            "mb": round(path.stat().st_size / 2**20, 1),
            "load_s": round(load, 3),
        }
        for script in ("traditional", "simplified"):
            row[f"ppl_{script}"] = round(perplexity(model, books, script, args.ppl_tokens, model_script), 1)
            t0 = time.perf_counter()
            row[f"top1_{script}"], row[f"top5_{script}"] = fill_in(
                model, slots, books, model_vocab, script, 0.0, model_script
            )
            row[f"cands_per_s_{script}"] = round(len(slots) * len(vocab) / (time.perf_counter() - t0))
            if args.cache_weight:
                c1, c5 = fill_in(model, slots, books, model_vocab, script, args.cache_weight, model_script)
                row[f"top1_cache_{script}"], row[f"top5_cache_{script}"] = c1, c5
            if args.backward:
                b1, b5 = fill_in(model, slots, books, model_vocab, script, 0.0, model_script, CharLM(args.backward))
                row[f"top1_fwd_bwd_{script}"], row[f"top5_fwd_bwd_{script}"] = b1, b5
        row["rss_mb_after_scoring"] = round(_rss_mb() - rss0, 1)
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"slots": args.slots, "vocab": len(vocab), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
