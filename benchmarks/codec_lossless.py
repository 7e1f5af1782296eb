"""Lossless codec confusions over several seeds: how many come back exact, and the ones that do not.

The repair-quality benchmark has about 84 lossless confusions in its 200
documents, too few to tell 99% from 99.5%.  This repairs only the generated
documents that hold a codec confusion (as ``run_benchmark.py --seed N --docs
M`` would, scored the same way) and lists each lossless piece that did not
come back, with its context and the edit that touched it.

    python benchmarks/codec_lossless.py --corpus ../shared/corpus --seeds 0,3,5 --docs 1000   # ~1 min a seed
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs
from run_benchmark import repair_all, score_document, source_state

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "codec_lossless.json"


def run_seed(paras: list, seed: int, docs: int, jobs: int, show: bool) -> dict:
    chosen = [
        d
        for d in generate_documents(paras, docs, seed)
        if any(x.family == "codec_confusion" and x.recoverable for x in d.damages)
    ]
    results = repair_all([d.damaged for d in chosen], jobs)
    total = restored = 0
    misses = []
    for doc, (output, edits) in zip(chosen, results, strict=True):
        outcomes, _ = score_document(doc, output, edits)
        for o in outcomes:
            x = o.damage
            if x.family != "codec_confusion" or not x.recoverable:
                continue
            total += 1
            if o.outcome == "restored":
                restored += 1
                continue
            misses.append({"outcome": o.outcome, "variant": x.variant})
            if show:
                a = x.offset
                print(f"  {o.outcome} {x.variant}: {x.clean[:30]!r} <- {x.damaged[:30]!r}")
                print(
                    f"    before {doc.damaged[max(0, a - 10) : a]!r}  after {doc.damaged[a + len(x.damaged) :][:10]!r}"
                )
                for e in edits:
                    if e.end >= a - 3 and e.start <= a + len(x.damaged) + 3 and e.kind == "codec_confusion":
                        print(f"    edit {e.before[:30]!r} -> {e.after[:30]!r}")
    return {"seed": seed, "documents": docs, "lossless": total, "restored": restored, "misses": misses}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--seeds", default="0,3,5", help="comma-separated generator seeds")
    ap.add_argument("--docs", type=int, default=1000, help="documents generated per seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--quiet", action="store_true", help="do not list the pieces that did not come back")
    args = ap.parse_args(argv)
    paras = held_out_paragraphs(args.corpus)
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        print(f"seed {seed}:")
        row = run_seed(paras, seed, args.docs, args.jobs, not args.quiet)
        rows.append(row)
        print(f"  {row['restored']} of {row['lossless']} exact ({row['restored'] / max(1, row['lossless']):.1%})")
    print("| seed | documents | lossless pieces | exact | share |")
    print("|--:|--:|--:|--:|--:|")
    for r in rows:
        share = r["restored"] / max(1, r["lossless"])
        print(f"| {r['seed']} | {r['documents']:,} | {r['lossless']} | {r['restored']} | {share:.1%} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"source": source_state(), "seeds": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
