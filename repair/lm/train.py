"""Training a character model with KenLM's own estimator (lmplz, build_binary).

Why KenLM's tools rather than an estimator of our own: lmplz is the reference
modified Kneser-Ney implementation, streams through disk so 60 million
characters train in about a minute in a few GB, and supports the pruning the
size budget needs; build_binary writes the trie format that loads by mmap in
milliseconds.  The Python module on PyPI can load models but cannot estimate
or write binaries, so the two tools are built from the same pinned source
(``scripts/build_kenlm.sh``).  They are needed only to train; repairing needs
only the ``kenlm`` module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from repair.errors import RepairError
from repair.lm.split import EXCLUDED_TITLE_MARKERS, is_held_out
from repair.lm.tokens import to_simplified, to_traditional, training_lines

TOOLS_ENV = "KENLM_BIN"
LOCAL_TOOLS = Path(__file__).resolve().parent.parent.parent / ".kenlm" / "bin"


@dataclass(frozen=True)
class TrainingReport:
    output: Path
    order: int
    prune: tuple[int, ...]
    tokens: int
    lines: int
    bytes: int


def find_tool(name: str) -> Path:
    """lmplz / build_binary: $KENLM_BIN, then ./.kenlm/bin, then PATH."""
    for folder in (os.environ.get(TOOLS_ENV), str(LOCAL_TOOLS)):
        if folder and (Path(folder) / name).is_file():
            return Path(folder) / name
    found = shutil.which(name)
    if found:
        return Path(found)
    raise RepairError(
        f"KenLM's {name} was not found: run make kenlm-tools, which builds it into .kenlm/bin (as root it installs"
        " what it needs; otherwise first: sudo apt-get install cmake g++ libboost-program-options-dev"
        " libboost-system-dev libboost-thread-dev libboost-test-dev zlib1g-dev libbz2-dev liblzma-dev),"
        f" or set {TOOLS_ENV} to the folder holding it"
    )


def write_training_text(
    files: Iterable[Path], out: Path, *, script: str = "as-is", skip_held_out: bool = False
) -> tuple[int, int]:
    """Han-projected, space-joined training lines; returns (tokens, lines)."""
    convert = {"traditional": to_traditional, "simplified": to_simplified}.get(script, lambda t: t)
    tokens = lines = 0
    with out.open("w", encoding="utf-8") as fh:
        for path in files:
            try:
                handle = path.open(encoding="utf-8", errors="strict")
            except OSError as err:
                raise RepairError(f"{path}: cannot read: {err.strerror or err}") from None
            if skip_held_out and any(m in path.name for m in EXCLUDED_TITLE_MARKERS):
                handle.close()
                continue  # the 儀禮 family is evaluation text, never training text
            with handle:
                try:
                    for no, paragraph in enumerate(handle):
                        if skip_held_out and is_held_out(path.name, no):
                            continue
                        for line in training_lines(convert(paragraph)):
                            fh.write(line + "\n")
                            tokens += (len(line) + 1) // 2
                            lines += 1
                except UnicodeDecodeError:
                    raise RepairError(f"{path}: not UTF-8 text (repair clean it first)") from None
    return tokens, lines


def train(
    files: Iterable[Path],
    output: Path,
    *,
    order: int = 4,
    prune: tuple[int, ...] = (0, 0, 1, 1),
    script: str = "as-is",
    skip_held_out: bool = False,
    memory: str = "30%",
    quantize_bits: int = 8,
) -> TrainingReport:
    """Train a model on ``files``; writes ARPA when ``output`` ends in .arpa, else a KenLM binary."""
    if order < 2:
        raise RepairError("order must be at least 2")
    prune = tuple(prune)[:order]
    lmplz = find_tool("lmplz")
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="repair-lm-") as tmp_name:
        tmp = Path(tmp_name)
        text = tmp / "train.txt"
        tokens, lines = write_training_text(files, text, script=script, skip_held_out=skip_held_out)
        if tokens == 0:
            raise RepairError("no Han text to train on")
        arpa = tmp / "model.arpa"
        cmd = [str(lmplz), "-o", str(order), "-S", memory, "-T", str(tmp), "--discount_fallback"]
        if any(prune):
            cmd += ["--prune", *map(str, prune)]
        with text.open("rb") as src, arpa.open("wb") as dst:
            run = subprocess.run(cmd, stdin=src, stdout=dst, stderr=subprocess.PIPE, check=False)
        if run.returncode != 0:
            tail = run.stderr.decode(errors="replace").strip().splitlines()[-3:]
            raise RepairError("lmplz failed: " + " / ".join(tail))
        staged = tmp / "model.out"
        if output.suffix == ".arpa":
            shutil.copyfile(arpa, staged)
        else:
            cmd = [str(find_tool("build_binary"))]
            if quantize_bits:
                cmd += ["-q", str(quantize_bits), "-b", str(quantize_bits)]
            cmd += ["trie", str(arpa), str(staged)]
            run = subprocess.run(cmd, capture_output=True, check=False)
            if run.returncode != 0:
                tail = run.stderr.decode(errors="replace").strip().splitlines()[-3:]
                raise RepairError("build_binary failed: " + " / ".join(tail))
        final_tmp = output.with_name(f".{output.name}.tmp")
        shutil.copyfile(staged, final_tmp)
        os.replace(final_tmp, output)
    return TrainingReport(output, order, prune, tokens, lines, output.stat().st_size)
