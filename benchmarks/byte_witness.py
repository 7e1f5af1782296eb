"""Byte-shifted runs read whole from a reference: how many are read so, and whether each is exact.

Every generated document that holds a byte-shifted run is repaired with its
clean text as the reference (as ``run_benchmark.py --witness`` does) and each
run is scored as the benchmark scores it, split by whether the run was read
whole from the reference (``detail.byte_witness``) or not.  A run read whole
and not exact would be a wrong repair that the byte check let through.

    python benchmarks/byte_witness.py --corpus ../shared/corpus --seeds 0:200,1:1000,2:1000   # ~4 min
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs
from run_benchmark import edit_views, score_document, source_state

import repair

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "byte_witness.json"


def run_seed(paras: list, seed: int, docs: int, lm: object) -> dict[str, int]:
    tally: Counter[str] = Counter()
    for doc in generate_documents(paras, docs, seed):
        if not any(d.family == "byte_shift" for d in doc.damages):
            continue
        result = repair.Repairer(model=lm, references=(doc.clean,), same_edition=True).repair_text(doc.damaged)
        outcomes, _ = score_document(doc, result.text, edit_views(result.edits))
        for o in outcomes:
            d = o.damage
            if d.family != "byte_shift":
                continue
            near = [e for e in result.edits if e.start < d.offset + len(d.damaged) and e.end > d.offset]
            whole = any("byte_witness" in e.detail for e in near)
            tally[f"{'read whole' if whole else 'not read whole'}: {o.outcome}"] += 1
    return dict(sorted(tally.items()))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--seeds", default="0:200,1:1000,2:1000", help="seed:documents, comma-separated")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    paras = held_out_paragraphs(args.corpus)
    lm = repair.Repairer().lm
    rows = []
    for item in args.seeds.split(","):
        seed, docs = (int(x) for x in item.split(":"))
        tally = run_seed(paras, seed, docs, lm)
        rows.append({"seed": seed, "documents": docs, "outcomes": tally})
        print(f"seed {seed} ({docs} documents): {tally}", flush=True)
    print("| seed | documents | runs | read whole | of those exact | exact in all |")
    print("|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        t = r["outcomes"]
        runs = sum(t.values())
        whole = sum(v for k, v in t.items() if k.startswith("read whole"))
        exact_whole = t.get("read whole: restored", 0)
        exact = exact_whole + t.get("not read whole: restored", 0)
        print(f"| {r['seed']} | {r['documents']:,} | {runs} | {whole} | {exact_whole} | {exact} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"source": source_state(), "seeds": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
