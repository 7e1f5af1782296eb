"""The files of a batch collated with each other (repair.partners).

Two files hold one passage of the Yili (大射) in other variant forms (乗 乘, 埽 扫,
堦 阶, 適 适), punctuation and notes; each has lost one character the other has: a ``?``
for 搢 (outside GB2312, which the rest of its file fits) and a private-use code
for 适.  A note or a variant stands within four characters of each gap, so the
exact-context batch witnesses cannot read them; collation can.  A third file
shares nothing with them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from repair import Repairer
from repair.collate import sketch
from repair.partners import choose, document_key

A = (
    "司马师反位，隶仆人扫侯道。司射去扑，倚于阶西，适阼阶下，北面告于公曰：“请射。”公许。"
    "司射适次，袒、决、遂，执弓，?三挟一个，出于次，西面揖，当阶北面揖，及阶揖，升堂揖，当物北面揖，及物揖，"
    "由下物少退，诱射。射三侯，将乘矢，始射干，又射参，大侯再发。卒射，北面揖，及阶揖，降，如升射之仪。"
    "遂适堂西，改取一个，挟之。\n"
)
B = (
    "司马师反位隶仆人埽侯道【埽犹扫也】司射去扑倚于堦西\ue7a1阼堦下北面告于公曰请射公许"
    "司射適次【次若今更衣处】袒决遂【袒左免衣也】执弓搢三挟一个出于次西面揖当阶北面揖及阶揖升堂揖当物北面揖及物揖"
    "由下物少退诱射射三侯将乗矢始射干又射参大侯再发卒射北面揖及阶揖降如升射之仪\n"
)
C = (
    "道可道，非常道；名可名，非常名。无名天地之始，有名万物之母。故常无欲以观其妙，常有欲以观其徼。"
    "此两者同出而异名，同谓之玄。玄之又玄，众妙之门。天下皆知美之为美，斯恶已。?\n"
)
REPORTS = "_repair_reports"


def run_cli(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "repair", *map(str, args)], capture_output=True, timeout=600)


def batch(root: Path) -> Path:
    src = root / "in"
    src.mkdir()
    for name, text in (("a.txt", A), ("b.txt", B), ("c.txt", C)):
        (src / name).write_text(text, encoding="utf-8")
    return src


def gaps(out: Path, name: str) -> list[dict]:
    report = json.loads((out / REPORTS / f"{name}.report.json").read_text(encoding="utf-8"))
    return [e for e in report["edits"] if e["kind"] in ("question_mark", "private_use")]


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_file_reads_its_gap_from_the_other(tmp_path: Path, jobs: int) -> None:
    src, out = batch(tmp_path), tmp_path / "out"
    proc = run_cli("clean", "-r", src, "-o", out, "--jobs", jobs, "-q")
    assert proc.returncode == 0, proc.stderr
    assert "执弓，搢三挟一个" in (out / "a.txt").read_text(encoding="utf-8")
    assert "倚于堦西适阼堦下" in (out / "b.txt").read_text(encoding="utf-8")
    (a,), (b,) = gaps(out, "a.txt"), gaps(out, "b.txt")
    assert a["applied"] and a["after"] == "搢"
    assert a["detail"]["collation"]["witness"] == "b.txt" and a["detail"]["collation"]["reference"] == 1
    assert "read from b.txt" in a["note"]
    assert b["applied"] and b["after"] == "适" and b["detail"]["collation"]["witness"] == "a.txt"
    # The unrelated file has no partner: its gap is left as it was.
    (c,) = gaps(out, "c.txt")
    assert not c["applied"] and "collation" not in c["detail"]
    # The page names the file the reading came from.
    page = next((out / REPORTS / "html").rglob("a.txt*.html")).read_text(encoding="utf-8")
    assert "read from b.txt (a file of this batch)" in page


def test_without_batch_witnesses_the_gaps_stay_marked(tmp_path: Path) -> None:
    src, out = batch(tmp_path), tmp_path / "out"
    proc = run_cli("clean", "-r", src, "-o", out, "--jobs", 1, "-q", "--no-batch-witnesses")
    assert proc.returncode == 0, proc.stderr
    for name in ("a.txt", "b.txt"):
        (gap,) = gaps(out, name)
        assert not gap["applied"] and "collation" not in gap["detail"]


def test_a_rerun_redoes_a_file_whose_partner_changed(tmp_path: Path) -> None:
    src, out = batch(tmp_path), tmp_path / "out"
    assert run_cli("clean", "-r", src, "-o", out, "--jobs", 1, "-q").returncode == 0
    assert run_cli("clean", "-r", src, "-o", out, "--jobs", 1, "-q").returncode == 0
    summary = json.loads((out / REPORTS / "summary.json").read_text(encoding="utf-8"))
    assert summary["skipped"] == 3
    # b.txt loses the character a.txt read from it; a.txt itself is unchanged.
    (src / "b.txt").write_text(B.replace("执弓搢", "执弓\ue270"), encoding="utf-8")
    assert run_cli("clean", "-r", src, "-o", out, "--jobs", 1, "-q").returncode == 0
    files = json.loads((out / REPORTS / "summary.json").read_text(encoding="utf-8"))["files"]
    rows = {Path(r["input"]).name: r["status"] for r in files}
    assert rows["a.txt"] == "repaired" and rows["c.txt"] == "skipped"
    (a,) = gaps(out, "a.txt")
    assert not a["applied"] and "执弓，?三挟" in (out / "a.txt").read_text(encoding="utf-8")


def test_the_library_batch_collates_its_texts_too() -> None:
    repairer = Repairer()
    repairer.with_batch_witnesses(lambda: iter([A, B, C]))
    a, b, c = (repairer.repair_text(t) for t in (A, B, C))
    assert "执弓，搢三挟" in a.text and "倚于堦西适阼堦下" in b.text
    (ea,) = [e for e in a.edits if e.kind == "question_mark"]
    assert ea.detail["collation"]["witness"] == "text 2"
    (eb,) = [e for e in b.edits if e.kind == "private_use"]
    assert eb.detail["collation"]["witness"] == "text 1"
    assert c.text == C
    # The exact-context witnesses alone do not read them: a variant or a note is too close.
    repairer._partners = None
    assert "?" in repairer.repair_text(A).text and "\ue7a1" in repairer.repair_text(B).text


def test_a_single_document_has_no_partners() -> None:
    repairer = Repairer()
    assert repairer.repair_text(A).text == A


def test_partners_are_other_files_sharing_passages() -> None:
    kept = [Repairer(model=None).repair_text(t).text for t in (A, B, C)]
    sketches = [sketch(t) for t in kept]
    assert choose(sketches) == [(1,), (0,), ()]
    # A file is never its own partner, nor is another file with the very same text.
    twice = [sketches[0], sketches[0].copy(), sketches[1]]
    keys = [document_key(A), document_key(A), document_key(B)]
    assert choose(twice, same=keys) == [(2,), (2,), (0, 1)]
    assert choose([sketches[0]]) == [()]
    # Too little in common chooses nothing.
    assert choose(sketches, min_shared=10_000) == [(), (), ()]


def test_a_formula_shared_by_many_files_chooses_nothing() -> None:
    common = np.arange(20, dtype=np.uint64)
    assert choose([common.copy() for _ in range(17)]) == [()] * 17
    assert all(len(p) == 3 and i not in p for i, p in enumerate(choose([common.copy() for _ in range(5)])))


def test_a_code_a_partner_reads_is_read_so_wherever_it_recurs() -> None:
    # The code recurs in a sentence the other file lacks: one code, one character.
    b = B.replace("降如升射之仪", "降如升射之仪宾降\ue7a1堂西")
    repairer = Repairer()
    repairer.with_batch_witnesses(lambda: iter([A, b]))
    result = repairer.repair_text(b)
    assert "宾降适堂西" in result.text and "倚于堦西适阼堦下" in result.text
    read, same = sorted((e for e in result.edits if e.kind == "private_use"), key=lambda e: e.start)
    assert read.detail["collation"]["witness"] == "text 1" and "same_code_as" not in read.detail["collation"]
    assert same.detail["collation"]["same_code_as"] == read.start and same.applied


def test_a_partner_damaged_at_a_gap_does_not_veto_a_reference() -> None:
    # The reference reads the gap; the partner lost the very character too.
    repairer = Repairer(references=(A.replace("?", "搢"),))
    repairer.with_batch_witnesses(lambda: iter([A, B.replace("执弓搢", "执弓\ue270")]))
    result = repairer.repair_text(A)
    (gap,) = [e for e in result.edits if e.kind == "question_mark"]
    assert gap.applied and gap.after == "搢"
    assert gap.detail["collation"]["reference"] == 1 and "witness" not in gap.detail["collation"]
