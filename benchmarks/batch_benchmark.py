"""The batch command at scale: ``repair clean`` over ~200 MB of mixed clean and damaged files.

Builds a folder of files from the corpus (so it measures speed, not repair
quality; the corpus is only read, and the folder lives outside the repository):
the corpus's own files cut into pieces of ``--file-kb``, written as traditional
UTF-8, simplified GBK (OpenCC) and traditional Big5 copies, until ``--size-mb``
is reached; into ``--damaged-share`` of the files the synthetic corruption
generator's damaged documents are spliced (every damage family, 3 per file).
Then it runs ``repair clean -r DIR -o OUT -q --jobs N`` for each N in
``--jobs`` (a fresh output folder each time, so nothing is skipped) and
records wall time, throughput, and peak memory per worker (each worker
reports its own peak RSS into summary.json).

    python benchmarks/batch_benchmark.py --corpus ../shared/corpus --size-mb 200 --jobs 1,2
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corrupt import corpus_files, generate_documents, held_out_paragraphs

from repair.lm.tokens import to_simplified


def build(corpus: Path, folder: Path, size_mb: float, file_kb: int, damaged_share: float, seed: int) -> dict:
    rng = random.Random(seed)
    damaged_docs = [d.damaged for d in generate_documents(held_out_paragraphs(corpus), 600, seed)]
    folder.mkdir(parents=True, exist_ok=True)
    budget = int(size_mb * 2**20)
    written = files = damaged = 0
    chars = 0
    versions = (("utf-8", False), ("gbk", True), ("big5", False))
    for copy, (codec, simplify) in enumerate(versions * 3):
        for src in corpus_files(corpus):
            text = src.read_text(encoding="utf-8")
            if simplify:
                text = to_simplified(text)
            step = file_kb * 1024 // 3  # characters per piece (about 3 UTF-8 bytes each)
            for k in range(0, len(text), step):
                piece = text[k : k + step]
                if rng.random() < damaged_share:
                    lines = piece.split("\n")
                    for _ in range(3):
                        lines.insert(rng.randrange(len(lines) + 1), rng.choice(damaged_docs))
                    piece = "\n".join(lines)
                    damaged += 1
                try:
                    data = piece.encode(codec)
                except UnicodeEncodeError:
                    data = piece.encode("utf-8")
                name = folder / f"c{copy}" / src.parent.name / f"{src.stem}.{k // step:04d}.txt"
                name.parent.mkdir(parents=True, exist_ok=True)
                name.write_bytes(data)
                written += len(data)
                chars += len(piece)
                files += 1
                if written >= budget:
                    return {"bytes": written, "files": files, "damaged_files": damaged, "chars": chars}
    return {"bytes": written, "files": files, "damaged_files": damaged, "chars": chars}


def run(folder: Path, out: Path, jobs: int) -> dict:
    if out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "repair", "clean", "-r", str(folder), "-o", str(out), "-q", "--jobs", str(jobs)],
        capture_output=True,
    )
    seconds = time.perf_counter() - t0
    summary = json.loads((out / "_repair_reports" / "summary.json").read_text(encoding="utf-8"))
    peaks = list(summary["peak_rss_mb_per_worker"].values())
    files = summary["files"]
    return {
        "jobs": jobs,
        "exit_code": proc.returncode,
        "seconds": round(seconds, 1),
        "files": len(files),
        "failed": summary["failed"],
        "chars": sum(f.get("chars", 0) for f in files),
        "applied": sum(sum(f.get("applied", {}).values()) for f in files),
        "marked": sum(sum(f.get("marked", {}).values()) for f in files),
        "peak_rss_mb_per_worker": max(peaks) if peaks else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--file-kb", type=int, default=200)
    ap.add_argument("--damaged-share", type=float, default=0.3)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/repair-batch-benchmark"))
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "batch.json")
    args = ap.parse_args()
    data = args.workdir / "in"
    if data.exists():
        shutil.rmtree(data)
    t0 = time.perf_counter()
    built = build(args.corpus, data, args.size_mb, args.file_kb, args.damaged_share, args.seed)
    print(
        f"built {built['files']} files, {built['bytes'] / 2**20:.1f} MB in {time.perf_counter() - t0:.0f} s", flush=True
    )
    runs = []
    for jobs in (int(j) for j in args.jobs.split(",")):
        r = run(data, args.workdir / f"out-{jobs}", jobs)
        r["mb_per_s"] = round(built["bytes"] / 2**20 / r["seconds"], 3)
        r["chars_per_s"] = round(r["chars"] / r["seconds"])
        runs.append(r)
        print(json.dumps(r), flush=True)
    if len(runs) >= 2:
        print(f"speed-up jobs {runs[-1]['jobs']} vs {runs[0]['jobs']}: {runs[0]['seconds'] / runs[-1]['seconds']:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"input": built, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
