"""False edits with a real reference: clean text repaired against another edition of it.

The synthetic witness benchmark gives each document its own clean text as the
reference, which is the kindest case.  A user's reference is usually another
edition, or a commentary that quotes the text with its own readings, and every
place where the two editions differ could tempt a witness-based repair (above
all the search for silently lost characters, which looks at every boundary).
Here the held-out paragraphs of one corpus text are repaired with a related
text as the reference; the paragraphs are clean, so every applied edit is a
change of a genuine reading (or, now and then, a real error of the corpus,
which the examples let a reader judge).

    python benchmarks/cross_reference.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import repair
from repair.lm.split import is_held_out

# (text repaired, reference): the same work in two editions, a base text and
# its commentary, and two histories that copy each other with changes.
PAIRS = (
    ("KR5c0126", "KR5c0138"),  # 莊子 (CHANT) against 莊子注 (WYG)
    ("KR2a0007", "KR2a0001"),  # 前漢書 against 史記
    ("KR1d0053", "KR1d0059"),  # 禮記注疏 against 禮記集說 (陳澔)
    ("KR1h0007", "KR1h0015"),  # 論語注疏 against 四書章句集註
)


def corpus_file(corpus: Path, text_id: str) -> Path:
    found = sorted(corpus.rglob(f"{text_id}_*.txt"))
    if not found:
        raise SystemExit(f"{text_id} not found under {corpus}")
    return found[0]


def run_pair(corpus: Path, target: str, reference: str, max_chars: int) -> dict:
    target_path, reference_path = corpus_file(corpus, target), corpus_file(corpus, reference)
    # The held-out paragraphs of the target, the whole reference (a lookup, not training).
    # Only the target file is read, with the split's own rule per line.
    texts, n = [], 0
    with target_path.open(encoding="utf-8") as fh:
        for no, line in enumerate(fh):
            line = line.rstrip("\n")
            if not line or not is_held_out(target_path.name, no):
                continue
            texts.append(line)
            n += len(line)
            if n >= max_chars:
                break
    ref = reference_path.read_text(encoding="utf-8")
    repairer = repair.Repairer(references=(ref,))
    t0 = time.perf_counter()
    counts: Counter[str] = Counter()
    reported: Counter[str] = Counter()
    examples = []
    for text in texts:
        result = repairer.repair_text(text)
        for e in result.edits:
            (counts if e.applied else reported)[e.kind] += 1
            if len(examples) < 40:
                best = e.candidates[0].text if e.candidates else ""
                context = text[max(0, e.start - 8) : e.end + 8]
                row = {"kind": e.kind, "applied": e.applied, "before": e.before, "best": best}
                examples.append({**row, "context": context})
    chars = sum(len(t) for t in texts)
    return {
        "target": target_path.stem,
        "reference": reference_path.stem,
        "chars": chars,
        "applied": dict(counts),
        "reported": dict(reported),
        "applied_per_million": sum(counts.values()) * 1e6 / max(1, chars),
        "reported_per_million": sum(reported.values()) * 1e6 / max(1, chars),
        "seconds": round(time.perf_counter() - t0, 1),
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--max-chars", type=int, default=200_000, help="held-out characters per target text")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "cross_reference.json")
    args = ap.parse_args(argv)
    rows = [run_pair(args.corpus, t, r, args.max_chars) for t, r in PAIRS]
    print("| text repaired | reference | clean chars | applied (per M) | reported, not applied (per M) |")
    print("|---|---|--:|--:|--:|")
    for row in rows:
        cells = [
            ", ".join(f"{k} {v}" for k, v in sorted(row[which].items())) or "0" for which in ("applied", "reported")
        ]
        print(
            f"| {row['target']} | {row['reference']} | {row['chars']:,} | {cells[0]} "
            f"({row['applied_per_million']:.1f}) | {cells[1]} ({row['reported_per_million']:.1f}) |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # Numbers only in the results; the examples quote the corpus, so they go
    # to a file that git ignores (benchmarks/results/.gitignore).
    numbers = [{k: v for k, v in row.items() if k != "examples"} for row in rows]
    args.out.write_text(json.dumps(numbers, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    examples = args.out.with_suffix(".examples.json")
    examples.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
