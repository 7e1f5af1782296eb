"""The files of a batch collated with each other (repair.partners).

Two files hold one passage of the 禮記 (曲禮上) in other scripts and variant forms
(爲 为, 恆 恒, 羣 群, 槩 概), punctuation and notes; each has lost one character the
other has: a ``?`` for 凊 (outside GB2312, which the rest of its file fits) and a
private-use code for 遊.  A note stands within four characters of each gap, so
the exact-context batch witnesses cannot read them; collation can.  A third
file shares nothing with them.
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
    "凡为人子之礼：冬温而夏?，昏定而晨省，在丑夷不争。夫为人子者，三赐不及车马。故州闾乡党称其孝也，"
    "兄弟亲戚称其慈也，僚友称其弟也，执友称其仁也，交游称其信也。见父之执，不谓之进不敢进，不谓之退不敢退，"
    "不问不敢对。此孝子之行也。夫为人子者：出必告，反必面（面，见也），所游必有常，所习必有业，恒言不称老。"
    "年长以倍则父事之，十年以长则兄事之，五年以长则肩随之。群居五人，则长者必异席。为人子者：居不主奥，"
    "坐不中席，行不中道，立不中门。食飨不为概，祭祀不为尸。听于无声，视于无形。不登高，不临深。\n"
)
B = (
    "凡爲人子之禮冬溫而夏凊昏定【定安也】而晨省在醜夷不爭夫爲人子者三賜不及車馬故州閭鄉黨稱其孝也"
    "兄弟親戚稱其慈也僚友稱其弟也執友稱其仁也交遊稱其信也見父之執不謂之進不敢進不謂之退不敢退"
    "不問不敢對此孝子之行也夫爲人子者出必告反必面所\ue7a1必有常所習必有業恆言不稱老"
    "年長以倍則父事之十年以長則兄事之五年以長則肩隨之羣居五人則長者必異席爲人子者居不主奧"
    "坐不中席行不中道立不中門食饗不爲槩祭祀不爲尸聽於無聲視於無形不登高不臨深\n"
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
    assert "冬温而夏凊，昏定" in (out / "a.txt").read_text(encoding="utf-8")
    assert "所遊必有常" in (out / "b.txt").read_text(encoding="utf-8")
    (a,), (b,) = gaps(out, "a.txt"), gaps(out, "b.txt")
    assert a["applied"] and a["after"] == "凊"
    assert a["detail"]["collation"]["witness"] == "b.txt" and a["detail"]["collation"]["reference"] == 1
    assert "read from b.txt" in a["note"]
    assert b["applied"] and b["after"] == "遊" and b["detail"]["collation"]["witness"] == "a.txt"
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
    (src / "b.txt").write_text(B.replace("夏凊", "夏\ue270"), encoding="utf-8")
    assert run_cli("clean", "-r", src, "-o", out, "--jobs", 1, "-q").returncode == 0
    files = json.loads((out / REPORTS / "summary.json").read_text(encoding="utf-8"))["files"]
    rows = {Path(r["input"]).name: r["status"] for r in files}
    assert rows["a.txt"] == "repaired" and rows["c.txt"] == "skipped"
    (a,) = gaps(out, "a.txt")
    assert not a["applied"] and "冬温而夏?，" in (out / "a.txt").read_text(encoding="utf-8")


def test_the_library_batch_collates_its_texts_too() -> None:
    repairer = Repairer()
    repairer.with_batch_witnesses(lambda: iter([A, B, C]))
    a, b, c = (repairer.repair_text(t) for t in (A, B, C))
    assert "冬温而夏凊" in a.text and "所遊必有常" in b.text
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
    b = B.replace("不臨深", "不臨深\ue7a1必有方")
    repairer = Repairer()
    repairer.with_batch_witnesses(lambda: iter([A, b]))
    result = repairer.repair_text(b)
    assert "不臨深遊必有方" in result.text and "所遊必有常" in result.text
    read, same = sorted((e for e in result.edits if e.kind == "private_use"), key=lambda e: e.start)
    assert read.detail["collation"]["witness"] == "text 1" and "same_code_as" not in read.detail["collation"]
    assert same.detail["collation"]["same_code_as"] == read.start and same.applied


def test_a_partner_damaged_at_a_gap_does_not_veto_a_reference() -> None:
    # The reference reads the gap; the partner lost the very character too.
    repairer = Repairer(references=(A.replace("?", "凊"),))
    repairer.with_batch_witnesses(lambda: iter([A, B.replace("夏凊", "夏\ue270")]))
    result = repairer.repair_text(A)
    (gap,) = [e for e in result.edits if e.kind == "question_mark"]
    assert gap.applied and gap.after == "凊"
    assert gap.detail["collation"]["reference"] == 1 and "witness" not in gap.detail["collation"]
