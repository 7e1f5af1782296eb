"""CPU time of the model-based fill stages: the gap fill, the codec-edge check and the byte-hole fill.

Three workloads, each timed with ``time.process_time`` around the whole
repair and around each stage (the stages are wrapped where ``Repairer``
imports them):

- ``gaps``: held-out text with placeholders at random Han characters (as
  ``gap_speed.py``), time per marked gap;
- ``damaged``: the main benchmark's damaged documents (seed 0);
- ``clean``: one document of clean held-out text (its few real gaps included).

    python benchmarks/fill_speed.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs, is_han

import repair
import repair.fill.byte_holes
import repair.fill.codec_edges
import repair.fill.ranker

STAGES = (
    (repair.fill.ranker, "fill"),
    (repair.fill.codec_edges, "refine"),
    (repair.fill.byte_holes, "fill_runs"),
)


def timed_stages() -> dict[str, float]:
    """Wrap each stage so that its CPU time adds up in the returned dict."""
    spent: dict[str, float] = defaultdict(float)
    for module, name in STAGES:
        original = getattr(module, name)

        def wrapper(*args, _original=original, _name=name, **kwargs):
            t0 = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_name] += time.process_time() - t0

        setattr(module, name, wrapper)
    return spent


def run(label: str, texts: list[str], repairer: repair.Repairer, spent: dict[str, float], **extra) -> dict:
    spent.clear()
    t0 = time.process_time()
    results = [repairer.repair_text(t) for t in texts]
    total = time.process_time() - t0
    row = {
        "workload": label,
        "texts": len(texts),
        "characters": sum(map(len, texts)),
        "total_s": round(total, 3),
        **{f"{name}_s": round(spent[name], 3) for _, name in STAGES},
        **extra,
    }
    gaps = sum(e.kind == "placeholder" for r in results for e in r.edits)
    row["placeholder_gaps"] = gaps
    if label == "gaps" and gaps:
        row["fill_ms_per_gap"] = round(1000 * spent["fill"] / gaps, 3)
        row["total_ms_per_gap"] = round(1000 * total / gaps, 3)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--gaps", type=int, default=300)
    ap.add_argument("--gap-chars", type=int, default=60_000)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--clean-chars", type=int, default=200_000)
    ap.add_argument("--only", default="gaps,damaged,clean")
    args = ap.parse_args()
    only = set(args.only.split(","))
    paras = held_out_paragraphs(args.corpus)
    held = "\n".join(t for _, _, t in paras)
    repairer = repair.Repairer()
    repairer.repair_text(held[:200] + "□")  # map the model and build the tables first
    spent = timed_stages()
    rows = []
    if "gaps" in only:
        text = held[: args.gap_chars]
        rng = random.Random(0)
        chars = list(text)
        for i in rng.sample([i for i, c in enumerate(chars) if is_han(c)], args.gaps):
            chars[i] = "□"
        rows.append(run("gaps", ["".join(chars)], repairer, spent))
    if "damaged" in only:
        docs = generate_documents(paras, args.docs, 0)
        rows.append(run("damaged", [d.damaged for d in docs], repairer, spent))
    if "clean" in only:
        rows.append(run("clean", [held[: args.clean_chars]], repairer, spent))
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
