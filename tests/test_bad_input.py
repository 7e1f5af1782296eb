"""Bad input and hostile environments: one clear line, a non-zero exit, nothing half-written.

Every failure must end in a single ``repair: error: ...`` line on stderr and
no traceback, and must leave no output for the failed file and no temporary
file behind.  ``clean`` writes a batch ``summary.json`` even when every input
failed (it records ``failed``), so that one file is allowed in the report
folder; nothing else may appear.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from binary_fixtures import tiny_png

SUMMARY = "_repair_reports/summary.json"
# What every batch writes besides per-file outputs: the summary, its CSV and the HTML index.
BATCH_FILES = {SUMMARY, "_repair_reports/summary.csv", "_repair_reports/html/index.html"}
TEXT = "子曰：學而時習之，不亦說乎？\n有朋自遠方來，不亦樂乎？\n"


def run_cli(*args: str | os.PathLike, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "repair", *map(str, args)],
        cwd=cwd,
        input=b"",
        capture_output=True,
        timeout=timeout,
    )


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} if root.exists() else set()


def tmp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".tmp")] if root.exists() else []


def error_lines(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.decode("utf-8", "replace").splitlines() if line.startswith("repair: error: ")]


def assert_one_clear_error(proc: subprocess.CompletedProcess, *mentions: str) -> str:
    """Non-zero exit, exactly one stderr line, ``repair: error: ...`` naming what went wrong."""
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0, stderr
    assert "Traceback" not in stderr
    # A batch that ran ends with its summary line and where its HTML index is; those are not errors.
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith(("done: ", "HTML report: "))]
    assert len(lines) == 1, f"expected one line on stderr, got: {stderr!r}"
    assert lines[0].startswith("repair: error: "), lines[0]
    for word in mentions:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def assert_nothing_left(out: Path) -> None:
    """No output, no report, no temporary file: at most the batch summary recording the failure."""
    assert files_under(out) <= BATCH_FILES, files_under(out)
    assert tmp_files(out) == []
    if (out / SUMMARY).exists():
        summary = json.loads((out / SUMMARY).read_text(encoding="utf-8"))
        assert all(f["status"] == "failed" for f in summary["files"]), summary["files"]
        assert summary["failed"] >= 1


# -- binary fixtures, written by the tests themselves -----------------------------------------


BINARY_FILES = [
    pytest.param("red.png", lambda: tiny_png(1, 1, b"\xff\x00\x00", 9), id="png-1x1-red"),
    pytest.param(
        "black.png",
        lambda: tiny_png(8, 8, b"\x00\x00\x00", 0),
        id="png-8x8-black",
    ),
    pytest.param("text.gz", lambda: gzip.compress(TEXT.encode("utf-8"), mtime=0), id="gzip-text"),
    pytest.param(
        "ab.gz",
        lambda: gzip.compress(b"ab", mtime=0),
        id="gzip-tiny",
    ),
]


# -- the cases -----------------------------------------------------------------------------------


def test_missing_path(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("clean", tmp_path / "nope.txt", "-o", out)
    line = assert_one_clear_error(proc, "nope.txt")
    assert "no such file" in line
    assert proc.returncode == 1
    assert_nothing_left(out)


def test_directory_without_recursive(tmp_path: Path) -> None:
    src = tmp_path / "dir"
    src.mkdir()
    (src / "a.txt").write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli("clean", src, "-o", out)
    line = assert_one_clear_error(proc, str(src))
    assert "directory" in line and "-r" in line
    assert_nothing_left(out)


@pytest.mark.parametrize(("name", "make"), BINARY_FILES)
def test_binary_file(tmp_path: Path, name: str, make) -> None:
    data = make()
    src = tmp_path / name
    src.write_bytes(data)
    out = tmp_path / "out"
    proc = run_cli("clean", src, "-o", out)
    line = assert_one_clear_error(proc, name)
    assert "not a text file" in line
    assert proc.returncode == 1
    assert_nothing_left(out)
    assert src.read_bytes() == data


@pytest.mark.parametrize(("name", "make"), BINARY_FILES)
def test_binary_file_detect(tmp_path: Path, name: str, make) -> None:
    src = tmp_path / name
    src.write_bytes(make())
    proc = run_cli("detect", src)
    assert_one_clear_error(proc, name, "not a text file")


def test_binary_stdin(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "repair", "clean", "-"],
        input=tiny_png(1, 1, b"\xff\x00\x00", 9),
        capture_output=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert_one_clear_error(proc, "stdin", "not a text file")
    assert proc.stdout == b""
    assert files_under(tmp_path) == set()


def test_unwritable_output_directory(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root: chmod 0o500 does not stop root from writing")
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        proc = run_cli("clean", src, "-o", locked / "out")
        assert_one_clear_error(proc)
        assert not (locked / "out").exists()
        proc = run_cli("clean", src, "-o", locked)
        assert_one_clear_error(proc)
        assert files_under(locked) == set()
    finally:
        locked.chmod(0o700)


def test_output_below_a_regular_file(tmp_path: Path) -> None:
    """-o FILE/sub: the output folder cannot be created (fails as root, too)."""
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_bytes(b"not a folder")
    proc = run_cli("clean", src, "-o", blocker / "out")
    assert_one_clear_error(proc, "blocker")
    assert blocker.read_bytes() == b"not a folder"
    assert files_under(tmp_path) == {"a.txt", "blocker"}


def test_output_is_an_existing_regular_file(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_bytes(b"not a folder")
    proc = run_cli("clean", src, "-o", blocker)
    assert blocker.read_bytes() == b"not a folder"  # never clobbered, whatever the message
    assert files_under(tmp_path) == {"a.txt", "blocker"}
    assert_one_clear_error(proc, "blocker")


def test_output_would_overwrite_input(tmp_path: Path) -> None:
    src_dir = tmp_path / "texts"
    src_dir.mkdir()
    src = src_dir / "a.txt"
    src.write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    data = src.read_bytes()
    proc = run_cli("clean", src, "-o", src_dir)
    line = assert_one_clear_error(proc, "a.txt")
    assert "overwrite" in line
    assert src.read_bytes() == data
    assert files_under(src_dir) == {"a.txt"}
    assert tmp_files(src_dir) == []
    # The same folder spelled differently is still the same folder.
    proc = run_cli("clean", "a.txt", "-o", "../texts/.", cwd=src_dir)
    assert_one_clear_error(proc, "overwrite")
    assert src.read_bytes() == data


def test_recursive_output_onto_its_own_tree(tmp_path: Path) -> None:
    """One line for the whole batch, and nothing created (no report folder among the inputs)."""
    src = tmp_path / "book"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text("子曰&#x5B78;\n", encoding="utf-8")
    (src / "sub" / "b.txt").write_text("⼈之初\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    proc = run_cli("clean", "-r", src, "-o", src)
    line = assert_one_clear_error(proc, "overwrite", str(src))
    assert "--in-place" in line
    assert proc.returncode == 2
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before
    assert sorted(p.relative_to(src).as_posix() for p in src.rglob("*")) == ["a.txt", "sub", "sub/b.txt"]


def test_a_folder_without_recursive_makes_nothing(tmp_path: Path) -> None:
    """A folder given without -r is refused, and a run with nothing left to
    clean creates no output or report folder (here the input folder itself)."""
    src = tmp_path / "book"
    src.mkdir()
    (src / "a.txt").write_text("子曰&#x5B78;\n", encoding="utf-8")
    proc = run_cli("clean", src, "-o", src)
    assert_one_clear_error(proc, "-r")
    assert proc.returncode == 1
    assert sorted(p.name for p in src.iterdir()) == ["a.txt"]
    out = tmp_path / "out"
    assert run_cli("clean", src, "-o", out).returncode == 1
    assert not out.exists()


def test_empty_file(tmp_path: Path) -> None:
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    out = tmp_path / "out"
    proc = run_cli("clean", src, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert (out / "empty.txt").read_bytes() == b""
    report = json.loads((out / "_repair_reports" / "empty.txt.report.json").read_text(encoding="utf-8"))
    assert report["edits"] == []
    assert report["input"]["chars"] == 0
    assert tmp_files(out) == []


def test_bad_inputs_do_not_stop_good_ones(tmp_path: Path) -> None:
    good1, good2 = tmp_path / "good1.txt", tmp_path / "good2.txt"
    good1.write_text("子曰&#x5B78;而時習之\n", encoding="utf-8")
    good2.write_text("⼈不知而不慍\n", encoding="utf-8")
    png = tmp_path / "img.png"
    png.write_bytes(tiny_png(1, 1, b"\xff\x00\x00", 9))
    folder = tmp_path / "folder"
    folder.mkdir()
    out = tmp_path / "out"
    proc = run_cli("clean", good1, tmp_path / "missing.txt", png, folder, good2, "-o", out)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    errors = error_lines(proc)
    assert len(errors) == 3, stderr
    assert any("missing.txt" in e for e in errors)
    assert any("img.png" in e for e in errors)
    assert any("folder" in e for e in errors)
    assert (out / "good1.txt").read_text(encoding="utf-8") == "子曰學而時習之\n"
    assert (out / "good2.txt").read_text(encoding="utf-8") == "人不知而不慍\n"
    assert (
        files_under(out)
        == {
            "good1.txt",
            "good2.txt",
            "_repair_reports/good1.txt.report.json",
            "_repair_reports/good2.txt.report.json",
            "_repair_reports/html/good1.txt.html",
            "_repair_reports/html/good2.txt.html",
        }
        | BATCH_FILES
    )
    summary = json.loads((out / SUMMARY).read_text(encoding="utf-8"))
    # The unreadable file is in the summary as failed; the missing path and the folder never became jobs.
    assert [f["status"] for f in summary["files"]] == ["repaired", "failed", "repaired"]
    assert summary["failed"] == 3


# -- a big single-line file ------------------------------------------------------------------------

HAN = "之乎者也學而時習不亦說朋自遠方來樂人知慍君子"


def test_10mb_single_line(tmp_path: Path) -> None:
    rnd = random.Random(20240601)
    pieces: list[str] = []
    size = 0
    escapes = 0
    while size < 10_000_000:
        chunk = "".join(rnd.choice(HAN) for _ in range(2000)) + rnd.choice("，。")
        pieces.append(chunk)
        size += len(chunk.encode("utf-8"))
        if len(pieces) % 400 == 1:
            pieces.append("&#x4E00;")
            escapes += 1
    text = "".join(pieces)
    assert "\n" not in text and escapes >= 5
    src = tmp_path / "big.txt"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out"

    # The child reports its own peak (RUSAGE_CHILDREN would include every
    # earlier child of the test session, such as KenLM's estimator).
    # The timeout is a hang guard, not a timing assertion.
    probe = (
        "import resource, runpy, sys\n"
        "sys.argv = ['repair', 'clean', '-q', sys.argv[1], '-o', sys.argv[2]]\n"
        "code = 0\ntry:\n    runpy.run_module('repair', run_name='__main__')\n"
        "except SystemExit as e:\n    code = e.code or 0\n"
        "sys.stderr.write(f'PEAK_KIB={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe, str(src), str(out)], capture_output=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    peak_kib = int(proc.stderr.decode().rsplit("PEAK_KIB=", 1)[1].split()[0])  # KiB on Linux
    assert 0 < peak_kib < 1.5 * 1024 * 1024, f"peak RSS {peak_kib} KiB"

    output = (out / "big.txt").read_bytes().decode("utf-8")
    assert "&#x" not in output
    assert output == text.replace("&#x4E00;", "一")
    report = json.loads((out / "_repair_reports" / "big.txt.report.json").read_text(encoding="utf-8"))
    assert report["summary"]["applied"] == {"escape": escapes}
    assert report["input"]["sha256"] == hashlib.sha256(src.read_bytes()).hexdigest()
    assert tmp_files(out) == []
