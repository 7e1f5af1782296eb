"""How the repair's time grows with the size of a text and with its damage.

Two measures, read as one cost model for the README:

- size: held-out clean text of 1x, 4x and 16x the base length (each one
  document of paragraphs, one per line, the shorter ones every 4th and 16th
  paragraph of the longest: the same mix of text), CPU seconds and characters per second,
  with the time of each pipeline stage (the job's own timing);
- damage: the main benchmark's damaged documents (seed 0), each timed alone;
  with ``a``, the cost of a character, taken from the clean text (4x), a
  non-negative least-squares fit of ``seconds - a * characters = sum_f b_f * pieces_f``
  over the documents gives the cost of one damaged piece of each family (``b_f``).

Time is CPU time of this process (``time.process_time``).

    python benchmarks/cost_model.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import FAMILIES, generate_documents, held_out_paragraphs

from repair import Repairer

OUT = Path(__file__).resolve().parent / "results" / "cost_model.json"


def clean_texts(paras: list[tuple[str, int, str]], chars: int, scales: tuple[int, ...]) -> dict[int, str]:
    """Texts of about ``chars`` times each scale, every one a spread of the
    same held-out paragraphs (every 16th, every 4th, all of them), so that
    they hold the same mix of text and differ only in length."""
    top = max(scales)
    chosen, size = [], 0
    for _, _, p in paras:
        if size >= chars * top:
            break
        chosen.append(p)
        size += len(p) + 1
    return {scale: "\n".join(chosen[:: top // scale]) for scale in scales}


def nnls(a: np.ndarray, b: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Least squares with non-negative coefficients (Lawson and Hanson's
    active set): a cost is never negative, and a family whose pieces cost
    nothing beyond their characters gets zero, not a negative number."""
    x = np.zeros(a.shape[1])
    free = np.zeros(a.shape[1], dtype=bool)
    for _ in range(iterations):
        w = a.T @ (b - a @ x)
        if free.all() or w[~free].max(initial=0.0) <= 1e-12:
            break
        free[np.argmax(np.where(free, -np.inf, w))] = True
        while True:
            z = np.zeros_like(x)
            z[free] = np.linalg.lstsq(a[:, free], b, rcond=None)[0]
            if (z[free] > 0).all():
                x = z
                break
            neg = free & (z <= 0)
            alpha = np.min(x[neg] / (x[neg] - z[neg]))
            x = x + alpha * (z - x)
            free &= x > 1e-12
    return x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--base-chars", type=int, default=100_000)
    ap.add_argument("--docs", type=int, default=200)
    args = ap.parse_args()

    repairer = Repairer()
    repairer.repair_text("暖")
    paras = held_out_paragraphs(args.corpus)
    results: dict = {"size": [], "damage": {}}
    for scale, text in clean_texts(paras, args.base_chars, (1, 4, 16)).items():
        t0 = time.process_time()
        job = repairer.run(text)
        seconds = time.process_time() - t0
        results["size"].append(
            {
                "scale": scale,
                "chars": len(text),
                "seconds": round(seconds, 3),
                "chars_per_s": round(len(text) / seconds),
                "edits": len(job.result.edits) if job.result else 0,
                "stages": {k: round(v, 3) for k, v in job.seconds.items()},
            }
        )
        print(results["size"][-1], flush=True)

    docs = generate_documents(paras, args.docs, 0)
    kinds = [f for f in FAMILIES if any(d.family == f for doc in docs for d in doc.damages)]
    rows, times = [], []
    for doc in docs:
        counts = Counter(d.family for d in doc.damages)
        t0 = time.process_time()
        repairer.repair_text(doc.damaged)
        times.append(time.process_time() - t0)
        rows.append([len(doc.damaged), *(counts[k] for k in kinds)])
    x, y = np.array(rows, dtype=float), np.array(times)
    # A clean character costs what it costs in clean text (the 4x run): the
    # damaged documents' characters and pieces grow together, so a joint fit
    # cannot tell them apart.  The pieces' costs are fitted to what is left.
    mid = results["size"][1]
    per_char = mid["seconds"] / mid["chars"]
    coef = np.concatenate([[per_char], nnls(x[:, 1:], y - per_char * x[:, 0])])
    chars, pieces = int(x[:, 0].sum()), int(x[:, 1:].sum())
    results["damage"] = {
        "documents": len(docs),
        "chars": chars,
        "pieces": pieces,
        "seconds": round(float(y.sum()), 3),
        "chars_per_s": round(chars / float(y.sum())),
        "ms_per_piece_mean": round(1000 * (float(y.sum()) - coef[0] * chars) / pieces, 2),
        "us_per_clean_char": round(1e6 * coef[0], 2),
        "ms_per_piece": {k: round(1000 * c, 2) for k, c in zip(kinds, coef[1:], strict=True)},
        "pieces_by_family": {k: int(x[:, 1 + i].sum()) for i, k in enumerate(kinds)},
    }
    print(json.dumps(results["damage"], indent=1))
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(markdown(results))


def markdown(results: dict) -> str:
    lines = ["| clean text | characters | CPU seconds | characters/s |", "|---|--:|--:|--:|"]
    for row in results["size"]:
        lines.append(f"| {row['scale']}x | {row['chars']:,} | {row['seconds']} | {row['chars_per_s']:,} |")
    d = results["damage"]
    lines += [
        "",
        f"Damaged documents: {d['documents']} ({d['chars']:,} characters, {d['pieces']:,} damaged pieces), "
        f"{d['seconds']} s, {d['chars_per_s']:,} characters/s. Fit: {d['us_per_clean_char']} µs per character "
        f"plus {d['ms_per_piece_mean']} ms per damaged piece on average:",
        "",
        "| family | pieces | ms per piece |",
        "|---|--:|--:|",
    ]
    for k, ms in sorted(d["ms_per_piece"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| {k} | {d['pieces_by_family'][k]} | {ms} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
