"""Does a cache of the batch's text help the model fill gaps? (Issue: evidence from the batch.)

The fill mixes the static model with a cache of the document's own clean text
(``repair.lm.cache``).  A batch of files from one work could add its other
files to that cache.  This measures it: each synthetic document (held-out
text, the benchmark's generator) is repaired without witnesses, once with its
own cache only and once with the rest of its work's held-out text added to
the cache (up to ``--batch-chars`` characters, in the document's script), and
the model's first choice is compared with the truth per channel.

    python benchmarks/batch_cache.py --corpus ../shared/corpus --docs 150   # ~4 min
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import opencc
from corrupt import generate_documents, held_out_paragraphs

import repair
import repair.fill.ranker as ranker

OUT = Path(__file__).resolve().parent / "results" / "batch_cache.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=150)
    ap.add_argument("--seed", type=int, default=3, help="generator seed (not the benchmark's 0)")
    ap.add_argument("--batch-chars", type=int, default=300_000)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    paras = held_out_paragraphs(args.corpus)
    by_file: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for name, idx, text in paras:
        by_file[name].append((idx, text))
    t2s = opencc.OpenCC("t2s")
    base = repair.Repairer(min_confidence=1.0)
    fill = ranker.fill
    right: dict[str, Counter[str]] = {"own": Counter(), "own + batch": Counter()}
    spans: Counter[str] = Counter()
    try:
        for doc in generate_documents(paras, args.docs, args.seed):
            mine = set(doc.sources)
            name = doc.sources[0][0]
            batch = "\n".join(t for idx, t in by_file[name] if (name, idx) not in mine)[: args.batch_chars]
            if doc.script == "simplified":
                batch = t2s.convert(batch)
            for label, extra in (("own", ()), ("own + batch", (batch,))):
                ranker.fill = functools.partial(fill, cache_texts=extra)
                result = base.repair_text(doc.damaged)
                by_span = {(e.start, e.end, e.kind): e for e in result.edits}
                for d in doc.damages:
                    e = by_span.get((d.offset, d.offset + len(d.damaged), d.family))
                    if e is None or "channel" not in e.detail or not e.candidates:
                        continue
                    channel = e.detail["channel"]
                    spans[channel] += label == "own"
                    right[label][channel] += e.candidates[0].text == d.clean
    finally:
        ranker.fill = fill
    table = {
        channel: {"spans": n, **{label: right[label][channel] / n for label in right}} for channel, n in spans.items()
    }
    for channel, row in sorted(table.items()):
        print(
            f"{channel:24s} {row['spans']:5d} spans: top-1 {row['own']:.3f} own cache, "
            f"{row['own + batch']:.3f} with batch"
        )
    args.out.write_text(json.dumps({"docs": args.docs, "seed": args.seed, "channels": table}, indent=1))


if __name__ == "__main__":
    main()
