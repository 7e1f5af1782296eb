"""Large files, repaired a chunk at a time (``repair.stream``): the same text, output and report
as a whole repair where chunks do not interact, offsets that undo, long lines cut safely, and
nothing half-written.  The thresholds are passed tiny, so the inputs stay small."""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path

import jsonschema
import pytest

from repair import batch, stream
from repair.api import Repairer
from repair.errors import BinaryInputError
from repair.pipeline.decode import decode_bytes
from repair.report import build_report, dumps, edit_from_json, rebuild_input, schema
from repair.types import undo_edits

# Analects 1.1-1.3, one saying a line, each long enough that what is damaged in its middle
# has its whole context in its own line.
SAYINGS = (
    "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？",
    "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。",
    "君子務本，本立而道生。孝弟也者，其為仁之本與！",
    "曾子曰：吾日三省吾身：為人謀而不忠乎？與朋友交而不信乎？傳不習乎？",
)
MOJIBAKE = "中文用户名和密码".encode().decode("gb18030", "replace")  # UTF-8 read as GBK


def damaged_lines() -> list[str]:
    """Clean sayings with exact damage in the middle of some: escapes, a Kangxi radical, mojibake."""
    lines = []
    for n in range(12):
        s = SAYINGS[n % len(SAYINGS)]
        half = len(s) // 2
        damage = ("&#x5B78;", "⼈", "", f"，{MOJIBAKE}，")[n % 4]
        lines.append(s[:half] + damage + s[half:])
    return lines


def write(tmp_path: Path, data: bytes, name: str = "big.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def streamed(path: Path, repairer, chunk_chars: int, **kw) -> tuple[bytes, str, stream.Streamed]:
    out, rep = io.BytesIO(), io.BytesIO()
    made = stream.repair_file(
        path, repairer, out, rep, input_path="in", output_path="out", settings={"s": 1}, chunk_chars=chunk_chars, **kw
    )
    return out.getvalue(), rep.getvalue().decode("utf-8"), made


class Spy:
    """A Repairer that records the texts it is given."""

    def __init__(self, repairer: Repairer) -> None:
        self.repairer = repairer
        self.texts: list[str] = []

    def repair_text(self, text: str):
        self.texts.append(text)
        return self.repairer.repair_text(text)


@pytest.fixture(scope="module")
def repairer() -> Repairer:
    return Repairer()


@pytest.mark.parametrize("model", ["default", None])
def test_chunked_equals_whole_where_chunks_do_not_interact(tmp_path: Path, model) -> None:
    """Exact damage and mojibake in the middle of lines: each chunk decides what the whole
    text decides.  (A gap the model ranks is not such damage: its candidates are weighed with
    the document's own character counts, which are the chunk's when it is cut.)"""
    data = ("\n".join(damaged_lines()) + "\n").encode()
    if model is None:
        # An undecodable byte: the raw byte stays in the report.
        data += "子曰：巧言令色，".encode() + b"\xff" + "鮮矣仁！\n".encode()
    path = write(tmp_path, data)
    r = Repairer(model=model)
    spy = Spy(r)
    out, report, made = streamed(path, spy, chunk_chars=100)
    assert len(spy.texts) > 5 and all(len(t) <= 100 and t.endswith("\n") for t in spy.texts)

    whole = r.repair_bytes(data)
    assert len(whole.applied) >= 9  # there is something to compare
    assert out == whole.text.encode("utf-8")
    expected = build_report(whole, input_path="in", output_path="out", input_bytes=data, settings={"s": 1})
    assert report == dumps(expected)  # the same document, byte for byte
    assert made.report == {k: v for k, v in expected.items() if k != "edits"}
    if model is None:
        assert [e["detail"]["bytes"] for e in expected["edits"] if e["kind"] == "replacement_char"] == [["FF"]]


def test_report_offsets_undo_and_are_whole_file_positions(tmp_path: Path, repairer: Repairer) -> None:
    sample = Path(__file__).resolve().parent.parent / "samples" / "synthetic" / "scraped.txt"
    data = sample.read_bytes() + "\n".join(damaged_lines()).encode() + b"\n"
    path = write(tmp_path, data)
    out, report_text, _ = streamed(path, repairer, chunk_chars=150)
    report = json.loads(report_text)
    jsonschema.Draft202012Validator(schema()).validate(report)
    source, output = decode_bytes(data).text, out.decode("utf-8")
    assert len(report["edits"]) > 10 and report["summary"]["applied"]
    assert rebuild_input(output, report) == source
    assert undo_edits(output, [edit_from_json(e) for e in report["edits"]]) == source
    for e in report["edits"]:
        assert source[e["start"] : e["end"]] == e["before"]
        assert output[e["out_start"] : e["out_end"]] == (e["after"] if e["applied"] else e["before"])
        line_start = source.rfind("\n", 0, e["start"]) + 1
        assert (e["line"], e["column"]) == (source.count("\n", 0, e["start"]) + 1, e["start"] - line_start + 1)
        out_start = output.rfind("\n", 0, e["out_start"]) + 1
        assert (e["out_line"], e["out_column"]) == (
            output.count("\n", 0, e["out_start"]) + 1,
            e["out_start"] - out_start + 1,
        )
    assert [e["id"] for e in report["edits"]] == list(range(1, len(report["edits"]) + 1))
    assert report["input"]["lines"] == source.count("\n") + 1
    assert report["input"]["chars"] == len(source) and report["output"]["chars"] == len(output)


def test_a_long_single_line_is_cut_after_sentences_and_round_trips(tmp_path: Path, repairer: Repairer) -> None:
    sentences = [s.replace("\n", "") for s in damaged_lines()] * 6
    line = "".join(sentences)
    assert "\n" not in line and len(line) > 2000
    path = write(tmp_path, line.encode())
    spy = Spy(repairer)
    out, report_text, _ = streamed(path, spy, chunk_chars=300)
    assert len(spy.texts) >= len(line) // 300 and "".join(spy.texts) == line
    assert all(len(t) <= 300 for t in spy.texts)
    # Every cut is after sentence punctuation (。！？ and any closing mark).
    assert all(t[-1] in "。！？" for t in spy.texts[:-1])
    output = out.decode("utf-8")
    assert "&#x" not in output and "⼈" not in output and MOJIBAKE not in output
    assert rebuild_input(output, json.loads(report_text)) == line


def test_a_line_without_punctuation_is_cut_between_ordinary_characters(tmp_path: Path, repairer: Repairer) -> None:
    han = "".join(SAYINGS).replace("，", "").replace("。", "").replace("？", "").replace("：", "")
    han = "".join(c for c in han if c not in "！；")
    line = (han * 20 + "&#x5B78;") * 3 + "abc" * 400  # ends in 1,200 characters that are not Han
    path = write(tmp_path, line.encode())
    spy = Spy(repairer)
    out, report_text, _ = streamed(path, spy, chunk_chars=500)
    assert "".join(spy.texts) == line and all(len(t) <= 500 for t in spy.texts)
    k = stream.PLAIN_MARGIN
    pos = 0
    for t in spy.texts[:-1]:
        pos += len(t)
        around = line[pos - k : pos + k]
        # between ordinary Han characters, or (in the Latin tail) at the full width
        assert all(stream._plain(c) for c in around) or len(t) == 500, around
    output = out.decode("utf-8")
    assert output == line.replace("&#x5B78;", "學")
    assert rebuild_input(output, json.loads(report_text)) == line


def _decoded(data: bytes, block: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[dict], dict[int, bytes], str]:
    monkeypatch.setattr(stream, "BLOCK", block)
    fh = io.BytesIO(data)
    decoding = stream.decode_file(fh, len(data), chunk_chars=97)
    text, raw = "", {}
    for piece, und in decoding.chunks:
        raw.update((len(text) + k, v) for k, v in und.items())
        text += piece
    return text, decoding.segments, raw, decoding.encoding


TRAD = "\n".join(SAYINGS) + "\n"
SIMP = "子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？\n其为人也孝弟，而好犯上者，鲜矣。\n" * 3
DECODE_CASES = {
    "utf-8": TRAD.encode() * 3,
    "utf-8 bom crlf": codecs.BOM_UTF8 + TRAD.replace("\n", "\r\n").encode() * 3,
    "carriage returns": TRAD.replace("\n", "\r").encode() * 3,
    "gbk": SIMP.encode("gbk"),
    "big5": TRAD.encode("big5") * 3,
    "utf-16 bom": codecs.BOM_UTF16_LE + TRAD.encode("utf-16-le") * 2,
    "utf-16 no bom": ("abc, def: ghi.\n" * 40).encode("utf-16-le"),
    "mixed": TRAD.encode() + SIMP.encode("gbk") + TRAD.encode(),
    "undecodable": TRAD.encode() + b"\xff\xfe" + TRAD.encode() + b"\x80",
    "long gbk line": SIMP.encode("gbk") + SIMP.replace("\n", "").encode("gbk") + b"\n" + SIMP.encode("gbk"),
    "long utf-8 line in gbk": SIMP.encode("gbk") + TRAD.replace("\n", "").encode() * 4 + b"\n" + SIMP.encode("gbk"),
    "long line with bad bytes": TRAD.replace("\n", "").encode() * 4 + b"\xff" + TRAD.replace("\n", "").encode() * 4,
}


@pytest.mark.parametrize("name", list(DECODE_CASES))
@pytest.mark.parametrize("block", [64, 1 << 20])
def test_decoding_in_pieces_gives_what_decode_bytes_gives(name: str, block: int, monkeypatch) -> None:
    data = DECODE_CASES[name]
    whole = decode_bytes(data)
    text, segments, raw, encoding = _decoded(data, block, monkeypatch)
    assert encoding == Repairer(model=None).repair_bytes(data).encoding
    # (With 64-byte blocks the last case is a line longer than a block that no codec reads,
    # decoded a block at a time: the same text here too.)
    assert text == whole.text
    assert segments == whole.segments
    assert raw == whole.undecodable


def test_binary_input_is_refused_as_repair_bytes_refuses_it(tmp_path: Path) -> None:
    path = write(tmp_path, b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    with pytest.raises(BinaryInputError, match="PNG"):
        streamed(path, Repairer(model=None), chunk_chars=100)


def test_report_head_reads_all_but_the_edits(tmp_path: Path) -> None:
    report = build_report(
        Repairer(model=None).repair_text("子曰&#x5B78;而時習之⼈\n"),
        input_path="a",
        output_path="b",
        input_bytes=None,
        settings={"edits": 1},
    )
    path = write(tmp_path, dumps(report).encode(), "r.json")
    assert stream.report_head(path) == {k: v for k, v in report.items() if k != "edits"}
    write(tmp_path, json.dumps(report).encode(), "r.json")  # another layout: read whole
    assert stream.report_head(path) == report


# --- in a batch ------------------------------------------------------------------------------


def plan_for(out: Path, **kw) -> batch.Plan:
    return batch.Plan(out, out / "_repair_reports", **{"stream_bytes": 100, "chunk_chars": 200, **kw})


def run_batch(src: Path, plan: batch.Plan, repairer) -> list[batch.Outcome]:
    jobs, errors = batch.collect_inputs((str(src),), True, backup_suffix=plan.backup_suffix if plan.in_place else None)
    assert not errors
    return batch.run(jobs, plan, repairer, workers=1)


def leftovers(*folders: Path) -> list[Path]:
    return [p for f in folders if f.exists() for p in f.rglob("*.tmp")]


def test_a_batch_streams_large_files_and_writes_what_it_writes_for_small_ones(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    text = "\n".join(damaged_lines()) + "\n"
    (src / "a.txt").write_text(text, encoding="utf-8")
    r = Repairer(model=None)
    whole, chunked = tmp_path / "whole", tmp_path / "chunked"
    run_batch(src, plan_for(whole, stream_bytes=1 << 30), r)
    (o,) = run_batch(src, plan_for(chunked), r)
    assert o.status == "repaired" and o.chars == len(text)
    assert (chunked / "a.txt").read_bytes() == (whole / "a.txt").read_bytes()
    reports = [json.loads((d / "_repair_reports" / "a.txt.report.json").read_text("utf-8")) for d in (whole, chunked)]
    for r_ in reports:
        r_["output"]["path"] = None
    assert reports[0] == reports[1]
    page = (chunked / "_repair_reports" / "html" / "a.txt.html").read_text("utf-8")
    assert "repair report: the first " in page and f" of {reports[1]['output']['chars']:,} characters" in page
    # A re-run finds it up to date (its report read without its edits).
    (again,) = run_batch(src, plan_for(chunked), r)
    assert again.status == "skipped" and again.row["applied"] == o.row["applied"]
    assert leftovers(chunked) == []


def test_in_place_keeps_the_original(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    original = ("\n".join(damaged_lines()) + "\n").encode()
    (src / "a.txt").write_bytes(original)
    r = Repairer(model=None)
    plan = batch.Plan(None, src / "_repair_reports", in_place=True, stream_bytes=100, chunk_chars=200)
    (o,) = run_batch(src, plan, r)
    assert o.status == "repaired"
    assert (src / "a.txt.orig").read_bytes() == original
    assert "&#x" not in (src / "a.txt").read_text("utf-8")
    clean = (src / "a.txt").read_bytes()
    (again,) = run_batch(src, plan, r)
    assert again.status == "skipped" and (src / "a.txt").read_bytes() == clean


class FailsAt:
    """Repairs until the ``n``-th chunk, then fails as a bug would."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0
        self.repairer = Repairer(model=None)

    def __getattr__(self, name: str):
        return getattr(self.repairer, name)

    def repair_text(self, text: str):
        self.calls += 1
        if self.calls == self.n:
            raise RuntimeError("boom")
        return self.repairer.repair_text(text)


def one_damaged_file(tmp_path: Path) -> tuple[Path, batch.Plan, batch.Job]:
    """A batch of one file of damaged lines: its output folder, plan and job."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("\n".join(damaged_lines()) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    return out, plan_for(out), batch.Job(src / "a.txt", Path("a.txt"))


def test_no_partial_output_on_error(tmp_path: Path) -> None:
    out, plan, job = one_damaged_file(tmp_path)
    # An earlier output stays as it was: the new one replaces it whole or not at all.
    (out / "_repair_reports").mkdir(parents=True)
    (out / "a.txt").write_bytes(b"earlier")
    fails = FailsAt(3)
    o = batch.clean_one(job, plan, ("fp", ""), fails)
    assert fails.calls == 3
    assert o.status == "failed" and "boom" in o.error
    assert (out / "a.txt").read_bytes() == b"earlier"
    assert not plan.report_path(job).exists()
    assert not (out / "_repair_reports" / "html" / "a.txt.html").exists()
    assert leftovers(out) == []


def test_no_output_without_its_report_when_the_output_cannot_be_written(tmp_path: Path) -> None:
    out, plan, job = one_damaged_file(tmp_path)
    (out / "a.txt").mkdir(parents=True)  # a folder where the output goes: the rename fails
    o = batch.clean_one(job, plan, ("fp", ""), Repairer(model=None))
    assert o.status == "failed" and "cannot write output" in o.error
    assert not plan.report_path(job).exists()
    assert not (out / "_repair_reports" / "html" / "a.txt.html").exists()
    assert leftovers(out) == []


def test_a_large_file_over_the_time_bound_gets_its_exact_repairs(tmp_path: Path) -> None:
    import random

    rng = random.Random(0)
    chars: list[str] = []
    while len(chars) < 3000:
        data = bytes([rng.randrange(0xB0, 0xF8), rng.randrange(0xA1, 0xFF)])
        try:
            chars.append(data.decode("gbk"))
        except UnicodeDecodeError:
            continue
    garbled = "".join(chars).encode("gbk").decode("big5", errors="replace")  # slow to search
    src = tmp_path / "in"
    src.mkdir()
    (src / "slow.txt").write_text("子曰&#x5B78;而時習之⼈\n" + garbled + "\n", encoding="utf-8")
    out = tmp_path / "out"
    (o,) = run_batch(src, plan_for(out, max_seconds=0.3, chunk_chars=1000), Repairer())
    assert o.status == "timed_out"
    first, rest = (out / "slow.txt").read_text(encoding="utf-8").split("\n", 1)
    assert first == "子曰學而時習之人" and rest == garbled + "\n"
    report = json.loads((out / "_repair_reports" / "slow.txt.report.json").read_text(encoding="utf-8"))
    assert report["settings"]["timed_out_after_seconds"] == 0.3
    assert report["settings"]["fingerprint"].endswith(":timed-out")
    assert leftovers(out) == []


# --- the command line ------------------------------------------------------------------------


def test_the_commands_stream_a_large_file_and_print_what_they_print_for_a_small_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from repair.cli import main

    src = tmp_path / "in"
    src.mkdir()
    text = "\n".join(damaged_lines()) + "\n"
    (src / "a.txt").write_text(text, encoding="utf-8")
    runner = CliRunner()
    seen: dict[str, list] = {}
    calls: list[Path] = []
    real = stream.repair_file
    monkeypatch.setattr(stream, "repair_file", lambda path, *a, **kw: calls.append(path) or real(path, *a, **kw))
    for mode, threshold in (("whole", stream.STREAM_BYTES), ("streamed", 100)):
        monkeypatch.setattr(stream, "STREAM_BYTES", threshold)
        calls.clear()
        out = tmp_path / mode
        cleaned = runner.invoke(main, ["clean", "-q", "-r", str(src), "-o", str(out)])
        listed = runner.invoke(main, ["detect", str(src / "a.txt"), "--report-dir", str(tmp_path / f"{mode}-reports")])
        as_json = runner.invoke(main, ["detect", "--json", str(src / "a.txt")])
        assert [r.exit_code for r in (cleaned, listed, as_json)] == [0, 0, 0], cleaned.output + listed.output
        assert len(calls) == (3 if mode == "streamed" else 0)
        reports = [
            json.loads(p.read_text("utf-8"))
            for p in (out / "_repair_reports" / "a.txt.report.json", tmp_path / f"{mode}-reports" / "a.txt.report.json")
        ]
        reports[0]["output"]["path"] = None
        seen[mode] = [(out / "a.txt").read_bytes(), reports, listed.output, json.loads(as_json.output)]
    assert seen["streamed"] == seen["whole"]
    assert "escape" in seen["whole"][2] and seen["whole"][3]["edits"]


def test_a_large_file_in_a_batch_is_witnessed_but_witnesses_nothing(tmp_path: Path) -> None:
    """Batch witnesses: the other files' text fills a large file's gaps as a small file's; its own
    text is not indexed, since its repair sees one chunk as its own text and would take the
    other chunks for other copies."""
    src = tmp_path / "in"
    src.mkdir()
    a = "子曰：學而時□之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？\n"
    b = "子曰：學而時習之，不亦說乎？有朋自遠□來，不亦樂乎？人不知而不慍，不亦君子乎？\n"
    (src / "a.txt").write_text(a * 3, encoding="utf-8")  # above the threshold below
    (src / "b.txt").write_text(b, encoding="utf-8")
    lines = {}
    for mode, threshold in (("whole", None), ("streamed", 300)):
        out = tmp_path / mode
        outcomes = run_batch(src, plan_for(out, stream_bytes=threshold, chunk_chars=100), Repairer())
        assert [o.status for o in outcomes] == ["repaired", "repaired"]
        lines[mode] = [(out / name).read_text("utf-8").splitlines()[0] for name in ("a.txt", "b.txt")]
    clean = a.replace("□", "習").strip()
    assert lines["whole"] == [clean, clean]
    assert lines["streamed"] == [clean, b.strip()]
