"""Calibrate the model's check of where re-read mojibake runs end (repair.fill.codec_edges).

On synthetic damage (seed 1 by default; the benchmark uses seed 0), the
model-free repair finds the codec confusions; the check then moves their ends
at each margin tried, and every confusion piece is scored as the benchmark
scores it (restored, wrong, …).  A margin is good when it turns wrong pieces
into restored ones and never the reverse.

    python benchmarks/calibrate_codec_edges.py --corpus ../shared/corpus --docs 600 --seed 1
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs
from run_benchmark import edit_views, score_document

import repair
from repair.fill.codec_edges import refine
from repair.lm.model import load_default
from repair.pipeline.apply import apply_edits

MARGINS = (None, 0.0, 1.0, 2.0, 3.0, 5.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.seed == 0:
        raise SystemExit("seed 0 is the benchmark's: calibrate on another seed")
    lm = load_default()
    exact = repair.Repairer(model=None)
    tallies = {m: Counter() for m in MARGINS}
    for doc in generate_documents(held_out_paragraphs(args.corpus), args.docs, args.seed):
        if not any(d.family == "codec_confusion" for d in doc.damages):
            continue
        edits = list(exact.repair_text(doc.damaged).edits)
        for m in MARGINS:
            moved = edits if m is None else refine(doc.damaged, edits, lm, placeholder="〓", margin=m)
            output, placed = apply_edits(doc.damaged, moved)
            outcomes, _ = score_document(doc, output, edit_views(placed))
            for o in outcomes:
                if o.damage.family == "codec_confusion":
                    tallies[m][o.outcome] += 1
                    tallies[m]["recoverable restored"] += o.damage.recoverable and o.outcome == "restored"
    print("| margin | restored | recoverable restored | holes marked | wrong | left marked | missed |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for m, t in tallies.items():
        label = "no check" if m is None else f"{m:g}"
        print(
            f"| {label} | {t['restored']} | {t['recoverable restored']} | {t['holes_marked']} | {t['wrong']} "
            f"| {t['marked']} | {t['missed']} |"
        )


if __name__ == "__main__":
    main()
