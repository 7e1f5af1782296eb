"""Batch cleaning at scale: the pool, resuming, in-place with backups, idempotence, summaries, progress.

Every test runs ``python -m repair clean`` as a user would, on copies of the
committed sample files (real seeds and synthetic damage) in tmp_path.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import pty
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from repair.batch import STALE_TMP_RE, csv_header
from repair.families import FAMILY_KINDS

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
REPORTS = "_repair_reports"


def run_cli(*args: object, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "repair", *map(str, args)], capture_output=True, timeout=timeout, input=b""
    )


# Seed 001 alone takes most of a run's time (hundreds of marked gaps): the
# batch tests use the other seeds, so that the suite stays quick.
SLOW = {"001_dfc42dce5daf12cb.txt"}
FILES = 10


def sample_tree(root: Path, copies: int = 1) -> Path:
    """Seeds and synthetic samples (FILES files), ``copies`` times under numbered folders."""
    src = root / "in"
    for n in range(copies):
        for folder in ("seeds", "synthetic"):
            shutil.copytree(SAMPLES / folder, src / f"set{n}" / folder, ignore=lambda _d, names: SLOW & set(names))
    return src


def outputs(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file() and REPORTS not in p.relative_to(out).parts
    }


def summary(reports: Path) -> dict:
    return json.loads((reports / "summary.json").read_text(encoding="utf-8"))


def stale(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*.tmp") if STALE_TMP_RE.match(p.name)]


def test_two_workers_give_what_one_gives(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    assert run_cli("clean", "-r", src, "-o", one, "--jobs", "1", "-q").returncode == 0
    proc = run_cli("clean", "-r", src, "-o", two, "--jobs", "2", "-q")
    assert proc.returncode == 0, proc.stderr
    assert outputs(one) == outputs(two)
    assert len(outputs(one)) == FILES
    s = summary(two / REPORTS)
    assert s["workers"] == 2 and s["repaired"] == FILES and s["failed"] == 0
    # Two worker processes did the work, each reporting its own peak memory.
    assert len(s["peak_rss_mb_per_worker"]) == 2
    assert all(mb > 10 for mb in s["peak_rss_mb_per_worker"].values())


def test_rerun_skips_up_to_date_files_and_redoes_changed_ones(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    out = tmp_path / "out"
    assert run_cli("clean", "-r", src, "-o", out, "-q").returncode == 0
    first = outputs(out)
    proc = run_cli("clean", "-r", src, "-o", out)
    assert proc.returncode == 0
    assert summary(out / REPORTS)["skipped"] == FILES
    assert f"{FILES} up to date (skipped)" in proc.stderr.decode()
    # An input that changed is cleaned again; the others are not.
    changed = next(src.rglob("scraped.txt"))
    changed.write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    assert run_cli("clean", "-r", src, "-o", out, "-q").returncode == 0
    s = summary(out / REPORTS)
    assert (s["skipped"], s["repaired"]) == (FILES - 1, 1)
    assert (out / changed.relative_to(src)).read_text(encoding="utf-8") == "子曰學而時習之\n"
    # An output edited by hand is not up to date any more.
    victim = out / "set0/seeds/000_fd37a82b67ea94b2.txt"
    victim.write_text("tampered", encoding="utf-8")
    assert run_cli("clean", "-r", src, "-o", out, "-q").returncode == 0
    assert victim.read_bytes() == first["set0/seeds/000_fd37a82b67ea94b2.txt"]
    assert summary(out / REPORTS)["repaired"] == 1
    # Another setting that can change the result makes everything stale.
    assert run_cli("clean", "-r", src, "-o", out, "-q", "--min-confidence", "0.95").returncode == 0
    assert summary(out / REPORTS)["repaired"] == FILES


def test_kill_leaves_no_half_file_and_the_rerun_resumes(tmp_path: Path) -> None:
    src = sample_tree(tmp_path, copies=4)
    reference = tmp_path / "reference"
    assert run_cli("clean", "-r", src, "-o", reference, "-q", "--jobs", "2").returncode == 0
    expected = outputs(reference)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "repair", "clean", "-r", str(src), "-o", str(out), "-q", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list((out / REPORTS).glob("set*/*/*.report.json"))) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = outputs(out)
    assert 0 < len(done) < len(expected), "the kill should land mid-batch"
    # Whatever was written is whole: byte for byte what an uninterrupted run writes.
    for rel, data in done.items():
        assert data == expected[rel], rel
    rerun = run_cli("clean", "-r", src, "-o", out, "-q", "--jobs", "2")
    assert rerun.returncode == 0, rerun.stderr
    assert outputs(out) == expected
    s = summary(out / REPORTS)
    assert s["skipped"] >= 1 and s["skipped"] + s["repaired"] == len(expected)
    assert stale(out) == []


def _terminal_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    # Enough files that the batch is still running when the signal arrives
    # (with four copies a fast machine could finish first and exit 0).
    src = sample_tree(tmp_path, copies=12)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "repair", "clean", "-r", str(src), "-o", str(out), "-q", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # As from a terminal: an ignored SIGINT is inherited, and a test run
        # started as a background job of a non-interactive shell (`cmd &`)
        # has SIGINT ignored, so the batch would never see the signal.
        preexec_fn=_terminal_sigint,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list((out / REPORTS).glob("set*/*/*.report.json"))) < 2:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends to the whole foreground group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert b"run again to resume" in err
    assert stale(out) == []


def test_in_place_keeps_the_original_and_is_idempotent(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    originals = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    proc = run_cli("clean", "-r", src, "--in-place", "-q")
    assert proc.returncode == 0, proc.stderr
    for path, data in originals.items():
        backup = path.with_name(path.name + ".orig")
        assert backup.read_bytes() == data
    changed = [p for p, data in originals.items() if p.read_bytes() != data]
    assert changed, "the samples have damage to repair"
    after = {p: p.read_bytes() for p in originals}
    # Again: nothing changes, backups are neither cleaned nor overwritten, reports are not inputs.
    proc = run_cli("clean", "-r", src, "--in-place", "-q")
    assert proc.returncode == 0, proc.stderr
    assert {p: p.read_bytes() for p in originals} == after
    assert all(p.with_name(p.name + ".orig").read_bytes() == data for p, data in originals.items())
    assert summary(src / REPORTS)["skipped"] == len(originals)
    assert not list(src.rglob("*.orig.orig"))


def test_in_place_refuses_an_output_folder(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    proc = run_cli("clean", "-r", src, "--in-place", "-o", tmp_path / "out")
    assert proc.returncode == 2
    assert b"exclude each other" in proc.stderr


def test_cleaning_cleaned_files_changes_nothing(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    once, twice = tmp_path / "once", tmp_path / "twice"
    assert run_cli("clean", "-r", src, "-o", once, "-q").returncode == 0
    # The outputs, cleaned as new inputs (fresh folder: no resume involved).
    clean_copy = tmp_path / "clean_copy"
    for rel, data in outputs(once).items():
        (clean_copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (clean_copy / rel).write_bytes(data)
    assert run_cli("clean", "-r", clean_copy, "-o", twice, "-q").returncode == 0
    assert outputs(twice) == outputs(once)
    s = summary(twice / REPORTS)
    assert sum(sum(f["applied"].values()) for f in s["files"]) == 0


def test_summary_csv_matches_the_json(tmp_path: Path) -> None:
    src = sample_tree(tmp_path)
    (src / "broken.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    out = tmp_path / "out"
    proc = run_cli("clean", "-r", src, "-o", out, "-q")
    assert proc.returncode == 1
    s = summary(out / REPORTS)
    rows = list(csv.DictReader(io.StringIO((out / REPORTS / "summary.csv").read_text(encoding="utf-8"))))
    assert [r["input"] for r in rows] == [f["input"] for f in s["files"]]
    for row, f in zip(rows, s["files"], strict=True):
        assert row["status"] == f["status"]
        if f["status"] == "failed":
            assert "not a text file" in row["error"]
            continue
        assert row["encoding"] == f["encoding"]
        assert int(row["applied"]) == sum(f["applied"].values())
        assert int(row["marked"]) == sum(f["marked"].values())
        for kind in FAMILY_KINDS:  # every family has its columns, detected in this file or not
            for what in ("detected", "applied", "marked"):
                assert int(row[f"{what}_{kind}"]) == f[what].get(kind, 0)
        assert float(row["seconds"]) > 0
        assert int(row["worker_pid"]) == f["worker_pid"] > 0
        assert float(row["worker_peak_rss_mb"]) == s["peak_rss_mb_per_worker"][str(f["worker_pid"])] > 0
    index = (out / REPORTS / "html" / "index.html").read_text(encoding="utf-8")
    assert index.count(".html") >= FILES


def _run_in_terminal(args: list[str]) -> str:
    """Run the command with a terminal as its stderr (as a user at a shell)."""
    main, sub = pty.openpty()
    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a real terminal has a size
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=sub, close_fds=True)
    os.close(sub)
    chunks = []
    while True:
        try:
            data = os.read(main, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=300)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_on_a_terminal_only(tmp_path: Path, quiet: bool) -> None:
    src = sample_tree(tmp_path)
    args = [sys.executable, "-m", "repair", "clean", "-r", str(src), "-o", str(tmp_path / "out"), "--jobs", "1"]
    shown = _run_in_terminal(args + (["-q"] if quiet else []))
    if quiet:
        assert "file/s" not in shown and "chars/s" not in shown
    else:
        assert f"{FILES}/{FILES}" in shown and "file/s" in shown and "chars/s" in shown
    # Piped (not a terminal): per-file lines, no bar.
    piped = run_cli(*args[3:], "--no-html").stderr.decode()
    assert "file/s" not in piped and "chars/s" not in piped


def test_the_fingerprint_follows_the_code_not_only_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    # An edited or upgraded install with the same version number must redo its files.
    from repair import Repairer, batch

    repairer = Repairer(model=None)
    before = batch.fingerprint(repairer)
    assert batch.fingerprint(repairer) == before  # stable within a run
    monkeypatch.setattr(batch, "code_digest", lambda: "another build")
    assert batch.fingerprint(repairer) != before


def test_summary_csv_columns_are_the_same_for_every_batch(tmp_path: Path) -> None:
    """Only escapes in one batch, many families in the other: the same header, so the CSVs concatenate."""
    small = tmp_path / "small"
    small.mkdir()
    (small / "a.txt").write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    headers = []
    rows = []
    for src in (small, sample_tree(tmp_path)):
        out = tmp_path / f"out-{src.name}"
        assert run_cli("clean", "-r", src, "-o", out, "-q").returncode == 0
        text = (out / REPORTS / "summary.csv").read_text(encoding="utf-8")
        headers.append(text.splitlines()[0])
        rows += list(csv.DictReader(io.StringIO(text)))
    assert headers[0] == headers[1] == ",".join(csv_header())
    assert len(rows) == 1 + FILES
    for kind in FAMILY_KINDS:
        assert f"detected_{kind}" in rows[0] and f"marked_{kind}" in rows[0]
    assert rows[0]["detected_escape"] == "1" and rows[0]["detected_radical"] == "0"
    assert all(float(r["worker_peak_rss_mb"]) > 0 for r in rows)


def test_a_clash_of_output_names_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    for folder, text in (("a", "子曰&#x5B78;而時習之\n"), ("b", "有朋自遠方來\n")):
        (tmp_path / "col" / folder).mkdir(parents=True)
        (tmp_path / "col" / folder / "x.txt").write_text(text, encoding="utf-8")
    messages = set()
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "repair", "clean", "col/a/x.txt", "col/b/x.txt", "-o", "out", "--jobs", "2"],
            capture_output=True,
            cwd=tmp_path,
            timeout=300,
        )
        assert proc.returncode == 2
        stderr = proc.stderr.decode()
        assert "col/a/x.txt, col/b/x.txt: same output name 'x.txt'" in stderr
        assert not (tmp_path / "out").exists()
        messages.add(stderr)
    assert len(messages) == 1  # the refusal does not depend on timing
    # Given as a folder, relative paths keep them apart.
    assert run_cli("clean", "-r", tmp_path / "col", "-o", tmp_path / "out", "-q").returncode == 0
    assert outputs(tmp_path / "out") == {"a/x.txt": "子曰學而時習之\n".encode(), "b/x.txt": "有朋自遠方來\n".encode()}


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` and which run a multiprocessing worker."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == pid and b"multiprocessing" in cmdline:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Running (an exited worker that nobody reaped is a zombie, not alive)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to find the workers")
def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    src = sample_tree(tmp_path, copies=4)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "repair", "clean", "-r", str(src), "-o", str(out), "-q", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 300
        # Workers running and busy: two of them, and the first report written.
        while time.monotonic() < deadline and proc.poll() is None:
            workers |= _children(proc.pid)
            if len(workers) >= 2 and any((out / REPORTS).glob("set*/*/*.report.json")):
                break
            time.sleep(0.05)
        assert proc.poll() is None and len(workers) >= 2, "the batch should still be running, with its workers"
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, as the out-of-memory killer does
        proc.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)], "workers outlived their parent"
    finally:
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_no_output_without_its_report(tmp_path: Path) -> None:
    """The report folder cannot take one file's report (a regular file stands where its folder
    should be, which stops root too): that file fails naming the report folder, and has no output."""
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "a.txt").write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    (src / "b.txt").write_text("有朋自&#x9060;方來\n", encoding="utf-8")
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "sub").write_bytes(b"in the way")
    out = tmp_path / "out"
    for jobs in ("1", "2"):
        proc = run_cli("clean", "-r", src, "-o", out, "--report-dir", reports, "--jobs", jobs)
        stderr = proc.stderr.decode()
        assert proc.returncode == 1
        errors = [line for line in stderr.splitlines() if line.startswith("repair: error: ")]
        assert len(errors) == 1
        assert f"{reports / 'sub'}: cannot write report" in errors[0]
        assert outputs(out) == {"b.txt": "有朋自遠方來\n".encode()}
        assert (reports / "b.txt.report.json").is_file()
        assert (reports / "sub").read_bytes() == b"in the way"
        assert stale(tmp_path) == []


def _slow_text() -> str:
    """A long line of random GBK read as Big5 (the slowest channel to search),
    after a line of exact repairs (an escape, a Kangxi radical)."""
    import random

    rng = random.Random(0)
    chars: list[str] = []
    while len(chars) < 4000:
        data = bytes([rng.randrange(0xB0, 0xF8), rng.randrange(0xA1, 0xFF)])
        try:
            chars.append(data.decode("gbk"))
        except UnicodeDecodeError:
            continue
    garbled = "".join(chars).encode("gbk").decode("big5", errors="replace")
    return "子曰&#x5B78;而時習之⼈\n" + garbled + "\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_over_the_time_bound_gets_its_exact_repairs_and_is_reported(tmp_path: Path, jobs: str) -> None:
    """One file never stalls a worker: past --max-seconds-per-file it is written
    with the repairs its bytes alone decide, and reported as timed_out (and
    redone by the next run); the other files are repaired as ever."""
    src = tmp_path / "in"
    src.mkdir()
    slow = _slow_text()
    (src / "slow.txt").write_text(slow, encoding="utf-8")
    (src / "fast.txt").write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli("clean", "-r", src, "-o", out, "--max-seconds-per-file", "0.3", "--jobs", jobs)
    assert proc.returncode == 0, proc.stderr
    assert "timed out" in proc.stderr.decode()
    first, rest = (out / "slow.txt").read_text(encoding="utf-8").split("\n", 1)
    assert first == "子曰學而時習之人"  # the exact repairs
    assert rest == slow.split("\n", 1)[1]  # the mojibake left as it was
    s = summary(out / "_repair_reports")
    assert s["timed_out"] == 1
    assert {f["input"].rsplit("/", 1)[-1]: f["status"] for f in s["files"]} == {
        "slow.txt": "timed_out",
        "fast.txt": "repaired",
    }
    report = json.loads((out / "_repair_reports" / "slow.txt.report.json").read_text(encoding="utf-8"))
    assert report["settings"]["timed_out_after_seconds"] == 0.3
    assert report["settings"]["fingerprint"].endswith(":timed-out")  # not up to date: redone next run
    assert "escape" in report["settings"]["families"] and "codec_confusion" not in report["settings"]["families"]
    with open(out / "_repair_reports" / "summary.csv", encoding="utf-8") as fh:
        statuses = {row["input"].rsplit("/", 1)[-1]: row["status"] for row in csv.DictReader(fh)}
    assert statuses["slow.txt"] == "timed_out"
