"""What fires on clean text: detections per family per million characters of the corpus.

The corpus is clean classical text, so (nearly) every detection on it is a
false one, and every applied edit a damaged character.  This runs the whole
pipeline (``repair.Repairer().repair_text``) over the first ``--chars``
characters of the corpus (files in sorted order, all of it rather than only
the held-out split, because the point is to find what fires, not to score
generalisation), once in traditional script and once converted to simplified
with OpenCC, and lists example contexts per family so that a developer can see
the pattern behind each false detection.

The corpus editions mark characters they could not print with 〓 and □: a
``placeholder`` detection on those is a true detection, and is counted apart.

Counts go to ``--out`` (numbers only, safe to commit); example contexts hold
corpus text and go to ``--examples-out`` (git-ignored), and to stdout.

    python benchmarks/false_detections.py --corpus ../shared/corpus --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import opencc
from corrupt import FAMILIES, corpus_files
from run_benchmark import GENUINE_LABEL, GENUINE_PLACEHOLDERS, chunks, per_million_summary, source_state, table

import repair

RESULTS = Path(__file__).resolve().parent / "results"
GENUINE = GENUINE_LABEL
CONTEXT = 15


@dataclass(frozen=True)
class Hit:
    """One detection on clean text, with enough context to read it."""

    bucket: str
    applied: bool
    before: str
    context: str


def bucket(kind: str, before: str) -> str:
    return GENUINE if kind == "placeholder" and set(before) <= GENUINE_PLACEHOLDERS else kind


_REPAIRER: repair.Repairer | None = None


def detect_batch(texts: Sequence[str]) -> tuple[int, list[Hit]]:
    """Repair each paragraph on its own (a worker process); returns characters seen and hits."""
    global _REPAIRER
    if _REPAIRER is None:
        _REPAIRER = repair.Repairer()
    hits = []
    for text in texts:
        for e in _REPAIRER.repair_text(text).edits:
            left = text[max(0, e.start - CONTEXT) : e.start]
            right = text[e.end : e.end + CONTEXT]
            middle = f"{e.before}→{e.after}" if e.applied else e.before
            hits.append(Hit(bucket(e.kind, e.before), e.applied, e.before, f"{left}⟦{middle}⟧{right}"))
    return sum(len(t) for t in texts), hits


def read_corpus(root: Path, chars: int) -> tuple[list[str], list[str]]:
    """Paragraphs of the corpus, files in sorted order, until ``chars`` characters; and the files used."""
    out: list[str] = []
    files: list[str] = []
    n = 0
    for path in corpus_files(root):
        if n >= chars:
            break
        files.append(path.name)
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if line:
                    out.append(line)
                    n += len(line)
                    if n >= chars:
                        break
    return out, files


def scan(texts: Sequence[str], jobs: int, label: str, examples: int, seed: int) -> dict:
    """Counts per family, reservoir-sampled example contexts and the most frequent detected strings."""
    counts: dict[str, Counter] = defaultdict(Counter)
    samples: dict[str, list[str]] = defaultdict(list)
    common: dict[str, Counter] = defaultdict(Counter)
    rng = random.Random(seed)
    total = sum(len(t) for t in texts)
    done = 0
    next_report = 500_000
    t0 = time.perf_counter()
    batches = chunks(texts, 50_000)
    with Pool(jobs) if jobs > 1 else _Serial() as pool:
        for chars, hits in pool.imap(detect_batch, batches):
            done += chars
            for h in hits:
                c = counts[h.bucket]
                c["detections"] += 1
                c["applied"] += h.applied
                common[h.bucket][h.before] += 1
                seen = c["detections"]
                if len(samples[h.bucket]) < examples:
                    samples[h.bucket].append(h.context)
                elif (k := rng.randrange(seen)) < examples:
                    samples[h.bucket][k] = h.context
            if done >= next_report or done == total:
                rate = done / max(1e-9, time.perf_counter() - t0)
                det = sum(c["detections"] for c in counts.values())
                print(
                    f"[{label}] {done:,}/{total:,} chars, {det:,} detections, {rate:,.0f} chars/s",
                    file=sys.stderr,
                    flush=True,
                )
                next_report = done + 500_000
    summary = per_million_summary(counts, total)
    return {
        "paragraphs": len(texts),
        "seconds": round(time.perf_counter() - t0, 1),
        **summary,
        "examples": {k: v for k, v in samples.items()},
        "most_detected": {k: v.most_common(10) for k, v in common.items()},
    }


class _Serial:
    """Stands in for a Pool when --jobs 1, so profiling and debugging see one process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return map(fn, items)


def render(results: dict, markdown: bool, examples: int) -> str:
    trad, simp = results["traditional"], results["simplified"]
    out = [
        f"Detections on clean corpus text per million characters ({trad['chars']:,} characters of "
        f"{len(results['files'])} files, traditional and OpenCC-simplified):",
        "",
    ]
    rows = []
    for fam in [*FAMILIES, GENUINE]:
        t, s = trad["families"][fam], simp["families"][fam]
        name = "placeholder on the corpus's own 〓/□ (true)" if fam == GENUINE else fam
        rows.append(
            [
                name,
                str(t["detections"]),
                f"{t['detections_per_million']:.1f}",
                f"{t['applied_per_million']:.1f}",
                str(s["detections"]),
                f"{s['detections_per_million']:.1f}",
                f"{s['applied_per_million']:.1f}",
            ]
        )
        if fam == FAMILIES[-1]:
            rows.append(
                [
                    "all families (false)",
                    "",
                    f"{trad['total_detections_per_million']:.1f}",
                    f"{trad['total_applied_per_million']:.1f}",
                    "",
                    f"{simp['total_detections_per_million']:.1f}",
                    f"{simp['total_applied_per_million']:.1f}",
                ]
            )
    header = ["family", "trad. n", "trad. /M", "trad. applied/M", "simp. n", "simp. /M", "simp. applied/M"]
    out += [table(header, rows, markdown), ""]
    ranked = sorted(
        (f for f in [*FAMILIES, GENUINE] if trad["families"][f]["detections"] + simp["families"][f]["detections"]),
        key=lambda f: (f == GENUINE, -(trad["families"][f]["detections"] + simp["families"][f]["detections"])),
    )
    for fam in ranked:
        for script, res in (("traditional", trad), ("simplified", simp)):
            got = res["examples"].get(fam, [])[:examples]
            if not got:
                continue
            common = ", ".join(f"{s!r}×{n}" for s, n in res["most_detected"].get(fam, [])[:5])
            out.append(f"{'### ' if markdown else ''}{fam}, {script}: {len(got)} example(s); most detected: {common}")
            out.append("")
            out += [f"- {c}" for c in got]
            out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> dict:
    """Scan the corpus in both scripts; save counts and examples; print the table and the examples."""
    ap = argparse.ArgumentParser(description="Detections per family on clean corpus text (false detections).")
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--chars", type=int, default=5_000_000, help="characters to scan per script")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--examples", type=int, default=20, help="example contexts kept per family and script")
    ap.add_argument("--seed", type=int, default=0, help="seed of the example sampling")
    ap.add_argument("--out", type=Path, default=RESULTS / "false_detections.json", help="counts (no corpus text)")
    ap.add_argument(
        "--examples-out",
        type=Path,
        default=RESULTS / "false_detections.examples.json",
        help="example contexts (corpus text: keep out of the repository)",
    )
    ap.add_argument("--markdown", action="store_true", help="print Markdown instead of plain tables")
    args = ap.parse_args(argv)

    texts, files = read_corpus(args.corpus, args.chars)
    if not texts:
        ap.error(f"no corpus text under {args.corpus}")
    t2s = opencc.OpenCC("t2s")
    results = {
        "files": files,
        "traditional": scan(texts, args.jobs, "traditional", args.examples, args.seed),
        "simplified": scan([t2s.convert(t) for t in texts], args.jobs, "simplified", args.examples, args.seed),
        "repair_version": repair.__version__,
        "repair_source": source_state(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    counts = {k: v for k, v in results.items()}
    examples = {}
    for script in ("traditional", "simplified"):
        res = dict(results[script])
        examples[script] = {"examples": res.pop("examples"), "most_detected": res.pop("most_detected")}
        counts[script] = res
    args.out.write_text(json.dumps(counts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    args.examples_out.parent.mkdir(parents=True, exist_ok=True)
    args.examples_out.write_text(json.dumps(examples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"saved {args.out} and {args.examples_out}", file=sys.stderr)
    print(render(results, args.markdown, args.examples))
    return results


if __name__ == "__main__":
    main()
