"""How the channel's cost grows with the input: 1x, 4x and 16x the text, and 1 MB.

Held-out paragraphs are garbled whole (one line each) with real decoders and
repaired by the default ``Repairer``; the time per character must not grow
with the length (the issue's bound: 4x the text at most 5x the time).  Also
1 MB of random valid GBK read as Big5, and of UTF-8 read as GBK, in one line:
no input may stall a worker.

    python benchmarks/channel_speed.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from repair.api import Repairer
from repair.channel.forward import garble
from repair.lm.split import paragraphs

RESULTS = Path(__file__).resolve().parent / "results"
CASES = (("utf-8", "gbk", "replace"), ("big5", "gbk", "replace"), ("gbk", "big5", "?"), ("utf-8", "cp1252", "ignore"))


def timed(repairer: Repairer, text: str) -> float:
    t0 = time.perf_counter()
    repairer.repair_text(text)
    return time.perf_counter() - t0


def random_gbk(n: int, rng: random.Random) -> str:
    chars = []
    while len(chars) < n:
        data = bytes([rng.randrange(0xB0, 0xF8), rng.randrange(0xA1, 0xFF)])
        try:
            chars.append(data.decode("gbk"))
        except UnicodeDecodeError:
            continue
    return "".join(chars)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--chars", type=int, default=1000, help="characters of the 1x text")
    ap.add_argument("--megabyte", type=int, default=1_000_000, help="characters of the large inputs")
    args = ap.parse_args()
    rng = random.Random(0)
    text = "".join(p for _, _, p in paragraphs(args.corpus, held_out=True))
    start = rng.randrange(0, len(text) - 20 * args.chars)
    base = text[start : start + 16 * args.chars]
    repairer = Repairer()
    repairer.repair_text("暖")  # load the model and tables before timing
    out: dict = {"growth": {}, "large": {}}
    for true, wrong, mode in CASES:
        row = {}
        for k in (1, 4, 16):
            piece = base[: k * args.chars]
            piece = piece.encode(true, errors="ignore").decode(true)
            row[k] = round(timed(repairer, garble(piece, true, wrong, mode)), 3)
        out["growth"][f"{true}>{wrong}>{mode}"] = row
        print(f"{true} read as {wrong} ({mode}): 1x {row[1]}s  4x {row[4]}s  16x {row[16]}s", flush=True)
    for label, make in (
        ("random valid GBK read as Big5", lambda: garble(random_gbk(args.megabyte // 2, rng), "gbk", "big5")),
        ("UTF-8 read as GBK", lambda: garble((base * 100)[: args.megabyte // 3], "utf-8", "gbk")),
        ("clean held-out text", lambda: (text * 2)[: args.megabyte]),
    ):
        data = make()
        seconds = timed(repairer, data)
        out["large"][label] = {"chars": len(data), "seconds": round(seconds, 2)}
        print(f"{label}: {len(data):,} characters in {seconds:.1f}s", flush=True)
    (RESULTS / "channel_speed.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
