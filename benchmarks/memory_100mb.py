"""Peak memory and time of ``repair clean`` on one ~100 MB file (the streamed path).

Builds one UTF-8 file of classical text outside the repository (``--workdir``,
``/tmp`` by default): the held-out paragraphs of the corpus, one a line,
repeated until ``--size-mb`` is reached, with one of the synthetic corruption
generator's damaged documents spliced in every ``--damage-every`` lines (every
damage family).  Then it runs, each as its own process under ``/usr/bin/time
-v`` (maximum resident set size of the whole process, wall time):

- ``repair clean -r IN_DIR -o OUT_DIR -q`` (the batch command a user runs on a
  folder; one file, so the batch runs in the command's own process);
- ``repair detect FILE --report-dir DIR`` (the per-file report), with ``--detect``;
- ``Repairer().repair_bytes`` on the whole file (the library call, for
  reference; it has no streaming), with ``--library``;
- the floor: ``Repairer().repair_text('暖')`` (interpreter, tables and the
  mapped model).

The numbers go to ``benchmarks/results/memory_100mb.json`` (no corpus text).

    python benchmarks/memory_100mb.py --corpus ../shared/corpus --detect --label after
    python benchmarks/memory_100mb.py --size-mb 10 --library --max-seconds 600  # the default time bound
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corrupt import generate_documents, held_out_paragraphs

ROOT = Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"


def build(corpus: Path, path: Path, size_mb: float, damage_every: int, seed: int) -> dict:
    """Write the test file; returns what it holds (sizes and counts only)."""
    paras = held_out_paragraphs(corpus)
    budget = int(size_mb * 2**20)
    docs = generate_documents(paras, max(1, budget // (damage_every * 220)), seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = lines = damaged = chars = 0
    with path.open("wb") as fh:
        while written < budget:
            for _, _, text in paras:
                if lines % damage_every == damage_every - 1:
                    text = docs[damaged % len(docs)].damaged
                    damaged += 1
                data = (text + "\n").encode("utf-8")
                fh.write(data)
                written += len(data)
                chars += len(text) + 1
                lines += text.count("\n") + 1
                if written >= budget:
                    break
    return {"bytes": written, "chars": chars, "lines": lines, "damaged_documents": damaged}


def timed(cmd: list[str], **kw) -> dict:
    """Run ``cmd`` under ``/usr/bin/time -v``: exit code, wall seconds, peak RSS in MB."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [TIME, "-v", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, **kw
    )
    seconds = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return {
        "exit_code": proc.returncode,
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(int(m.group(1)) / 1024, 1) if m else None,
        "stderr_tail": [line for line in proc.stderr.splitlines() if "\t" not in line][-3:],
    }


def chunk_chars() -> int | None:
    """Characters per chunk of the checkout measured (None before large files were streamed)."""
    try:
        from repair.stream import CHUNK_CHARS
    except ImportError:
        return None
    return CHUNK_CHARS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--size-mb", type=float, default=100)
    ap.add_argument("--damage-every", type=int, default=1000, help="one damaged document per this many lines")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--max-seconds", type=float, default=0, help="--max-seconds-per-file for clean (0: no bound, a full repair)"
    )
    ap.add_argument("--detect", action="store_true", help="also run repair detect FILE --report-dir")
    ap.add_argument("--library", action="store_true", help="also time Repairer().repair_bytes on the whole file")
    ap.add_argument("--label", default="", help="a name for this run in the results file (e.g. before, after)")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/repair-memory-100mb"))
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "memory_100mb.json")
    args = ap.parse_args()
    folder = args.workdir / "in"
    source = folder / "big.txt"
    t0 = time.perf_counter()
    built = build(args.corpus, source, args.size_mb, args.damage_every, args.seed)
    print(f"built {source}: {built['bytes'] / 2**20:.1f} MB in {time.perf_counter() - t0:.0f} s", flush=True)
    py = sys.executable
    runs: dict[str, dict] = {}
    runs["floor"] = timed([py, "-c", "import repair; repair.Repairer().repair_text('暖')"])
    out = args.workdir / "out"
    if out.exists():
        shutil.rmtree(out)
    cmd = [py, "-m", "repair", "clean", "-r", str(folder), "-o", str(out), "-q"]
    runs["clean"] = timed([*cmd, "--max-seconds-per-file", str(args.max_seconds)])
    report = out / "_repair_reports" / "big.txt.report.json"
    summary = json.loads((out / "_repair_reports" / "summary.json").read_text(encoding="utf-8"))
    row = summary["files"][0]
    runs["clean"].update(
        status=row["status"],
        applied=sum(row.get("applied", {}).values()),
        marked=sum(row.get("marked", {}).values()),
        report_mb=round(report.stat().st_size / 2**20, 1) if report.exists() else None,
    )
    print("clean:", runs["clean"], flush=True)
    if args.detect:
        reports = args.workdir / "detect-reports"
        if reports.exists():
            shutil.rmtree(reports)
        runs["detect"] = timed([py, "-m", "repair", "detect", str(source), "--report-dir", str(reports)])
        print("detect:", runs["detect"], flush=True)
    if args.library:
        code = f"import pathlib, repair; repair.Repairer().repair_bytes(pathlib.Path({str(source)!r}).read_bytes())"
        runs["library_repair_bytes"] = timed([py, "-c", code])
        print("library:", runs["library_repair_bytes"], flush=True)
    record = {
        "label": args.label,
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
        "file": {**built, "mb": round(built["bytes"] / 2**20, 1)},
        "settings": {
            "max_seconds_per_file": args.max_seconds,
            "damage_every": args.damage_every,
            "seed": args.seed,
            "chunk_chars": chunk_chars(),
        },
        "runs": runs,
    }
    results = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    results[args.label or "latest"] = record
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
