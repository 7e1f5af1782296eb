"""Large references: a batch's time and memory with references of millions of characters.

Runs ``repair clean -r SEEDS --reference A --reference B -j N`` twice with a
fresh index cache: cold (the parent builds and stores the references'
indexes) and warm (every process maps them).  For each run it prints the
wall time, the peak resident memory of the largest process (``ru_maxrss`` of
the command's process tree), the peak of the whole tree's proportional set
size (shared pages of the mapped indexes counted once, sampled every 0.2 s)
and each worker's peak from the batch summary.  Then the index build of each
reference on its own (time, size on disk), and, with ``--large-chars``, of
one reference of that many characters made by concatenating corpus texts
(in a temporary file, removed afterwards): build time, peak memory of the
building process, size on disk, and the memory of a process that maps it
and aligns a document.

    python benchmarks/reference_scale.py --corpus ../shared/corpus --seeds ../shared/seeds --jobs 2
    python benchmarks/reference_scale.py --large-chars 30000000     # + ~2 min
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Two texts of the ritual classics with their commentaries, as the seeds are.
DEFAULT_REFERENCES = ("kanripo/KR1d0053_禮記註疏.txt", "kanripo/KR1d0057_禮記集說_衞湜.txt")


def tree_pss_mb(pid: int) -> float:
    """The proportional set size of ``pid`` and its descendants (a mapped page shared by n processes counts 1/n)."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        stack.extend(int(c) for c in children)
    return total / 1024


def measured(cmd: list[str], env: dict[str, str]) -> dict:
    """Run ``cmd`` in a child that reports its tree's ``ru_maxrss``; sample the tree's PSS meanwhile."""
    wrapper = (
        "import resource, subprocess, sys, json\n"
        "rc = subprocess.call(sys.argv[1:])\n"
        "print(json.dumps({'rc': rc, 'maxrss_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n"
    )
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", wrapper, *cmd], env=env, stdout=subprocess.PIPE, cwd=ROOT)
    peak = [0.0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_pss_mb(proc.pid))
            time.sleep(0.2)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, _ = proc.communicate()
    seconds = time.perf_counter() - t0
    watcher.join()
    got = json.loads(out.decode().strip().splitlines()[-1])
    return {
        "exit": got["rc"],
        "wall_s": round(seconds, 1),
        "max_rss_mb": round(got["maxrss_kb"] / 1024, 1),
        "tree_pss_peak_mb": round(peak[0], 1),
    }


def batch(references: list[Path], seeds: Path, jobs: int, cache: Path, out: Path) -> dict:
    env = {**os.environ, "REPAIR_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "repair", "clean", "-r", str(seeds), "-o", str(out), "-j", str(jobs), "-q"]
    for r in references:
        cmd += ["--reference", str(r)]
    got = measured(cmd, env)
    summary = json.loads((out / "_repair_reports" / "summary.json").read_text())
    got["worker_peak_rss_mb"] = sorted(summary["peak_rss_mb_per_worker"].values())
    got["repaired"] = summary["repaired"]
    return got


def folder_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20, 1)


BUILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from repair.collate import reference_index
from repair.fill.reference_witness import reference_witnesses
text = Path(sys.argv[1]).read_text(encoding="utf-8")
t0 = time.perf_counter()
reference_witnesses([text], root=sys.argv[2], min_chars=0)
t1 = time.perf_counter()
reference_index(text, root=sys.argv[2], min_chars=0)
t2 = time.perf_counter()
print(json.dumps({"chars": len(text), "witness_build_s": round(t1 - t0, 1), "collate_build_s": round(t2 - t1, 1),
                  "build_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""

MAP = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from repair.collate import reference_index
from repair.fill.reference_witness import reference_witnesses
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
text = Path(sys.argv[1]).read_text(encoding="utf-8")
base = rss()
t0 = time.perf_counter()
w = reference_witnesses([text], root=sys.argv[2], min_chars=0)
index = reference_index(text, root=sys.argv[2], min_chars=0)
t1 = time.perf_counter()
doc = text[len(text) // 2 : len(text) // 2 + 2000]
doc = "".join("〓" if i % 40 == 7 else c for i, c in enumerate(doc))
index.align(doc)
w.lookup(doc[100:104], doc[105:109])
t2 = time.perf_counter()
print(json.dumps({"map_s": round(t1 - t0, 2), "align_2000_s": round(t2 - t1, 2),
                  "rss_over_text_mb": round(rss() - base, 1)}))
"""


def index_numbers(path: Path, cache: Path, script: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", script, str(path), str(cache), str(ROOT)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def large_reference(corpus: Path, chars: int, folder: Path) -> Path:
    """Corpus texts concatenated (in MANIFEST order) up to ``chars`` characters."""
    path = folder / "large_reference.txt"
    size = 0
    with path.open("w", encoding="utf-8") as out:
        for f in sorted((corpus / "kanripo").glob("*.txt")):
            text = f.read_text(encoding="utf-8")[: chars - size]
            out.write(text + "\n")
            size += len(text) + 1
            if size >= chars:
                break
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("references", nargs="*", type=Path, help="reference files (default: two ritual commentaries)")
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--seeds", type=Path, default=Path("../shared/seeds"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--large-chars", type=int, default=0, help="also index one reference of this many characters")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "reference_scale.json")
    args = ap.parse_args()
    corpus, seeds = args.corpus.resolve(), args.seeds.resolve()
    references = [p.resolve() for p in args.references] or [corpus / r for r in DEFAULT_REFERENCES]
    ref_chars = [len(p.read_text(encoding="utf-8")) for p in references]
    seed_bytes = sum(f.stat().st_size for f in seeds.rglob("*") if f.is_file())
    print(f"references: {', '.join(p.name for p in references)} ({sum(ref_chars):,} characters)")
    print(f"seeds: {seeds} ({seed_bytes:,} bytes), {args.jobs} workers")
    results: dict = {
        "references": [{"path": p.name, "chars": n} for p, n in zip(references, ref_chars, strict=True)],
        "seed_bytes": seed_bytes,
        "jobs": args.jobs,
    }
    with tempfile.TemporaryDirectory(prefix="reference-scale-") as tmp:
        tmp_path = Path(tmp)
        cache = tmp_path / "cache"
        for run in ("cold", "warm"):
            got = batch(references, seeds, args.jobs, cache, tmp_path / "out")
            results[f"batch_{run}"] = got
            print(
                f"batch ({run} cache): {got['wall_s']} s, largest process {got['max_rss_mb']} MB, "
                f"whole tree {got['tree_pss_peak_mb']} MB (PSS), workers {got['worker_peak_rss_mb']} MB, "
                f"exit {got['exit']}"
            )
        results["cache_mb"] = folder_mb(cache)
        print(f"index cache after the batch: {results['cache_mb']} MB")
        results["indexes"] = []
        for p in references:
            alone = tmp_path / f"cache-{p.stem}"
            got = {"path": p.name, **index_numbers(p, alone, BUILD), "disk_mb": folder_mb(alone)}
            got.update(index_numbers(p, alone, MAP))
            results["indexes"].append(got)
            print(f"index of {p.name}: {got}")
        if args.large_chars:
            big = large_reference(corpus, args.large_chars, tmp_path)
            alone = tmp_path / "cache-large"
            got = {**index_numbers(big, alone, BUILD), "disk_mb": folder_mb(alone)}
            got.update(index_numbers(big, alone, MAP))
            results["large_reference"] = got
            print(f"index of a reference of {got['chars']:,} characters: {got}")
    results["peak_rss_mb_self"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
