"""How long a marked gap costs: held-out text with placeholders at random Han characters.

A file full of gaps (a whole page of U+FFFD, a digitization with thousands of
home-made glyphs) spends nearly all its time ranking them, so this is the
number that tells a user how long such a file will take.

    python benchmarks/gap_speed.py --corpus ../shared/corpus --gaps 300
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corrupt import held_out_paragraphs, is_han

import repair

OUT = Path(__file__).resolve().parent / "results" / "gap_speed.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--gaps", type=int, default=300)
    ap.add_argument("--chars", type=int, default=60_000, help="characters of held-out text")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    text = "\n".join(t for _, _, t in held_out_paragraphs(args.corpus))[: args.chars]
    rng = random.Random(args.seed)
    chars = list(text)
    sites = rng.sample([i for i, c in enumerate(chars) if is_han(c)], args.gaps)
    for i in sites:
        chars[i] = "□"
    damaged = "".join(chars)
    repairer = repair.Repairer()
    repairer.repair_text(damaged[:200])  # map the model and build the tables first
    t0 = time.perf_counter()
    result = repairer.repair_text(damaged)
    seconds = time.perf_counter() - t0
    gaps = sum(e.kind == "placeholder" for e in result.edits)
    row = {
        "characters": len(damaged),
        "gaps": gaps,
        "seconds": round(seconds, 2),
        "ms_per_gap": round(1000 * seconds / gaps, 1),
    }
    print(json.dumps(row))
    args.out.write_text(json.dumps(row, indent=1))


if __name__ == "__main__":
    main()
