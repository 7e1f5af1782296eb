"""A digest of what the repair writes and reports, to show a speed change changes nothing else.

Runs the default ``Repairer`` on the main benchmark's damaged documents (seed
0), on held-out clean paragraphs, and (``--witness``) on the damaged documents
with their clean text as a reference, and writes one line per text: the output
text and every edit (span, kind, what was written, confidence, top
candidates).  Two runs are the same exactly when their files are::

    python benchmarks/identity.py --out /tmp/before.jsonl
    ... change ...
    python benchmarks/identity.py --out /tmp/after.jsonl
    cmp /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs

from repair import Repairer
from repair.types import Result


def digest(result: Result) -> dict:
    return {
        "text": result.text,
        "edits": [
            [e.start, e.end, e.kind, e.after, e.applied, round(e.confidence, 6), [c.text for c in e.candidates[:5]]]
            for e in result.edits
        ],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--clean-chars", type=int, default=200_000)
    ap.add_argument(
        "--witness", action="store_true", help="also each damaged document with its clean text as reference"
    )
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    paras = held_out_paragraphs(args.corpus)
    docs = generate_documents(paras, args.docs, 0)
    clean, size = [], 0
    for _, _, p in paras[::7]:
        if size >= args.clean_chars:
            break
        clean.append(p)
        size += len(p)
    repairer = Repairer()
    t0 = time.process_time()
    with args.out.open("w", encoding="utf-8") as out:
        for n, d in enumerate(docs):
            out.write(json.dumps({"damaged": n, **digest(repairer.repair_text(d.damaged))}, ensure_ascii=False) + "\n")
        for n, p in enumerate(clean):
            out.write(json.dumps({"clean": n, **digest(repairer.repair_text(p))}, ensure_ascii=False) + "\n")
        if args.witness:
            for n, d in enumerate(docs):
                result = Repairer(references=(d.clean,)).repair_text(d.damaged)
                out.write(json.dumps({"witness": n, **digest(result)}, ensure_ascii=False) + "\n")
    print(f"{args.out}: {len(docs)} documents, {len(clean)} clean paragraphs, {time.process_time() - t0:.1f} s CPU")


if __name__ == "__main__":
    main()
