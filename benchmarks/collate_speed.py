"""How collation's cost grows with the reference: index building and aligning one document.

References are held-out corpus paragraphs (never seen by the toolkit's
tables), concatenated to 1x, 4x and 16x a base size; the documents are taken
from the first 1x, so every reference holds them, and damaged: a placeholder
every ``--every`` Han characters, punctuation dropped and half the documents
converted to simplified script (so the reference is another edition of them).
Prints the index's build time and size, the time to align a document, and how
many gaps were read solid and right.  Nothing is written.

    python benchmarks/collate_speed.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corrupt import held_out_paragraphs

from repair.collate import ReferenceIndex
from repair.lm.tokens import NON_HAN_RE, to_simplified


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("/work/shared/corpus"))
    ap.add_argument("--base", type=int, default=80_000, help="1x reference size in characters")
    ap.add_argument("--docs", type=int, default=30)
    ap.add_argument("--doc-chars", type=int, default=1000)
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    paras = [text for _, _, text in held_out_paragraphs(args.corpus)]
    rng = random.Random(args.seed)
    rng.shuffle(paras)
    pool = "\n".join(paras)
    print(f"held-out text: {len(pool):,} characters")
    base = pool[: args.base]
    docs = []
    for k in range(args.docs):
        start = rng.randrange(0, len(base) - args.doc_chars)
        chars = list(base[start : start + args.doc_chars])
        truth = {}
        han = [i for i, ch in enumerate(chars) if not NON_HAN_RE.match(ch)]
        for i in han[rng.randrange(args.every) :: args.every]:
            truth[i] = chars[i]
            chars[i] = "〓"
        doc = "".join(chars)
        if k % 2:
            doc = "".join(to_simplified(ch) for ch in doc)
        docs.append((doc, truth))
    print("size  ref chars   build s  index MB  align ms/doc  gaps  solid  solid right")
    for factor in (1, 4, 16):
        reference = pool[: args.base * factor]
        t0 = time.perf_counter()
        index = ReferenceIndex(reference)
        build = time.perf_counter() - t0
        size = sum(a.nbytes for a in (index.hashes, index.positions, index.proj.offsets))
        size += 2 * len(index.proj.raw) * (4 if max(index.proj.raw, default="a") > "\uffff" else 2)
        gaps = solid = right = 0
        t0 = time.perf_counter()
        for doc, truth in docs:
            aligned = index.align(doc)
            for i, ch in truth.items():
                reading = aligned.read(i, i + 1)
                gaps += 1
                solid += reading.solid
                right += reading.solid and reading.text == ch
        per_doc = (time.perf_counter() - t0) / len(docs) * 1000
        print(
            f"{factor:>3}x  {len(reference):>10,}  {build:>7.2f}  {size / 1e6:>8.1f}  {per_doc:>12.1f}"
            f"  {gaps:>4}  {solid:>5}  {right:>11}"
        )


if __name__ == "__main__":
    main()
