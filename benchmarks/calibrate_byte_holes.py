"""Calibrate the byte-constrained fill of byte-shift holes (repair.fill.byte_holes).

Runs the repair on synthetic damage (seed 1 by default, so the benchmark's
seed 0 stays a test) and compares each hole's best candidate with the truth.
The truth of a hole is found by matching the re-read run, its holes as
wildcards, against the document's clean text; runs that do not match (a glued
pair the re-read kept as a wrong character) are counted and skipped, since no
hole filling can make them right.  Prints, per temperature, the reliability
table and the lowest threshold at which at most 1% of filled holes are wrong.

    python benchmarks/calibrate_byte_holes.py --corpus ../shared/corpus --docs 600 --seed 1
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate_fill import BINS, threshold_for
from corrupt import generate_documents, held_out_paragraphs

import repair


def truth_of_holes(after: str, holes: list[dict], clean: str) -> list[str] | None:
    """The clean text behind each hole, when the re-read run matches the clean text exactly once."""
    pattern, pos = [], 0
    for h in sorted(holes, key=lambda h: h["offset"]):
        pattern.append(re.escape(after[pos : h["offset"]]))
        pattern.append(f"(.{{{h['chars']}}})")
        pos = h["offset"] + h["chars"]
    pattern.append(re.escape(after[pos:]))
    matches = list(re.finditer("".join(pattern), clean))
    return list(matches[0].groups()) if len(matches) == 1 else None


def collect(corpus: Path, docs: int, seed: int) -> tuple[list[dict], int]:
    repairer = repair.Repairer()
    rows, unmatched = [], 0
    for doc in generate_documents(held_out_paragraphs(corpus), docs, seed):
        result = repairer.repair_text(doc.damaged)
        for e in result.edits:
            holes = e.detail.get("byte_holes") if e.kind == "byte_shift" else None
            if not holes or any(h["applied"] for h in holes):
                continue
            truth = truth_of_holes(e.after, holes, doc.clean)
            if truth is None:
                unmatched += 1
                continue
            for h, t in zip(sorted(holes, key=lambda h: h["offset"]), truth, strict=True):
                rows.append({"chars": h["chars"], "truth": t, "allowed": h["allowed"], "best": h["best_by_temperature"]})
    return rows, unmatched


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "calibration_byte_holes.json")
    args = ap.parse_args()
    rows, unmatched = collect(args.corpus, args.docs, args.seed)
    print(f"holes: {len(rows)} (runs whose re-read kept a wrong character, skipped: {unmatched})")
    report = {"holes": len(rows), "unmatched_runs": unmatched, "temperatures": {}}
    for t in rows[0]["best"] if rows else ():
        points = [(r["best"][t][1], r["best"][t][0] == r["truth"]) for r in rows]
        bins = defaultdict(lambda: [0, 0])
        for p, ok in points:
            lo = max(b for b in BINS if b <= p)
            bins[lo][0] += 1
            bins[lo][1] += ok
        thr, cov = threshold_for(points)
        by_chars = {
            str(n): sum(ok for (p, ok), r in zip(points, rows, strict=True) if r["chars"] == n)
            / max(1, sum(r["chars"] == n for r in rows))
            for n in (1, 2)
        }
        report["temperatures"][t] = {
            "threshold_1pct": thr,
            "coverage_1pct": cov,
            "top1": sum(ok for _, ok in points) / len(points),
            "top1_by_chars": by_chars,
            "bins": {str(lo): {"n": n, "right": k} for lo, (n, k) in sorted(bins.items()) if n},
        }
        print(
            f"T={t}: top-1 {report['temperatures'][t]['top1']:.3f} (1 char {by_chars['1']:.3f}, "
            f"2 chars {by_chars['2']:.3f}); threshold for <=1% wrong {thr:.4f} filling {cov:.1%}"
        )
        for lo, (n, k) in sorted(bins.items()):
            print(f"   p in [{lo}, …): {n:4d} holes, accuracy {k / n:.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
