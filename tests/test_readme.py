"""Every example in the README runs as given.

- ```console blocks: each ``$ `` line is run with bash in one scratch folder shared by all blocks
  (in README order, so a later block may use the files an earlier one made), with ``repair``
  on PATH as this interpreter's ``python -m repair``; it must exit 0 and print the lines that
  follow it (stdout and stderr together).  An expected line may hold ``...`` for any text; lines
  may come in any order, since a batch prints files as they finish.
- ```python blocks: doctests, run in the same scratch folder.
- ```sh blocks: set-up and synopsis lines.  ``make X`` must be a target that ``make -n`` accepts;
  ``.venv/bin/...`` is run (and ``source ...`` checked) when the environment exists, else the
  same command of this interpreter is run; a ``repair ...`` synopsis line must only use commands
  and options that the command's ``--help`` lists.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK_RE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
BLOCKS = [(m.group(1), m.group(2), README[: m.start()].count("\n") + 1) for m in BLOCK_RE.finditer(README)]


def blocks(kind: str) -> list:
    return [pytest.param(text, id=f"line{line}") for k, text, line in BLOCKS if k == kind]


def test_every_block_is_of_a_kind_that_is_tested() -> None:
    assert {k for k, _, _ in BLOCKS} <= {"console", "python", "sh"}
    assert len(blocks("console")) >= 4 and len(blocks("python")) >= 1 and len(blocks("sh")) >= 2


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("readme")
    shim = tmp_path_factory.mktemp("bin") / "repair"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m repair "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return work


def _env(workdir: Path) -> dict[str, str]:
    shims = [p for p in workdir.parent.iterdir() if (p / "repair").is_file()]
    return {**os.environ, "PATH": os.pathsep.join([*map(str, shims), os.environ.get("PATH", "")])}


def parse_console(text: str) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return steps


def line_matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def assert_output(expected: list[str], actual: list[str]) -> None:
    """Every expected line matches its own actual line, and nothing else was printed."""
    unused = list(actual)
    for want in expected:
        hit = next((a for a in unused if line_matches(want, a)), None)
        assert hit is not None, f"expected {want!r} in {actual!r}"
        unused.remove(hit)
    assert unused == [], f"printed besides what the README shows: {unused!r}"


@pytest.mark.parametrize("text", blocks("console"))
def test_console_examples(text: str, workdir: Path) -> None:
    for command, expected in parse_console(text):
        proc = subprocess.run(
            ["bash", "-c", command],
            cwd=workdir,
            env=_env(workdir),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=600,
        )
        out = proc.stdout.decode("utf-8")
        assert proc.returncode == 0, (command, out)
        assert_output(expected, out.splitlines())


@pytest.mark.parametrize("text", blocks("python"))
def test_python_examples(text: str, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    test = doctest.DocTestParser().get_doctest(text, {}, "README", str(ROOT / "README.md"), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def sh_commands(text: str) -> list[str]:
    """The block's commands, continuation lines joined, comments dropped."""
    commands: list[str] = []
    for line in text.splitlines():
        body = line.split("#", 1)[0].rstrip() if not line.lstrip().startswith("[") else line.strip()
        if not body:
            continue
        if line[:1].isspace() and commands:
            commands[-1] += " " + body.strip()
        else:
            commands.append(body)
    return commands


def options_of(*command: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "repair", *command, "--help"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def check_synopsis(command: str) -> None:
    words = command.split()
    assert words[0] == "repair"
    sub = [w for w in words[1:3] if re.fullmatch(r"[a-z][a-z-]+", w)]
    if sub == ["glyphs", "learn"] or sub[:1] != ["glyphs"]:
        sub = sub[:2] if sub[:1] == ["glyphs"] else sub[:1]
    helptext = options_of(*sub)
    for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", command):
        assert re.search(rf"(?<![\w-]){re.escape(option)}\b", helptext), (option, sub)


@pytest.mark.parametrize("text", blocks("sh"))
def test_sh_examples(text: str) -> None:
    venv = ROOT / ".venv"
    for command in sh_commands(text):
        if command.startswith("make "):
            target = command.split()[1]
            proc = subprocess.run(["make", "-n", "-C", str(ROOT), target], capture_output=True, timeout=60)
            assert proc.returncode == 0, proc.stderr
        elif command.startswith(".venv/bin/"):
            argv = command.split()
            if venv.is_dir():
                argv[0] = str(ROOT / argv[0])
            else:  # no environment here: the same command of this interpreter
                argv = [sys.executable, "-m", Path(argv[0]).name, *argv[1:]]
            proc = subprocess.run(argv, capture_output=True, timeout=120)
            assert proc.returncode == 0, proc.stderr
        elif command.startswith("source "):
            path = command.split()[1]
            assert path == ".venv/bin/activate"
            if venv.is_dir():
                assert (ROOT / path).is_file()
        elif command.startswith("repair "):
            check_synopsis(command)
        else:
            pytest.fail(f"README example of no tested kind: {command!r}")


def test_links_in_the_readme_and_docs_resolve() -> None:
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+://|#|mailto:", target):
                continue
            assert (page.parent / target.split("#")[0]).exists(), (page.name, target)
