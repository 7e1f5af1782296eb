"""Calibrate the look-alike check (repair.fill.lookalike): swap prior, temperature, reliability.

On synthetic damage (seed 1 by default; the benchmark uses seed 0), every
character of a confusion set is judged against its twins.  A case is a
position where a twin beats the character; it is right when the generator put
a look-alike there and the twin is the clean character.  Clean positions where
a twin wins are false alarms.  For each swap prior and temperature the script
prints how many true swaps are found, how many false alarms are raised, and
the reliability table; the prior is chosen so that clean text stays quiet.

    python benchmarks/calibrate_lookalikes.py --corpus ../shared/corpus --docs 300 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from calibrate_fill import BINS, threshold_for
from corrupt import generate_documents, held_out_paragraphs

from repair.fill import lookalike
from repair.fill.ranker import left_context, posterior, right_context
from repair.lm.model import load_default
from repair.lm.tokens import to_traditional

PRIORS = (-2.0, -3.0, -4.0, -5.0, -6.0, -7.0)
TEMPERATURES = (1.0, 1.5)


def collect(corpus: Path, docs: int, seed: int) -> tuple[list[dict], int]:
    lm = load_default()
    rows, swaps = [], 0
    table = lookalike.twins()
    for doc in generate_documents(held_out_paragraphs(corpus), docs, seed):
        truth = {d.offset: d.clean for d in doc.damages if d.family == "lookalike"}
        swaps += len(truth)
        damaged_spans = [(d.offset, d.offset + len(d.damaged)) for d in doc.damages if d.family != "lookalike"]
        text = doc.damaged
        for i, ch in enumerate(text):
            if ch not in table or any(a <= i < b for a, b in damaged_spans):
                continue
            left, right = left_context(text, i), right_context(text, i + 1)
            if len(left) + len(right) < lookalike.MIN_CONTEXT:
                continue
            # Raw scores (no prior): the priors are applied below, one by one.
            cands, projected = lookalike._candidates(ch)
            scores = lm.score_candidates(to_traditional(left), projected, to_traditional(right))
            rows.append({"cands": cands, "scores": scores, "truth": truth.get(i, ch)})
    return rows, swaps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "calibration_lookalikes.json")
    args = ap.parse_args()
    rows, swaps = collect(args.corpus, args.docs, args.seed)
    clean_positions = sum(r["truth"] == r["cands"][0] for r in rows)
    print(f"{len(rows)} positions judged, {swaps} swaps made by the generator, {clean_positions} clean positions")
    report: dict = {"positions": len(rows), "swaps": swaps, "clean_positions": clean_positions, "runs": {}}
    for prior in PRIORS:
        for t in TEMPERATURES:
            points, false_alarms, found = [], 0, 0
            bins: dict = defaultdict(lambda: [0, 0])
            for r in rows:
                s = np.asarray(r["scores"], dtype=float)
                s[1:] += prior
                post = posterior(s, t)
                best = int(np.argmax(post))
                if best == 0 or post[best] < lookalike.REPORT_AT:
                    continue
                ok = r["cands"][best] == r["truth"]
                found += ok
                false_alarms += r["truth"] == r["cands"][0]
                points.append((float(post[best]), ok))
                lo = max(b for b in BINS if b <= post[best])
                bins[lo][0] += 1
                bins[lo][1] += ok
            thr, cov = threshold_for(points) if points else (1.01, 0.0)
            key = f"prior={prior} T={t}"
            report["runs"][key] = {
                "reported": len(points),
                "right": found,
                "false_alarms_on_clean": false_alarms,
                "threshold_1pct": thr,
                "coverage_1pct": cov,
                "bins": {str(lo): {"n": n, "right": k} for lo, (n, k) in sorted(bins.items())},
            }
            cells = " ".join(f"[{lo}: {k}/{n}]" for lo, (n, k) in sorted(bins.items()))
            print(f"{key}: reported {len(points)}, right {found}/{swaps}, false alarms {false_alarms}; {cells}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
