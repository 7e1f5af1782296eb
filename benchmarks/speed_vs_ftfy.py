"""Speed beside ftfy, in one process, on the same texts.

Users run the toolkit over whole archives and inside ingest pipelines next to
ftfy, so its speed is read as a ratio to ftfy's on the same texts:

- the default ``Repairer`` (every family on, the shipped model);
- the marked-damage scan alone (the families that only find and mark ``?``,
  U+FFFD, private-use codes, foreign symbols and placeholders, no model), and
  the detect stage's one compiled scan of every family's trigger characters;
- ``ftfy.fix_text`` without width folding (full-width CJK punctuation kept),
  and ``ftfy.fix_encoding``;

on clean held-out text (paragraphs, one per line), on the main benchmark's
damaged documents (``corrupt.generate_documents``: about one damaged piece per
110 characters), and on one line of a million characters.  It also records how
long the model takes to load and the process's peak memory.

    python benchmarks/speed_vs_ftfy.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import ftfy

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs

from repair import Repairer
from repair.pipeline.detect import scan

OUT = Path(__file__).resolve().parent / "results" / "speed_vs_ftfy.json"
MARKERS = ("question_mark", "replacement_char", "private_use", "foreign_symbol", "placeholder")
FTFY_CONFIG = ftfy.TextFixerConfig(fix_character_width=False)


def timed(fn: Callable[[str], object], texts: list[str]) -> float:
    t0 = time.perf_counter()
    for t in texts:
        fn(t)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--clean-chars", type=int, default=400_000)
    ap.add_argument("--docs", type=int, default=100, help="damaged documents (the main benchmark's kind)")
    ap.add_argument("--line-chars", type=int, default=1_000_000)
    args = ap.parse_args()

    # The model is mapped on first use: load time is the Repairer and its first call.
    t0 = time.perf_counter()
    repairer = Repairer()
    repairer.repair_text("暖")  # tables and caches warm before timing
    load = time.perf_counter() - t0
    markers = Repairer(model=None, families=MARKERS)
    markers.repair_text("暖")
    ftfy.fix_text("暖", FTFY_CONFIG)

    paras = held_out_paragraphs(args.corpus)
    clean_text, size = [], 0
    for _, _, p in paras:
        if size >= args.clean_chars:
            break
        clean_text.append(p)
        size += len(p) + 1
    clean = "\n".join(clean_text)[: args.clean_chars]
    damaged = [d.damaged for d in generate_documents(paras, args.docs, 0)]
    line = "".join(p for _, _, p in paras)[: args.line_chars]
    sets = {
        "clean held-out text": [clean],
        f"damaged documents ({args.docs})": damaged,
        "one line of 1,000,000 characters": [line],
    }
    runners: dict[str, Callable[[str], object]] = {
        "repair (default)": repairer.repair_text,
        "marked-damage scan": markers.repair_text,
        "trigger scan": scan,
        "ftfy.fix_text": lambda t: ftfy.fix_text(t, FTFY_CONFIG),
        "ftfy.fix_encoding": ftfy.fix_encoding,
    }
    results: dict = {"model_load_seconds": round(load, 3), "texts": {}}
    for name, texts in sets.items():
        chars = sum(map(len, texts))
        row = {"chars": chars}
        for label, fn in runners.items():
            seconds = timed(fn, texts)
            row[label] = {"seconds": round(seconds, 3), "chars_per_s": round(chars / seconds) if seconds else None}
            print(f"{name}: {label} {seconds:.2f} s, {chars / seconds:,.0f} chars/s", flush=True)
        results["texts"][name] = row
    results["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(markdown(results))


def markdown(results: dict) -> str:
    rows = [
        "| text | repair (default) | marked-damage scan | trigger scan | ftfy.fix_text | ftfy.fix_encoding"
        " | repair / ftfy.fix_text |",
        "|---|--:|--:|--:|--:|--:|--:|",
    ]
    for name, row in results["texts"].items():
        rate = {k: v["chars_per_s"] for k, v in row.items() if isinstance(v, dict)}
        ratio = rate["repair (default)"] / rate["ftfy.fix_text"]
        rows.append(
            f"| {name} | {rate['repair (default)']:,} | {rate['marked-damage scan']:,} | {rate['trigger scan']:,}"
            f" | {rate['ftfy.fix_text']:,}"
            f" | {rate['ftfy.fix_encoding']:,} | {ratio:.3f} |"
        )
    rows.append("")
    rows.append(
        f"Characters per second, one process. Model load and first call {results['model_load_seconds']} s; "
        f"peak memory of the whole process {results['peak_rss_mb']} MB."
    )
    return "\n".join(rows)


if __name__ == "__main__":
    main()
