"""Set-up: the Makefile's two commands, and CI running exactly those."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readme_commands() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    substance = [
        line.strip() for line in lines if line.strip() and not line.lstrip().startswith(("#", "set ", "cd ", "export "))
    ]
    assert substance == ["make setup", "make test"]
    exported = " ".join(line for line in lines if line.startswith("export "))
    for name in ("REPAIR_REQUIRE_KENLM", "REPAIR_REQUIRE_BROWSER", "REPAIR_REQUIRE_RAY"):
        assert f"{name}=1" in exported
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^make setup\b", readme, re.M) and re.search(r"^make test\b", readme, re.M)


def test_the_default_python_is_python3() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^PYTHON \?= python3$", makefile, re.M)
    dry = subprocess.run(["make", "-n", "-C", str(ROOT), "setup"], capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0 and "PYTHON='python3'" in dry.stdout


def _make_test(tmp_path: Path, pytest_args: str) -> subprocess.CompletedProcess:
    venv = tmp_path / "venv"
    if not venv.exists():
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(sys.executable)
    return subprocess.run(
        ["make", "-s", "-C", str(ROOT), "test", f"VENV={venv}", f"PYTEST_ARGS={pytest_args}"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def test_make_test_fails_when_no_test_is_collected(tmp_path: Path) -> None:
    empty = tmp_path / "tests_none"
    empty.mkdir()
    (empty / "test_nothing.py").write_text("X = 1\n", encoding="utf-8")
    proc = _make_test(tmp_path, f"--rootdir={empty} -c /dev/null {empty}")
    assert proc.returncode != 0
    assert "collected no tests" in proc.stdout
    ok = tmp_path / "tests_one"
    ok.mkdir()
    (ok / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    proc = _make_test(tmp_path, f"--rootdir={ok} -c /dev/null {ok}")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_make_test_without_the_environment_says_to_run_setup(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "test", f"VENV={tmp_path / 'none'}"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0 and "run make setup first" in proc.stdout
