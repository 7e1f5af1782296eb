"""The per-file JSON report: valid against its published schema, exact positions, and reversible."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from repair import repair_bytes, repair_text
from repair.report import build_report, dumps, rebuild_input, schema

SCHEMA_PATH = Path(str(resources.files("repair.schema").joinpath("report.schema.json")))
MOJIBAKE = "中文用户".encode().decode("gb18030", "replace")  # UTF-8 read as GBK

# One input per line of damage the families know; each is written to its own file.
INPUTS: dict[str, bytes] = {
    "escape.txt": "子曰&#x5B78;而時習之，不亦說乎？\n".encode(),
    "radical.txt": "⼈不知而不慍，不亦君子乎？\n".encode(),
    "private_use.txt": "學而時習之\ue000不亦說乎\n".encode(),
    "question.txt": "學而??習之，不亦說乎。\n".encode(),
    "junk.txt": "學而時習之-abcshuwu.com\n有朋自遠方來。\n".encode(),
    "placeholder.txt": "學而囗習之，不亦說乎。\n".encode(),
    "lossy.txt": "學而锟斤拷習之，不亦說乎。\n".encode(),
    "mojibake.txt": f"子曰：{MOJIBAKE}，不亦說乎。\n".encode(),
    "kana.txt": "學而時い之，不亦說乎。\n".encode(),
    # Undecodable bytes inside UTF-8: U+FFFD with the raw bytes in the report.
    "fffd.txt": "子曰：學而時習之，".encode() + b"\xff" + "不亦說乎？\n".encode(),
    # A mostly UTF-8 file with one GBK line: encoding_segments is filled.
    "mixed.txt": (
        "子曰：學而時習之，不亦說乎？\n有朋自遠方來，不亦樂乎？\n".encode()
        + "其为人也孝弟，而好犯上者，鲜矣。\n".encode("gbk")
        + "人不知而不慍，不亦君子乎？\n巧言令色，鮮矣仁！\n".encode()
    ),
    "gbk.txt": "其为人也孝弟，而好犯上者，鲜矣&#x4E00;。\n".encode("gbk"),
    "empty.txt": b"",
    "bom_crlf.txt": b"\xef\xbb\xbf" + "第一行\r\n⼈之初&#x4E00;\r\n".encode(),
}


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def assert_valid(validator, report: dict) -> None:
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("reports")
    src, out = root / "in", root / "out"
    src.mkdir()
    for name, data in INPUTS.items():
        (src / name).write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-m", "repair", "clean", "-q", "-r", str(src), "-o", str(out)],
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return src, out


def load_report(out: Path, name: str) -> dict:
    return json.loads((out / "_repair_reports" / f"{name}.report.json").read_text(encoding="utf-8"))


def test_schema_is_valid_draft_2020_12() -> None:
    published = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert published["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(published)
    assert schema() == published  # repair.report.schema() serves the same file


def test_schema_rejects_a_broken_report(validator) -> None:
    """The schema has teeth: a report missing fields or with a foreign family fails."""
    report = build_report(repair_text("子曰&#x5B78;"), input_path=None, output_path=None, input_bytes=None, settings={})
    assert_valid(validator, report)
    bad = json.loads(dumps(report))
    del bad["edits"][0]["before"]
    assert not validator.is_valid(bad)
    bad = json.loads(dumps(report))
    bad["edits"][0]["kind"] = "no_such_family"
    assert not validator.is_valid(bad)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_cli_reports_validate(validator, cleaned, name: str) -> None:
    _, out = cleaned
    assert_valid(validator, load_report(out, name))


def test_cli_reports_cover_many_families(cleaned) -> None:
    """The validation above means something only if the reports hold edits of many kinds."""
    _, out = cleaned
    kinds = {e["kind"] for name in INPUTS for e in load_report(out, name)["edits"]}
    assert {
        "escape",
        "radical",
        "private_use",
        "question_mark",
        "junk",
        "placeholder",
        "codec_confusion",
        "foreign_symbol",
        "replacement_char",
    } <= kinds
    mixed = load_report(out, "mixed.txt")
    assert mixed["input"]["encoding_segments"], "the mixed file should list its GBK line"


def test_summary_and_detect_reports_validate(validator, cleaned, tmp_path: Path) -> None:
    src, out = cleaned
    reports = tmp_path / "detect-reports"
    proc = subprocess.run(
        [sys.executable, "-m", "repair", "detect", "-r", str(src), "--report-dir", str(reports)],
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    for name in INPUTS:
        report = json.loads((reports / f"{name}.report.json").read_text(encoding="utf-8"))
        assert_valid(validator, report)
        assert report["output"]["path"] is None
        assert report["edits"] == load_report(out, name)["edits"]
    summary = json.loads((out / "_repair_reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["failed"] == 0
    assert len(summary["files"]) == len(INPUTS)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_rebuild_input_from_cli_output(cleaned, name: str) -> None:
    src, out = cleaned
    report = load_report(out, name)
    output_text = (out / name).read_bytes().decode("utf-8")
    input_text = repair_bytes((src / name).read_bytes()).source_text
    assert rebuild_input(output_text, report) == input_text
    assert report["input"]["chars"] == len(input_text)
    assert report["output"]["chars"] == len(output_text)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_edit_spans_match_input_and_output(cleaned, name: str) -> None:
    src, out = cleaned
    report = load_report(out, name)
    input_text = repair_bytes((src / name).read_bytes()).source_text
    output_text = (out / name).read_bytes().decode("utf-8")
    for e in report["edits"]:
        assert input_text[e["start"] : e["end"]] == e["before"], e
        piece = output_text[e["out_start"] : e["out_end"]]
        if e["applied"]:
            assert piece == e["after"], e
        else:
            assert piece == e["before"] == e["after"], e


def test_rebuild_input_exact_for_known_text(cleaned) -> None:
    _, out = cleaned
    assert rebuild_input((out / "escape.txt").read_text(encoding="utf-8"), load_report(out, "escape.txt")) == (
        "子曰&#x5B78;而時習之，不亦說乎？\n"
    )
    # GBK in, UTF-8 out: the rebuilt input is the decoded text.
    assert rebuild_input((out / "gbk.txt").read_text(encoding="utf-8"), load_report(out, "gbk.txt")) == (
        "其为人也孝弟，而好犯上者，鲜矣&#x4E00;。\n"
    )
    # A removed watermark comes back.
    assert rebuild_input((out / "junk.txt").read_text(encoding="utf-8"), load_report(out, "junk.txt")) == (
        "學而時習之-abcshuwu.com\n有朋自遠方來。\n"
    )


def edit_at(report: dict, before: str) -> dict:
    found = [e for e in report["edits"] if e["before"] == before]
    assert len(found) == 1, (before, report["edits"])
    return found[0]


def test_line_and_column_positions() -> None:
    text = (
        "第一行：學而時習之。\n"  # line 1
        "𠀀第二行\ue000\n"  # line 2: a supplementary-plane char counts as one column
        "學而時習&#x4E00;之&#x4E8C;\n"  # line 3: escapes at columns 5 and 14
        "\n"  # line 4: empty
        "⼈之初"  # line 5, no final newline
    )
    result = repair_text(text)
    report = json.loads(dumps(build_report(result, input_path=None, output_path=None, input_bytes=None, settings={})))
    assert report["input"]["lines"] == 5

    first = edit_at(report, "&#x4E00;")
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (3, 5, 3, 13)
    assert (first["out_line"], first["out_column"]) == (3, 5)
    assert first["start"] == text.index("&#x4E00;")

    second = edit_at(report, "&#x4E8C;")
    assert (second["line"], second["column"], second["end_line"], second["end_column"]) == (3, 14, 3, 22)
    # In the output the first escape became one character: column 14 - 7.
    assert (second["out_line"], second["out_column"]) == (3, 7)

    pua = edit_at(report, "\ue000")
    assert (pua["line"], pua["column"]) == (2, 5)

    radical = edit_at(report, "⼈")
    assert (radical["line"], radical["column"], radical["out_line"], radical["out_column"]) == (5, 1, 5, 1)

    assert result.text == "第一行：學而時習之。\n𠀀第二行\ue000\n學而時習一之二\n\n人之初"
    assert rebuild_input(result.text, report) == text


WATERMARK_EATS_NEWLINES = (
    "the bare-address junk pattern is '(?:LABEL\\s*)?(?:[-—_~]*\\s*SITE)?\\s*[-—_~]*\\s*' + DOMAIN: the \\s* before "
    "the dashes matches newlines, so an address at the start of a line takes the line break(s) before it and "
    "the repair joins that line to the previous one"
)


def test_line_numbers_after_a_removed_line() -> None:
    """Output positions account for a whole junk line the repair removed."""
    text = "學而時習之。\n-abcshuwu.com\n有朋&#x81EA;遠方來。\n"
    result = repair_text(text)
    report = build_report(result, input_path=None, output_path=None, input_bytes=None, settings={})
    junk = [e for e in report["edits"] if e["kind"] == "junk"]
    assert len(junk) == 1 and junk[0]["line"] == 2 and junk[0]["applied"]
    esc = edit_at(report, "&#x81EA;")
    assert (esc["line"], esc["column"]) == (3, 3)
    assert (esc["out_line"], esc["out_column"]) == (2, 3)
    assert result.text == "學而時習之。\n有朋自遠方來。\n"
    assert rebuild_input(result.text, report) == text


def test_fffd_report_keeps_raw_bytes(cleaned) -> None:
    _, out = cleaned
    report = load_report(out, "fffd.txt")
    e = edit_at(report, "\ufffd")
    assert e["kind"] == "replacement_char"
    assert (e["line"], e["column"]) == (1, 10)
    assert not e["applied"]
    assert "FF" in json.dumps(e.get("detail", {})).upper(), "the raw byte behind U+FFFD must be in the report"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "學而時習之。\n-abcshuwu.com有朋自遠方來。",
            id="dash-address-glued-to-text",
        ),
        pytest.param(
            "學而時習之。\nabcshuwu.com 有朋自遠方來。",
            id="address-at-line-start",
        ),
        pytest.param(
            "學而時習之。\n\nabcshuwu.com 有朋自遠方來。",
            id="address-after-blank-line",
        ),
    ],
)
def test_removed_watermark_keeps_the_line_breaks_before_it(text: str) -> None:
    """A watermark at the start of a line is removed; the lines before it stay where they were."""
    result = repair_text(text)
    report = build_report(result, input_path=None, output_path=None, input_bytes=None, settings={})
    junk = [e for e in report["edits"] if e["kind"] == "junk"]
    assert len(junk) == 1 and junk[0]["applied"]
    assert "abcshuwu.com" in junk[0]["before"]
    assert "\n" not in junk[0]["before"], junk[0]["before"]
    assert junk[0]["line"] == text.count("\n") + 1
    assert result.text.count("\n") == text.count("\n")
    assert result.text.startswith("學而時習之。\n")
    assert "abcshuwu" not in result.text
