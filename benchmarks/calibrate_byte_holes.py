"""Calibrate the model's decisions inside byte-shifted runs (repair.fill.byte_holes).

Each decision (a hole cut at either end, a glued hole, a re-read character
checked for glue) is scored against the truth on synthetic damage (seed 1 by
default, so the benchmark's seed 0 stays a test).  The runs are re-decided
with every best guess written (threshold 0, raw posteriors), so a decision's
truth is known whenever everything written before it in the run is right: the
clean text must continue with what it chose.  Decisions after a wrong one are
left out (their context is already wrong; the benchmark measures the whole).

Prints, per temperature and kind of decision, accuracy per posterior bin, and
the pooled table that ``RELIABILITY`` in repair/fill/byte_holes.py copies.

    python benchmarks/calibrate_byte_holes.py --corpus ../shared/corpus --docs 300 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate_fill import BINS
from corrupt import generate_documents, held_out_paragraphs

import repair
from repair.fill import byte_holes
from repair.lm.model import load_default


def _kind(record: dict) -> str:
    if record["as_read"]:
        return "glue check"
    if record["chars"] == 2:
        return "glued hole"
    return "cut at start" if "lead_byte" not in record["constraint"] else "cut at end"


def collect(corpus: Path, docs: int, seed: int) -> tuple[list[dict], int]:
    lm = load_default()
    reread = repair.Repairer(families=("byte_shift",), model=None)
    byte_holes.calibrated = lambda raw: raw  # raw posteriors; threshold 0 writes every best guess
    rows, runs = [], 0
    for doc in generate_documents(held_out_paragraphs(corpus), docs, seed):
        damages = [d for d in doc.damages if d.family == "byte_shift"]
        if not damages:
            continue
        for e in reread.repair_text(doc.damaged).edits:
            d = next((d for d in damages if d.offset < e.end and e.start < d.offset + len(d.damaged)), None)
            if e.kind != "byte_shift" or not e.applied or d is None or e.start > d.offset:
                continue
            truth = doc.damaged[e.start : d.offset] + d.clean
            out, _, decided = byte_holes.decode_run(
                doc.damaged, e, lm, min_confidence=0.0, simplified=True, placeholder="〓"
            )
            runs += 1
            for r in decided:
                o = r["offset"]
                if out[:o] != truth[:o]:
                    continue
                best = {t: (c, p, truth[o:].startswith(c)) for t, (c, p) in r["best_by_temperature"].items()}
                rows.append({"kind": _kind(r), "best": best})
    return rows, runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "calibration_byte_holes.json")
    args = ap.parse_args()
    rows, runs = collect(args.corpus, args.docs, args.seed)
    print(f"{len(rows)} decisions with a right prefix, in {runs} runs")
    report: dict = {"runs": runs, "decisions": len(rows), "temperatures": {}}
    for t in rows[0]["best"] if rows else ():
        table: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        for r in rows:
            _, p, ok = r["best"][t]
            lo = max(b for b in BINS if b <= p)
            for kind in (r["kind"], "pooled"):
                table[kind][lo][0] += 1
                table[kind][lo][1] += ok
        report["temperatures"][t] = {
            kind: {str(lo): {"n": n, "right": k} for lo, (n, k) in sorted(bins.items())} for kind, bins in table.items()
        }
        print(f"T={t}")
        for kind, bins in sorted(table.items()):
            cells = " ".join(f"[{lo}: {k}/{n}]" for lo, (n, k) in sorted(bins.items()))
            print(f"  {kind:13s} {cells}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
