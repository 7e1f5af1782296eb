"""What the fill tests share: a base text to witness from, the model marker, the CLI runner."""

from __future__ import annotations

import subprocess
import sys

import pytest

from repair.lm.model import default_model_path

needs_model = pytest.mark.skipif(not default_model_path().exists(), reason="the shipped model is missing")

BASE = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎"


def run_repair(*args: object) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([sys.executable, "-m", "repair", *map(str, args)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run
