"""Fixtures for the language-model tests: a tiny model trained during the run.

Training needs KenLM's lmplz (``make setup`` builds it).  Without it the
training tests are skipped, unless REPAIR_REQUIRE_KENLM=1 (as in CI), where a
missing tool is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from repair.errors import RepairError
from repair.lm.train import find_tool, train

# Lines written for the tests (the Analects and Mencius), a few KB in all.
LINES = [
    "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎",
    "有子曰其為人也孝弟而好犯上者鮮矣不好犯上而好作亂者未之有也",
    "君子務本本立而道生孝弟也者其為仁之本與",
    "子曰巧言令色鮮矣仁",
    "曾子曰吾日三省吾身為人謀而不忠乎與朋友交而不信乎傳不習乎",
    "子曰道千乘之國敬事而信節用而愛人使民以時",
    "子曰弟子入則孝出則弟謹而信汎愛眾而親仁行有餘力則以學文",
    "孟子見梁惠王王曰叟不遠千里而來亦將有以利吾國乎",
    "孟子對曰王何必曰利亦有仁義而已矣",
]


def require_tools() -> None:
    try:
        find_tool("lmplz")
        find_tool("build_binary")
    except RepairError as err:
        if os.environ.get("REPAIR_REQUIRE_KENLM") == "1":
            pytest.fail(str(err))
        pytest.skip(str(err))


@pytest.fixture
def kenlm_tools() -> None:
    require_tools()


@pytest.fixture(scope="session")
def corpus_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "analects.txt"
    path.write_text("\n".join(LINES * 8) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, corpus_file) -> Path:
    require_tools()
    out = tmp_path_factory.mktemp("model") / "tiny.binary"
    train([corpus_file], out, order=3, prune=(0, 0, 0))
    return out
