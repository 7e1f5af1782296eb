"""The command line, end to end: ``repair clean`` and ``repair detect`` on files in tmp_path.

Most tests run ``python -m repair`` in a subprocess, exactly as a user would;
one uses click's CliRunner to exercise the same command in-process.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from repair.cli import main

# Text with an escape on line 1 (repaired) and clean text on line 2.
DAMAGED = "子曰&#x5B78;而時習之，不亦說乎？\n有朋自遠方來，不亦樂乎？\n"
REPAIRED = "子曰學而時習之，不亦說乎？\n有朋自遠方來，不亦樂乎？\n"
# Clean simplified text, to be written in GBK: the output must be UTF-8.
GBK_TEXT = "人不知而不愠，不亦君子乎？其为人也孝弟，而好犯上者，鲜矣。\n"
# A Kangxi radical stand-in (U+2F08 for 人), repaired exactly.
RADICAL = "⼈不知而不慍，不亦君子乎？\n"
RADICAL_REPAIRED = "人不知而不慍，不亦君子乎？\n"


def run_cli(*args: str | os.PathLike, cwd: Path | None = None, stdin: bytes | None = None, umask: int | None = None):
    def set_umask() -> None:
        if umask is not None:
            os.umask(umask)

    return subprocess.run(
        [sys.executable, "-m", "repair", *map(str, args)],
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=300,
        preexec_fn=set_umask if umask is not None else None,
    )


def files_under(root: Path) -> set[str]:
    """Every file below ``root`` (hidden ones included), as POSIX paths relative to it."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def snapshot(root: Path) -> dict[str, tuple[str, int, int]]:
    """(sha256, size, mtime_ns) of every file below ``root``."""
    out = {}
    for p in root.rglob("*"):
        if p.is_file():
            st = p.stat()
            out[p.relative_to(root).as_posix()] = (
                hashlib.sha256(p.read_bytes()).hexdigest(),
                st.st_size,
                st.st_mtime_ns,
            )
    return out


def stderr_of(proc: subprocess.CompletedProcess) -> str:
    return proc.stderr.decode("utf-8", "replace")


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(DAMAGED, encoding="utf-8")
    (src / "b.txt").write_bytes(GBK_TEXT.encode("gbk"))
    return src


def test_clean_writes_utf8_outputs_reports_and_summary(tmp_path: Path, inputs: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("clean", inputs / "a.txt", inputs / "b.txt", "-o", out)
    assert proc.returncode == 0, stderr_of(proc)
    assert "Traceback" not in stderr_of(proc)

    assert files_under(out) == {
        "a.txt",
        "b.txt",
        "_repair_reports/a.txt.report.json",
        "_repair_reports/b.txt.report.json",
        "_repair_reports/summary.json",
        "_repair_reports/summary.csv",
        "_repair_reports/html/index.html",
        "_repair_reports/html/a.txt.html",
        "_repair_reports/html/b.txt.html",
    }
    # Outputs are UTF-8 (strict decoding), repaired, and keep the text otherwise.
    assert (out / "a.txt").read_bytes().decode("utf-8") == REPAIRED
    assert (out / "b.txt").read_bytes().decode("utf-8") == GBK_TEXT

    for name in ("a.txt", "b.txt"):
        report = json.loads((out / "_repair_reports" / f"{name}.report.json").read_text(encoding="utf-8"))
        assert report["input"]["path"] == str(inputs / name)
        assert report["output"]["path"] == str(out / name)
        assert report["input"]["sha256"] == hashlib.sha256((inputs / name).read_bytes()).hexdigest()
        assert report["output"]["sha256"] == hashlib.sha256((out / name).read_bytes()).hexdigest()
    report_a = json.loads((out / "_repair_reports" / "a.txt.report.json").read_text(encoding="utf-8"))
    assert [(e["kind"], e["before"], e["after"], e["applied"]) for e in report_a["edits"]] == [
        ("escape", "&#x5B78;", "學", True)
    ]
    report_b = json.loads((out / "_repair_reports" / "b.txt.report.json").read_text(encoding="utf-8"))
    assert report_b["input"]["encoding"] == "gb18030"

    summary = json.loads((out / "_repair_reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["failed"] == 0
    assert sorted(Path(f["input"]).name for f in summary["files"]) == ["a.txt", "b.txt"]
    by_name = {Path(f["input"]).name: f for f in summary["files"]}
    assert by_name["a.txt"]["applied"] == {"escape": 1}
    assert by_name["b.txt"]["applied"] == {}


def test_report_dir_override(tmp_path: Path, inputs: Path) -> None:
    out, reports = tmp_path / "out", tmp_path / "reports" / "nested"
    proc = run_cli("clean", inputs / "a.txt", "-o", out, "--report-dir", reports)
    assert proc.returncode == 0, stderr_of(proc)
    assert files_under(out) == {"a.txt"}
    assert files_under(reports) == {
        "a.txt.report.json",
        "summary.json",
        "summary.csv",
        "html/index.html",
        "html/a.txt.html",
    }
    report = json.loads((reports / "a.txt.report.json").read_text(encoding="utf-8"))
    assert report["edits"][0]["after"] == "學"


def test_recursive_keeps_relative_paths(tmp_path: Path) -> None:
    src = tmp_path / "book"
    (src / "vol1" / "ch1").mkdir(parents=True)
    (src / "vol2").mkdir()
    files = {
        "preface.txt": DAMAGED,
        "vol1/ch1/a.txt": RADICAL,
        "vol1/b.txt": "學而時習之。\n",
        "vol2/a.txt": DAMAGED,  # same file name as vol1/ch1/a.txt, different folder
    }
    for rel, text in files.items():
        (src / rel).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli("clean", "-r", src, "-o", out)
    assert proc.returncode == 0, stderr_of(proc)
    assert files_under(out) == set(files) | {f"_repair_reports/{rel}.report.json" for rel in files} | {
        f"_repair_reports/html/{rel}.html" for rel in files
    } | {"_repair_reports/summary.json", "_repair_reports/summary.csv", "_repair_reports/html/index.html"}
    assert (out / "vol1/ch1/a.txt").read_text(encoding="utf-8") == RADICAL_REPAIRED
    assert (out / "vol2/a.txt").read_text(encoding="utf-8") == REPAIRED
    assert (out / "vol1/b.txt").read_text(encoding="utf-8") == "學而時習之。\n"
    report = json.loads((out / "_repair_reports/vol1/ch1/a.txt.report.json").read_text(encoding="utf-8"))
    assert report["input"]["path"] == str(src / "vol1/ch1/a.txt")
    assert report["output"]["path"] == str(out / "vol1/ch1/a.txt")


def test_clean_stdin_to_stdout(tmp_path: Path) -> None:
    proc = run_cli("clean", "-", cwd=tmp_path, stdin=DAMAGED.encode("utf-8"))
    assert proc.returncode == 0, stderr_of(proc)
    assert proc.stdout == REPAIRED.encode("utf-8")
    assert files_under(tmp_path) == set(), "clean - must not write files unless --report-dir is given"


def test_clean_stdin_legacy_encoding_comes_out_utf8(tmp_path: Path) -> None:
    proc = run_cli("clean", "-", cwd=tmp_path, stdin=GBK_TEXT.encode("gbk"))
    assert proc.returncode == 0, stderr_of(proc)
    assert proc.stdout.decode("utf-8") == GBK_TEXT


def test_clean_stdin_with_report_dir(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    proc = run_cli("clean", "-", "--report-dir", reports, cwd=tmp_path, stdin=RADICAL.encode("utf-8"))
    assert proc.returncode == 0, stderr_of(proc)
    assert proc.stdout.decode("utf-8") == RADICAL_REPAIRED
    assert files_under(reports) == {"stdin.report.json"}
    report = json.loads((reports / "stdin.report.json").read_text(encoding="utf-8"))
    assert report["input"]["path"] is None
    assert [(e["kind"], e["applied"]) for e in report["edits"]] == [("radical", True)]


def test_detect_prints_detections_and_changes_nothing(tmp_path: Path, inputs: Path) -> None:
    (inputs / "c.txt").write_text("第一行\n第二行\n學而時習&#x4E00;之\n", encoding="utf-8")
    before = snapshot(tmp_path)
    proc = run_cli("detect", inputs / "a.txt", inputs / "b.txt", inputs / "c.txt", cwd=tmp_path)
    assert proc.returncode == 0, stderr_of(proc)
    assert snapshot(tmp_path) == before  # same files, same bytes, same mtimes: nothing written or touched
    out = proc.stdout.decode("utf-8")
    lines = out.splitlines()
    a_line = next(i for i, line in enumerate(lines) if line.startswith(str(inputs / "a.txt")))
    assert "escape" in lines[a_line]
    # The detection itself: line 1, column 3, the escape and what it decodes to.
    assert "1:3 escape '&#x5B78;'" in lines[a_line + 1]
    assert "'學'" in lines[a_line + 1]
    assert any(line.startswith(str(inputs / "b.txt")) and "gb18030" in line for line in lines)
    assert "3:5 escape '&#x4E00;'" in out


def test_detect_json_lines(tmp_path: Path, inputs: Path) -> None:
    before = snapshot(tmp_path)
    proc = run_cli("detect", "--json", inputs / "a.txt", cwd=tmp_path)
    assert proc.returncode == 0, stderr_of(proc)
    assert snapshot(tmp_path) == before
    reports = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines() if line.strip()]
    assert len(reports) == 1
    assert reports[0]["output"]["path"] is None
    assert [(e["kind"], e["line"], e["column"]) for e in reports[0]["edits"]] == [("escape", 1, 3)]


def test_detect_recursive_changes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "d"
    (src / "sub").mkdir(parents=True)
    (src / "x.txt").write_text(DAMAGED, encoding="utf-8")
    (src / "sub" / "y.txt").write_text(RADICAL, encoding="utf-8")
    before = snapshot(tmp_path)
    proc = run_cli("detect", "-r", src, cwd=tmp_path)
    assert proc.returncode == 0, stderr_of(proc)
    assert snapshot(tmp_path) == before
    out = proc.stdout.decode("utf-8")
    assert "radical" in out and "escape" in out


def test_clean_never_modifies_inputs(tmp_path: Path) -> None:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text(DAMAGED, encoding="utf-8")
    (src / "b.txt").write_bytes(GBK_TEXT.encode("gbk"))
    (src / "sub" / "c.txt").write_text(RADICAL, encoding="utf-8")
    (src / "sub" / "bom.txt").write_bytes(b"\xef\xbb\xbf" + DAMAGED.encode("utf-8"))
    (src / "sub" / "crlf.txt").write_bytes(DAMAGED.replace("\n", "\r\n").encode("utf-8"))
    before = snapshot(src)
    proc = run_cli("clean", "-r", src, "-o", tmp_path / "out")
    assert proc.returncode == 0, stderr_of(proc)
    proc = run_cli("clean", src / "a.txt", src / "sub" / "c.txt", "-o", tmp_path / "out2")
    assert proc.returncode == 0, stderr_of(proc)
    assert snapshot(src) == before
    # The outputs did change: the repairs went to the output folder, not the inputs.
    assert (tmp_path / "out" / "a.txt").read_text(encoding="utf-8") == REPAIRED
    assert (tmp_path / "out" / "sub" / "bom.txt").read_bytes() == REPAIRED.encode("utf-8")
    assert (tmp_path / "out" / "sub" / "crlf.txt").read_bytes() == REPAIRED.replace("\n", "\r\n").encode("utf-8")


def test_clean_twice_into_same_folder_replaces_outputs(tmp_path: Path, inputs: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("clean", inputs / "a.txt", "-o", out).returncode == 0
    (inputs / "a.txt").write_text(RADICAL, encoding="utf-8")
    proc = run_cli("clean", inputs / "a.txt", "-o", out)
    assert proc.returncode == 0, stderr_of(proc)
    assert (out / "a.txt").read_text(encoding="utf-8") == RADICAL_REPAIRED
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_output_files_get_normal_permissions(tmp_path: Path, inputs: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("clean", inputs / "a.txt", "-o", out, umask=0o022)
    assert proc.returncode == 0, stderr_of(proc)
    assert stat.S_IMODE((out / "a.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((out / "_repair_reports" / "a.txt.report.json").stat().st_mode) == 0o644


def test_clirunner_clean_and_detect(tmp_path: Path, inputs: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(main, ["clean", "-q", str(inputs / "a.txt"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "a.txt").read_text(encoding="utf-8") == REPAIRED
    assert (out / "_repair_reports" / "a.txt.report.json").is_file()

    result = runner.invoke(main, ["detect", str(inputs / "a.txt")])
    assert result.exit_code == 0, result.output
    assert "escape" in result.output

    result = runner.invoke(main, ["clean", "-"], input=RADICAL.encode("utf-8"))
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.decode("utf-8") == RADICAL_REPAIRED


def test_clean_without_output_is_a_usage_error(tmp_path: Path, inputs: Path) -> None:
    proc = run_cli("clean", inputs / "a.txt", cwd=tmp_path)
    assert proc.returncode == 2
    assert "-o" in stderr_of(proc)
    assert "Traceback" not in stderr_of(proc)
    assert files_under(tmp_path) == {"in/a.txt", "in/b.txt"}


# --- console and command-line gaps -------------------------------------------------------------------------------


def test_a_finished_batch_prints_a_summary_line_and_the_html_index(tmp_path: Path, inputs: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("clean", inputs / "a.txt", inputs / "b.txt", "-o", out)
    assert proc.returncode == 0, stderr_of(proc)
    lines = stderr_of(proc).splitlines()
    assert f"{inputs / 'a.txt'}: utf-8, 1 repair applied, 0 marked" in lines
    assert f"{inputs / 'b.txt'}: gb18030, 0 repairs applied, 0 marked" in lines
    assert lines[-2].startswith("done: 2 files, 1 repair applied, 0 marked, 0 failed, ")
    assert lines[-2].endswith(" s")
    index = out / "_repair_reports" / "html" / "index.html"
    assert lines[-1] == f"HTML report: {index}"
    assert index.is_file()


def test_a_line_in_another_encoding_shows_as_mixed(tmp_path: Path) -> None:
    src = tmp_path / "mixed.txt"
    line = "子曰學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？\n".encode()
    src.write_bytes(line * 3 + "人不知而不慍，不亦君子乎？\n".encode("big5") + line * 3)
    proc = run_cli("clean", src, "-o", tmp_path / "out")
    assert proc.returncode == 0, stderr_of(proc)
    assert f"{src}: mixed encoding: utf-8, line 4 in big5hkscs, 0 repairs applied, 0 marked" in stderr_of(proc)
    proc = run_cli("detect", src)
    assert proc.stdout.decode().startswith(f"{src}: mixed encoding: utf-8, line 4 in big5hkscs, ")


def test_plurals_in_the_file_line() -> None:
    from repair.cli import file_line

    row = {"input": "a.txt", "encoding": "utf-8", "applied": {"codec": 1}, "marked": {"junk": 2}}
    assert file_line({**row, "missing_chars_in_applied": {"codec": 1}}, "repaired") == (
        "a.txt: utf-8, 1 repair applied, 2 marked, 1 lost character marked inside repairs"
    )
    assert file_line({**row, "missing_chars_in_applied": {"codec": 3}}, "repaired").endswith(
        ", 3 lost characters marked inside repairs"
    )


def test_detect_reads_stdin(tmp_path: Path) -> None:
    proc = run_cli("detect", "-", cwd=tmp_path, stdin=DAMAGED.encode("utf-8"))
    assert proc.returncode == 0, stderr_of(proc)
    lines = proc.stdout.decode("utf-8").splitlines()
    assert lines[0] == "stdin: utf-8, escape 1"
    assert lines[1] == "  1:3 escape '&#x5B78;' -> '學' (1.00)"
    proc = run_cli("detect", "--json", "-", cwd=tmp_path, stdin=GBK_TEXT.encode("gbk"))
    report = json.loads(proc.stdout)
    assert report["input"]["encoding"] == "gb18030" and report["input"]["path"] is None
    assert files_under(tmp_path) == set()


@pytest.mark.parametrize("option", [["-o", "out"], ["--in-place"]])
def test_clean_stdin_refuses_an_output_folder(tmp_path: Path, option: list[str]) -> None:
    proc = run_cli("clean", "-", *option, cwd=tmp_path, stdin=DAMAGED.encode("utf-8"))
    assert proc.returncode == 2
    assert "-o/--output and --in-place do not apply" in stderr_of(proc)
    assert proc.stdout == b""
    assert files_under(tmp_path) == set()


def test_clean_json_lines(tmp_path: Path, inputs: Path) -> None:
    out = tmp_path / "out"
    (inputs / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    proc = run_cli("clean", "--json", "-q", inputs / "a.txt", inputs / "broken.png", "-o", out)
    assert proc.returncode == 1
    rows = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [(r["input"], r["status"]) for r in rows] == [
        (str(inputs / "a.txt"), "repaired"),
        (str(inputs / "broken.png"), "failed"),
    ]
    assert rows[0]["applied"] == {"escape": 1}
    report = json.loads(Path(rows[0]["report"]).read_text(encoding="utf-8"))
    assert report["output"]["path"] == str(out / "a.txt")
    assert "not a text file" in rows[1]["error"] and "report" not in rows[1]
    # Stdin: one object with the text and its report.
    proc = run_cli("clean", "--json", "-", cwd=tmp_path, stdin=DAMAGED.encode("utf-8"))
    both = json.loads(proc.stdout)
    assert both["text"] == REPAIRED
    assert [e["kind"] for e in both["report"]["edits"]] == ["escape"]
