"""The pipeline is one list of stages; a stage with nothing to do does nothing.

The detect stage's one scan decides which families are asked: a family whose
trigger characters the text lacks must have had nothing to find.  Checked
against every family's own detection on the samples, the negative set and
texts built for each family, so a trigger that forgets a character fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from repair import Repairer
from repair import pipeline as pipeline_module
from repair.families import REGISTRY
from repair.families.base import Document
from repair.pipeline import STAGES
from repair.pipeline.detect import SCAN_RE, scan

ROOT = Path(__file__).resolve().parent.parent
# A few texts per family, each holding something the family detects.
PROBES = (
    "子曰學而時習之&#x4E0D;亦說乎%E5%AD%A6\\u5B78",
    "學而時習之\u2f08不亦說乎⺅",
    "學而時[亻+疑]之‹豸干›不亦說乎亻尔⿰木木",
    "學而時?之不亦說乎??朋自遠方來",
    "學而時\ufffd之不亦說乎\ufffd\ufffd朋自遠方來",
    "學而時\ue234之不亦說乎",
    "學而時ゑ之不亦ㄅ乎α朋",
    "學而時□之不亦〓乎囗朋",
    "學而時習之【来源：读书之家-dushuzhijia.com】不亦說乎\n第65章\n>\n上一章|下一章\n",
)


def texts() -> list[str]:
    found = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "samples").rglob("*.txt"))]
    found += (ROOT / "tests" / "data" / "negative.txt").read_text(encoding="utf-8").splitlines()
    return found + list(PROBES)


def test_the_stages_are_one_list_in_order():
    assert [name for name, _ in STAGES] == [
        "decode",
        "detect",
        "channel",
        "collate",
        "fill",
        "lookalikes",
        "deletions",
        "apply",
    ]


def test_a_job_records_each_stage():
    job = Repairer(model=None).run("學而時習之□不亦說乎")
    assert set(job.seconds) == {name for name, _ in STAGES}
    assert job.result is not None and [e.kind for e in job.result.edits] == ["placeholder"]


@pytest.mark.parametrize("family", [f for f in REGISTRY if f.trigger is not None], ids=lambda f: f.kind)
def test_a_family_the_scan_skips_had_nothing_to_find(family):
    asked = 0
    for text in texts():
        doc = Document(text)
        doc.present = scan(text)
        if doc.holds(family.trigger):
            asked += 1
            continue
        assert family.detect(Document(text)) == [], text[:80]
    assert asked or not family.trigger, "no probe exercises this family's trigger"


def test_every_trigger_is_in_the_scan():
    for family in REGISTRY:
        if family.trigger:
            for ch in re.sub(r"\\.|-", "", family.trigger)[:50]:
                assert SCAN_RE.search(ch), (family.kind, ch)


def test_clean_text_is_never_filled(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the fill ran on a text with nothing to fill")

    monkeypatch.setattr(pipeline_module.fill, "fill", refuse)
    job = Repairer().run("學而時習之不亦說乎有朋自遠方來不亦樂乎")
    assert job.result is not None and job.result.text == "學而時習之不亦說乎有朋自遠方來不亦樂乎"


UPPER = ("repair.pipeline", "repair.api", "repair.batch", "repair.cli")
LOWER = ("types", "charclass", "plausibility", "channel", "families", "fill", "lm", "redecode", "errors")


@pytest.mark.parametrize("layer", LOWER)
def test_lower_layers_never_import_the_pipeline_or_the_interface(layer):
    base = ROOT / "repair" / layer
    files = sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(UPPER), (path, node.module)
