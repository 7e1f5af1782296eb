"""The HTML reports: exact text and marks (parsed), escaping, no network, and the page working in a real browser.

The browser tests drive Debian's chromium through playwright.  Without either
they are skipped, unless REPAIR_REQUIRE_BROWSER=1 (as in CI), where a missing
browser is a failure.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from repair import Repairer, repair_bytes
from repair.families import FAMILY_KINDS
from repair.html_report import render_file, render_index, write_html_reports
from repair.report import build_report

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "samples" / "repaired" / "_repair_reports"
REPORT_FILES = sorted(REPORTS.glob("*.report.json"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NETWORK = re.compile(r"https?:|//cdn|<link\b|\bsrc\s*=|@import|url\(", re.IGNORECASE)


def load(path: Path) -> tuple[dict[str, Any], str]:
    """A committed report and the committed output text it describes."""
    report = json.loads(path.read_text(encoding="utf-8"))
    output = (ROOT / report["output"]["path"]).read_text(encoding="utf-8")
    assert len(output) == report["output"]["chars"]
    return report, output


VOID = frozenset({"meta", "input", "br", "img", "link", "hr", "wbr", "area", "base", "col", "embed", "source", "track"})


class Page(HTMLParser):
    """What a rendered page holds: marks, the text area's text, links, scripts and tags."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.marks: list[dict[str, str]] = []
        self.mark_text: dict[str, str] = {}
        self.text = ""
        self.links: list[str] = []
        self.scripts: list[tuple[dict[str, str], str]] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.in_text = 0  # depth inside <div id="text">, 0 outside
        self.open_marks: list[str] = []
        self.feed(html)
        self.close()
        assert not self.stack, f"unclosed elements: {self.stack}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag in VOID:
            return
        if self.in_text:
            assert tag == "mark", f"only marks belong in the text area, found <{tag}>"
            self.marks.append(a)
            self.open_marks.append(a["data-id"])
            self.mark_text[a["data-id"]] = ""
            self.in_text += 1
        elif a.get("id") == "text":
            self.in_text = 1
        self.stack.append((tag, a))
        if tag == "script":
            self.scripts.append((a, ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack and self.stack[-1][0] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if self.in_text:
            self.in_text -= 1
            if tag == "mark":
                self.open_marks.pop()

    def handle_data(self, data: str) -> None:
        if self.in_text:
            self.text += data
            for mark_id in self.open_marks:
                self.mark_text[mark_id] += data
        if self.stack and self.stack[-1][0] == "script":
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)

    def edit_data(self) -> list[dict[str, Any]]:
        (body,) = [b for a, b in self.scripts if a.get("id") == "edit-data"]
        return json.loads(body)


@pytest.fixture(params=REPORT_FILES, ids=[p.name.split(".")[0] for p in REPORT_FILES])
def sample(request: pytest.FixtureRequest) -> tuple[dict[str, Any], str]:
    return load(request.param)


def test_samples_cover_applied_marked_and_empty_spans() -> None:
    """The committed samples exercise what the page must show; if they stop doing so, the tests below go weak."""
    edits = [e for p in REPORT_FILES for e in load(p)[0]["edits"]]
    assert len(REPORT_FILES) >= 3
    assert {e["applied"] for e in edits} == {True, False}
    assert len({e["kind"] for e in edits}) >= 4
    assert any(e["out_start"] == e["out_end"] for e in edits)


def test_one_mark_per_edit(sample: tuple[dict[str, Any], str]) -> None:
    report, output = sample
    page = Page(render_file(report, output))
    assert len(page.marks) == len(report["edits"])
    by_id = {m["data-id"]: m for m in page.marks}
    assert len(by_id) == len(page.marks)
    for e in report["edits"]:
        m = by_id[str(e["id"])]
        assert m["data-kind"] == e["kind"]
        assert m["data-applied"] == ("1" if e["applied"] else "0")
        assert float(m["data-confidence"]) == e["confidence"]
        assert e["kind"] in m["title"] and f"{e['confidence']:.3f}" in m["title"]
        # the mark covers exactly the edit's span of the output text
        assert page.mark_text[str(e["id"])] == output[e["out_start"] : e["out_end"]]
        if e["out_start"] == e["out_end"]:
            assert "blank" in m["class"].split()


def test_text_area_is_the_output_text(sample: tuple[dict[str, Any], str]) -> None:
    report, output = sample
    page = Page(render_file(report, output))
    assert page.text == output
    assert page.text.count("\n") == output.count("\n") > 0


def test_header_counts_and_filters_per_family(sample: tuple[dict[str, Any], str]) -> None:
    report, output = sample
    html = render_file(report, output)
    page = Page(html)
    kinds = {e["kind"] for e in report["edits"]}
    boxes = {a["data-filter-kind"] for tag, a in page.tags if tag == "input" and "data-filter-kind" in a}
    assert boxes == kinds
    assert report["input"]["path"] in html and report["input"]["encoding"] in html
    rows = {a["data-kind"] for tag, a in page.tags if tag == "tr" and "data-kind" in a}
    assert rows == set(report["summary"]["detected"])
    slider = [a for tag, a in page.tags if tag == "input" and a.get("type") == "range"]
    assert len(slider) == 1 and slider[0]["min"] == "0" and slider[0]["max"] == "1"


@pytest.mark.parametrize(
    "data",
    [
        "子曰&#x5B78;而時習之，不亦說乎？\n⼈不知而不慍，不亦君子乎？\n學而??習之\ue000不亦說乎。\n"
        "學而時習之-abcshuwu.com\n有朋自遠方來。\n".encode(),
        b"\xef\xbb\xbf" + "第一行\r\n⼈之初&#x4E00;\r\n".encode(),
    ],
    ids=["families", "crlf"],
)
def test_fresh_reports(data: bytes) -> None:
    """Reports made now (more families, CR LF line ends) render to the exact output text, one mark per edit."""
    result = repair_bytes(data)
    report = build_report(result, input_path="in.txt", output_path="out.txt", input_bytes=data, settings={})
    assert report["edits"]
    page = Page(render_file(report, result.text))
    assert page.text == result.text
    assert sorted(m["data-id"] for m in page.marks) == sorted(str(e["id"]) for e in report["edits"])


def crafted() -> tuple[dict[str, Any], str]:
    """A report whose every string is hostile markup."""
    evil = "</script><script>alert(1)</script>"
    output = "a<b>&amp;\"'</div>" + "X" + "\r\nend"
    start = output.index("X")
    edit = {
        "id": 1,
        "kind": "question_mark",
        "applied": False,
        "confidence": 0.5,
        "start": start,
        "end": start + 1,
        "line": 1,
        "column": start + 1,
        "out_start": start,
        "out_end": start + 1,
        "out_line": 1,
        "out_column": start + 1,
        "before": evil + "&",
        "after": '"><img onerror=alert(2)>',
        "candidates": [{"text": evil, "score": -1.0, "source": "<b>&lt;"}],
        "note": "<!-- note & -->",
        "detail": {"x": evil},
    }
    report = {
        "input": {"path": "dir/<evil>&.txt", "encoding": 'utf-8"><script>', "encoding_segments": []},
        "output": {"path": "out/<evil>&.txt", "chars": len(output)},
        "summary": {"detected": {"question_mark": 1}, "applied": {}, "marked": {"question_mark": 1}},
        "edits": [edit],
    }
    return report, output


def test_escaping() -> None:
    report, output = crafted()
    html = render_file(report, output)
    assert "alert(1)</script>" not in html and "<img" not in html and "<b>" not in html and "<evil>" not in html
    page = Page(html)
    # exactly our two scripts: the data block and the page's code
    assert [a.get("type") for a, _ in page.scripts] == ["application/json", None]
    assert not [t for t, _ in page.tags if t in ("img", "b", "evil")]
    assert page.text == output  # including the CR, which a browser would otherwise turn into LF
    (data,) = page.edit_data()
    edit = report["edits"][0]
    for key in ("before", "after", "note"):
        assert data[key] == edit[key]
    assert [{k: c[k] for k in ("text", "score", "source")} for c in data["candidates"]] == edit["candidates"]
    assert data["candidates"][0]["evidence"] == edit["candidates"][0]["source"]
    assert data["detail"] == edit["detail"]
    (mark,) = page.marks
    # Left marked, the tip names the best candidate as a question, not the unchanged text.
    shown = edit["after"] if edit["applied"] else edit["candidates"][0]["text"] + "?"
    assert mark["title"].startswith(f"#1 question_mark: {edit['before']} → {shown}")


def test_no_network_references(tmp_path: Path) -> None:
    items = [(r, o, Path(r["output"]["path"]).name) for r, o in map(load, REPORT_FILES)]
    summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
    write_html_reports(tmp_path, items, summary)
    pages = sorted((tmp_path / "html").rglob("*.html"))
    assert len(pages) == len(items) + 1
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert '<meta charset="utf-8">' in html
        assert not NETWORK.findall(html), path
        for tag, attrs in Page(html).tags:
            assert tag not in ("link", "iframe", "img", "object", "embed"), (path, tag)
            assert "src" not in attrs, (path, tag)
    page = render_file(*crafted())
    assert not NETWORK.findall(page)


def test_index_links_every_page(tmp_path: Path) -> None:
    items = [(r, o, Path(r["output"]["path"]).name) for r, o in map(load, REPORT_FILES)]
    # a nested name and a name with characters that need percent-encoding in a link
    report, output = load(REPORT_FILES[0])
    report = json.loads(json.dumps(report))
    report["input"]["path"] = "samples/seeds/子 dir/#1 論語.txt"
    items.append((report, output, "子 dir/#1 論語.txt"))
    summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
    summary["files"].append({**summary["files"][0], "input": report["input"]["path"]})
    write_html_reports(tmp_path, items, summary)
    html_dir = tmp_path / "html"
    index = Page((html_dir / "index.html").read_text(encoding="utf-8"))
    assert len(index.links) == len(items)
    for href, (_, _, name) in zip(index.links, items, strict=True):
        target = html_dir / unquote(href)
        assert target == html_dir / f"{name}.html" and target.is_file()
        back = [h for h in Page(target.read_text(encoding="utf-8")).links if h.endswith("index.html")]
        assert back and (target.parent / back[0]).resolve() == (html_dir / "index.html").resolve()
    rows = [a["data-name"] for t, a in index.tags if t == "tr" and "data-name" in a]
    assert rows == [f["input"] for f in summary["files"]]


def test_index_totals() -> None:
    summary = {
        "files": [
            {
                "input": "a.txt",
                "output": "o/a.txt",
                "encoding": "gbk",
                "detected": {"junk": 2, "escape": 1},
                "applied": {"junk": 2},
                "marked": {"escape": 1},
                "seconds": 0.5,
            },
            {
                "input": "b<&>.txt",
                "output": "o/b.txt",
                "encoding": "utf-8",
                "detected": {"junk": 3},
                "applied": {"junk": 1},
                "marked": {"junk": 2},
            },
        ],
        "failed": 2,
    }
    html = render_index(summary, [("a.txt", "a.txt.html"), ("b<&>.txt", "b%3C%26%3E.txt.html")])
    assert "b<&>" not in html and "b&lt;&amp;&gt;.txt" in html
    assert "2 failed" in html
    total = html[html.index('<tr class="total">') :]
    total = total[: total.index("</tr>")]
    cells = [re.sub(r"<wbr>", "", c) for c in re.findall(r"<td[^>]*>((?:[^<]|<wbr>)*)</td>", total)]
    # files, encoding, junk and escape (applied/left marked), total, applied, left marked, seconds
    assert cells == ["2 files", "", "3/2", "0/1", "6", "3", "3", "0.50"]
    rows = re.findall(r'<tr class="file".*?</tr>', html)
    totals = [re.findall(r'<td class="num sum" data-sort="(\d+)">(\d+)</td>', r) for r in rows]
    assert totals == [[("3", "3")], [("3", "3")]]


@pytest.mark.parametrize("name", ["../x.txt", "/etc/x.txt", "a/../../x.txt", ""])
def test_page_names_stay_inside_the_report_folder(tmp_path: Path, name: str) -> None:
    report, output = load(REPORT_FILES[0])
    with pytest.raises(ValueError):
        write_html_reports(tmp_path, [(report, output, name)], {"files": [], "failed": 0})


# --- in a real browser -------------------------------------------------------------------------------------------


def require_browser() -> None:
    problem = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as err:
        problem = f"playwright is not installed ({err}); pip install playwright"
    if problem is None and not os.access(CHROMIUM, os.X_OK):
        problem = f"{CHROMIUM} not found; apt-get install chromium"
    if problem:
        if os.environ.get("REPAIR_REQUIRE_BROWSER") == "1":
            pytest.fail(problem)
        pytest.skip(problem)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    items = [(r, o, Path(r["output"]["path"]).name) for r, o in map(load, REPORT_FILES)]
    summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
    write_html_reports(root, items, summary)
    return root / "html"


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("request", lambda req: req.url.startswith("file:") or errors.append(f"request {req.url}"))
    try:
        yield page
        assert not errors, errors
    finally:
        context.close()


def open_page(tab: Any, site: Path, report_path: Path) -> tuple[dict[str, Any], str]:
    report, output = load(report_path)
    tab.goto((site / f"{Path(report['output']['path']).name}.html").as_uri())
    return report, output


# Each mark: is it highlighted (state), does it show (box), and its full computed look.
MARK_STATE = """() => Array.from(document.querySelectorAll('#text mark.edit')).map(m => {
  const s = getComputedStyle(m), r = m.getBoundingClientRect();
  return {id: Number(m.dataset.id), kind: m.dataset.kind, off: m.classList.contains('off'),
          bg: s.backgroundColor, outline: s.outlineStyle, outlineColor: s.outlineColor,
          shown: r.width > 0 && r.height > 0 && s.display !== 'none' && s.visibility === 'visible'};
})"""
TRANSPARENT = "rgba(0, 0, 0, 0)"


def highlighted(m: dict[str, Any]) -> bool:
    return m["shown"] and (m["bg"] != TRANSPARENT or m["outline"] != "none")


def plain(m: dict[str, Any]) -> bool:
    return m["off"] and m["bg"] == TRANSPARENT and m["outline"] == "none"


@pytest.mark.parametrize("report_path", REPORT_FILES, ids=[p.name.split(".")[0] for p in REPORT_FILES])
def test_browser_every_edit_highlighted(tab: Any, site: Path, report_path: Path) -> None:
    report, output = open_page(tab, site, report_path)
    marks = tab.evaluate(MARK_STATE)
    assert sorted(m["id"] for m in marks) == sorted(e["id"] for e in report["edits"])
    assert all(highlighted(m) and not m["off"] for m in marks), [m for m in marks if not highlighted(m)]
    # the browser's parse of the text area is the output text, character for character
    assert tab.evaluate("() => document.getElementById('text').textContent") == output
    n = len(report["edits"])
    assert tab.locator("#visible-count").inner_text() == f"{n} of {n} edits highlighted"


def test_browser_family_checkbox(tab: Any, site: Path) -> None:
    report, _ = open_page(tab, site, REPORT_FILES[1])
    kinds = sorted({e["kind"] for e in report["edits"]})
    assert len(kinds) >= 3
    before = {m["id"]: m for m in tab.evaluate(MARK_STATE)}
    for kind in kinds:
        box = tab.locator(f'input[data-filter-kind="{kind}"]')
        box.uncheck()
        after = {m["id"]: m for m in tab.evaluate(MARK_STATE)}
        for i, m in after.items():
            if m["kind"] == kind:
                assert plain(m), m
            else:
                assert m == before[i]
        left = sum(1 for e in report["edits"] if e["kind"] != kind)
        assert tab.locator("#visible-count").inner_text().startswith(f"{left} of ")
        box.check()
        assert {m["id"]: m for m in tab.evaluate(MARK_STATE)} == before


def test_browser_applied_and_marked_toggles(tab: Any, site: Path) -> None:
    report, _ = open_page(tab, site, REPORT_FILES[2])
    applied = {e["id"] for e in report["edits"] if e["applied"]}
    assert applied and applied != {e["id"] for e in report["edits"]}
    tab.locator("#show-marked").uncheck()
    assert {m["id"] for m in tab.evaluate(MARK_STATE) if not m["off"]} == applied
    tab.locator("#show-marked").check()
    tab.locator("#show-applied").uncheck()
    marks = tab.evaluate(MARK_STATE)
    assert {m["id"] for m in marks if plain(m)} == applied
    assert all(highlighted(m) for m in marks if m["id"] not in applied)


@pytest.mark.parametrize("threshold", ["0.95", "0.6"])
def test_browser_confidence_slider(tab: Any, site: Path, threshold: str) -> None:
    report, _ = open_page(tab, site, REPORT_FILES[1])
    low = {e["id"] for e in report["edits"] if e["confidence"] < float(threshold)}
    assert low and low != {e["id"] for e in report["edits"]}
    tab.locator("#min-confidence").fill(threshold)
    marks = tab.evaluate(MARK_STATE)
    assert {m["id"] for m in marks if plain(m)} == low
    assert all(highlighted(m) for m in marks if m["id"] not in low)
    shown = len(report["edits"]) - len(low)
    assert tab.locator("#visible-count").inner_text() == f"{shown} of {len(report['edits'])} edits highlighted"
    assert tab.locator("#min-confidence-value").inner_text() == f"{float(threshold):.2f}"


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots of each view go: $REPAIR_SCREENSHOT_DIR (kept by CI), else $REPAIR_ARTIFACTS, else a
    temporary folder."""
    named = os.environ.get("REPAIR_SCREENSHOT_DIR") or os.environ.get("REPAIR_ARTIFACTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(tab: Any, folder: Path, name: str, full_page: bool = False) -> Path:
    out = folder / name
    tab.screenshot(path=str(out), full_page=full_page)
    assert out.is_file() and out.stat().st_size > 10_000
    return out


def test_browser_click_shows_details(tab: Any, site: Path, shots: Path) -> None:
    report, _ = open_page(tab, site, REPORT_FILES[1])
    panel = tab.locator("#details")
    assert panel.is_hidden()
    edits = report["edits"]
    with_candidates = next(e for e in edits if e["kind"] == "foreign_symbol" and len(e["candidates"]) > 1)
    deletion = next(e for e in edits if e["out_start"] == e["out_end"])
    first = next(e for e in edits if e["candidates"] and not e["applied"])
    for e in (with_candidates, deletion, first):
        tab.locator(f'#text mark[data-id="{e["id"]}"]').click()
        assert panel.is_visible()
        assert panel.get_attribute("data-id") == str(e["id"])
        assert tab.locator("#details-title").inner_text() == f"Edit #{e['id']}"
        assert tab.locator('#details [data-field="kind"]').inner_text() == e["kind"]
        assert tab.locator('#details [data-field="confidence"]').inner_text() == f"{e['confidence']:.3f}"
        before = tab.locator('#details [data-field="before"] .snippet').inner_text()
        assert before == (e["before"].replace("\n", "⏎\n") if e["before"] else "∅ (nothing)")
        # the notes' "p=" is the confidence: the panel names it so
        note = e["note"].replace(" at p=", " with confidence ").replace("(p=", "(confidence ")
        assert tab.locator('#details [data-field="note"]').inner_text() == (note or "—")
        assert "p=" not in tab.locator("#details").inner_text()
        cells = tab.locator("#details table.cands td.text").all_inner_texts()
        assert cells == [c["text"] or "∅ (nothing)" for c in e["candidates"]]
    # the state a reviewer sees: top of the file, a left-marked edit open with its candidates
    tab.set_viewport_size({"width": 1280, "height": 1100})
    tab.evaluate("() => window.scrollTo(0, 0)")
    screenshot(tab, shots, "html-report.png")
    tab.locator("#details-close").click()
    assert panel.is_hidden()


def test_browser_index_filter_and_links(tab: Any, site: Path) -> None:
    tab.goto((site / "index.html").as_uri())
    rows = tab.locator("tbody tr.file")
    assert rows.count() == len(REPORT_FILES)
    tab.locator("#file-filter").fill("002_")
    assert [r.is_visible() for r in rows.all()] == ["002_" in p.name for p in REPORT_FILES]
    assert tab.locator("#visible-files").inner_text() == f"1 of {len(REPORT_FILES)} files"
    tab.locator("tbody tr.file a").filter(visible=True).click()
    tab.wait_for_load_state()
    assert tab.url.endswith("002_4bbfd19a2d3147c5.txt.html")
    assert tab.locator("#text mark.edit").count() == len(load(REPORT_FILES[2])[0]["edits"])
    tab.get_by_role("link", name="all files").click()
    tab.wait_for_load_state()
    assert tab.url.endswith("/index.html")


def test_browser_hostile_report(tab: Any, tmp_path: Path) -> None:
    """Markup in the text and the report stays text in a real parser: no script runs, CR LF survives."""
    report, output = crafted()
    dialogs: list[str] = []
    tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    path = tmp_path / "evil.html"
    path.write_text(render_file(report, output), encoding="utf-8")
    tab.goto(path.as_uri())
    assert tab.evaluate("() => document.getElementById('text').textContent") == output
    assert tab.locator("script").count() == 2 and tab.locator("img, b, evil").count() == 0
    tab.locator("#text mark.edit").click()
    assert tab.locator('#details [data-field="before"] .snippet').inner_text() == report["edits"][0]["before"]
    assert tab.locator("#details table.cands td.text").all_inner_texts() == [report["edits"][0]["before"][:-1]]
    assert not dialogs


# --- the side-by-side view, the panel's figures, the index's chart (parsed) ----------------------------------------


class SideBySide(HTMLParser):
    """The rows of the side-by-side table: per side its line number, text and the edits marked in it."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[dict[str, Any]] = []
        self.cell: dict[str, Any] | None = None
        self.in_body = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "table" and "sbs" in a.get("class", "").split():
            self.in_body = False
        elif tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr" and "data-left-line" in a:
            self.rows.append({"attrs": a, "cells": []})
        elif self.in_body and tag == "td" and self.rows:
            classes = a.get("class", "").split()
            self.cell = {"classes": classes, "text": "", "marks": []}
            self.rows[-1]["cells"].append(self.cell)
        elif tag == "mark" and self.cell is not None:
            self.cell["marks"].append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.cell = None
        elif tag == "tbody":
            self.in_body = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell["text"] += data

    def sides(self) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
        """(row attributes, left cell, right cell) per row."""
        out = []
        for r in self.rows:
            ln_l, left, ln_r, right = r["cells"]
            assert "src" in left["classes"] and "dst" in right["classes"]
            assert ln_l["text"] == r["attrs"]["data-left-line"] and ln_r["text"] == r["attrs"]["data-right-line"]
            out.append((r["attrs"], left, right))
        return out


def lines(text: str) -> list[str]:
    """A text's lines as the view numbers them (no empty line after a final line break)."""
    parts = text.split("\n")
    return parts[:-1] if len(parts) > 1 and parts[-1] == "" else parts


def check_side_by_side(report: dict[str, Any], output: str) -> list[tuple[dict[str, Any], dict[str, Any], dict]]:
    """Each row's left cell is line N of the original, its right cell line M of the output, both in order; text
    outside the edits is the same on both sides of a row; every edit is marked on both sides."""
    from repair.report import rebuild_input

    original = rebuild_input(output, report)
    rows = SideBySide(render_file(report, output)).sides()
    left = [(int(a["data-left-line"]), c["text"]) for a, c, _ in rows if a["data-left-line"]]
    right = [(int(a["data-right-line"]), c["text"]) for a, _, c in rows if a["data-right-line"]]
    assert left == list(enumerate(lines(original), 1))
    assert right == list(enumerate(lines(output), 1))
    for a, lc, rc in rows:
        if not lc["marks"] and not rc["marks"]:  # an unedited line: the same text on the same row
            assert lc["text"] == rc["text"] and "changed" not in a.get("class", ""), a
        else:
            assert a.get("class") == "changed"
    ids = {str(e["id"]) for e in report["edits"]}
    assert {m["data-id"] for _, c, _ in rows for m in c["marks"]} == ids
    assert {m["data-id"] for _, _, c in rows for m in c["marks"]} == ids
    return rows


def test_side_by_side_rows_are_the_lines(sample: tuple[dict[str, Any], str]) -> None:
    report, output = sample
    rows = check_side_by_side(report, output)
    if all(e["before"].count("\n") == e["after"].count("\n") for e in report["edits"]):
        # no edit adds or removes a line: row i holds line i on both sides
        assert [(a["data-left-line"], a["data-right-line"]) for a, _, _ in rows] == [
            (str(i), str(i)) for i in range(1, len(rows) + 1)
        ]


def test_side_by_side_pads_a_removed_line() -> None:
    """Junk removed with its line: the original's line faces an empty cell, and the lines after it still pair up."""
    report, output = load(REPORT_FILES[0])
    junk = report["edits"][0]
    assert junk["kind"] == "junk" and junk["before"].count("\n") == 2 and junk["after"] == ""
    rows = check_side_by_side(report, output)
    # the two removed lines face empty cells; the line after them faces its copy, output line 1
    assert [a["data-left-line"] for a, _, _ in rows[:3]] == ["1", "2", "3"]
    assert [a["data-right-line"] for a, _, _ in rows[:3]] == ["", "", "1"]
    assert all("filler" in r[2]["classes"] and r[2]["text"] == "" for r in rows[:2])
    assert rows[2][1]["text"] == rows[2][2]["text"] == output.split("\n")[0]
    # and from there on, input line N + 2 faces output line N
    assert all(int(a["data-left-line"]) == int(a["data-right-line"]) + 2 for a, _, _ in rows[2:])


@pytest.mark.parametrize(
    ("output", "edit"),
    [
        # from abX⏎Y⏎Zcd…: a span across two line breaks on the left, none on the right
        ("abxcd\nef\r\ngh\n", {"out_start": 2, "out_end": 3, "before": "X\nY\nZ", "after": "x", "applied": True}),
        # from abQcd…: a line added on the right
        ("ab1\n2cd\nef\r\ngh\n", {"out_start": 2, "out_end": 5, "before": "Q", "after": "1\n2", "applied": True}),
        # an empty span left marked, and no final line break
        ("abQcd\nef\r\ngh", {"out_start": 4, "out_end": 4, "before": "", "after": "", "applied": False}),
    ],
    ids=["lines-removed", "line-added", "empty-span"],
)
def test_side_by_side_handmade(output: str, edit: dict[str, Any]) -> None:
    e = {"id": 7, "kind": "junk", "confidence": 1.0, "start": 0, "end": 0, "candidates": [], "slots": [], **edit}
    report = {"input": {"path": "a.txt"}, "output": {"path": "b.txt"}, "edits": [e]}
    rows = check_side_by_side(report, output)
    lines_changed = edit["before"].count("\n") - edit["after"].count("\n")
    fillers = sum(1 for _, lc, rc in rows for c in (lc, rc) if "filler" in c["classes"])
    assert fillers == abs(lines_changed)


def panel_data(report: dict[str, Any], output: str) -> dict[int, dict[str, Any]]:
    return {d["id"]: d for d in Page(render_file(report, output)).edit_data()}


def test_panel_names_each_figure() -> None:
    """The notes' "p=" (a calibrated confidence) is named so; each candidate's model probability is its own field."""
    report, output = load(REPORT_FILES[1])
    data = panel_data(report, output)
    edit = next(e for e in report["edits"] if e["note"].startswith("left marked: best candidate"))
    d = data[edit["id"]]
    conf = re.search(r"p=([0-9.]+)", edit["note"]).group(1)
    assert d["note"] == f"left marked: best candidate {edit['candidates'][0]['text']} with confidence {conf}"
    assert f"{d['confidence']:.3f}" == conf and "calibrated" in d["confidence_meaning"]
    for c, shown in zip(edit["candidates"], d["candidates"], strict=True):
        assert c["source"].startswith("lm p=")
        assert shown["probability"] == float(c["source"][len("lm p=") :]) and shown["evidence"] == "language model"
    # the figures differ, which is what confused readers: both are shown, under different names
    assert d["candidates"][0]["probability"] != d["confidence"]
    junk = next(e for e in report["edits"] if e["kind"] == "junk")
    assert "calibrated" not in data[junk["id"]]["confidence_meaning"]
    assert not any("p=" in d["note"] for d in data.values())


VARIANT_LINE = "子曰學而時習之不亦說乎有朋自?方來不亦樂乎\n"


@pytest.fixture(scope="module")
def variant_fill() -> tuple[dict[str, Any], str]:
    """A ? from a conversion to Big5, filled with the variant 逺: the standard 遠 is in Big5, so it was never lost."""
    data = VARIANT_LINE.encode("big5")
    result = repair_bytes(data)
    report = build_report(result, input_path="lunyu.txt", output_path="out/lunyu.txt", input_bytes=data, settings={})
    return report, result.text


def test_panel_says_why_a_variant_was_written(variant_fill: tuple[dict[str, Any], str]) -> None:
    report, output = variant_fill
    (edit,) = report["edits"]
    assert edit["kind"] == "question_mark" and edit["detail"]["channel"] == "outside the code page"
    best = edit["after"] if edit["applied"] else edit["candidates"][0]["text"]
    assert best == "逺"
    (d,) = panel_data(report, output).values()
    assert d["code_page"] == "Big5" and d["channel"] == "outside the code page"
    assert "could not encode" in d["why_form"] and "Big5 lacks" in d["why_form"] and best in d["why_form"]
    # A ? that is not a code page's loss (the page was refuted, or a placeholder) gets no such reason.
    other = json.loads(json.dumps(report))
    other["edits"][0]["detail"]["channel"] = "any character"
    (d,) = panel_data(other, output).values()
    assert d["why_form"] == "" and d["code_page"] == ""


def index_of(site_summary: dict[str, Any]) -> str:
    return render_index(site_summary, [(f["input"], f"{i}.html") for i, f in enumerate(site_summary["files"])])


def test_index_chart_counts() -> None:
    summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
    html = index_of(summary)
    bars = {a["data-kind"]: a for t, a in Page(html).tags if t == "div" and "bar-row" in a.get("class", "")}
    want: Counter[str] = Counter()
    for f in summary["files"]:
        want.update(f["detected"])
    assert {k: int(a["data-count"]) for k, a in bars.items()} == dict(want)
    for k, a in bars.items():
        applied = sum(f["applied"].get(k, 0) for f in summary["files"])
        assert int(a["data-applied"]) == applied and int(a["data-marked"]) == want[k] - applied
    heads = [a["data-kind"] for t, a in Page(html).tags if t == "th" and "data-kind" in a]
    assert heads == [k for k in FAMILY_KINDS if k in want]


# --- the new views in a real browser -------------------------------------------------------------------------------


def wide_summary() -> dict[str, Any]:
    """A batch with every family, four-digit counts and long nested names: the widest index there can be."""
    files = []
    for i in range(12):
        applied = {k: (i * 131 + j * 977) % 2000 for j, k in enumerate(FAMILY_KINDS)}
        marked = {k: (i * 71 + j * 313) % 1000 for j, k in enumerate(FAMILY_KINDS)}
        files.append(
            {
                "input": f"corpus/子部/儒家類/a rather long folder name/{i:03d}_禮記正義_卷第{i}_with_a_long_name.txt",
                "output": f"out/{i}.txt",
                "encoding": "gb18030",
                "detected": {k: applied[k] + marked[k] for k in FAMILY_KINDS},
                "applied": applied,
                "marked": marked,
                "seconds": 12.5 + i,
            }
        )
    return {"files": files, "failed": 1}


INDEX_FIT = """() => {
  const heads = Array.from(document.querySelectorAll('table.files thead th')).map(th => {
    const r = th.getBoundingClientRect();
    return {kind: th.dataset.kind || null, left: r.left, right: r.right, text: th.innerText};
  });
  return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, width: window.innerWidth,
          heads: heads};
}"""


@pytest.mark.parametrize("batch", ["samples", "every-family"])
def test_browser_index_fits_1400(browser: Any, site: Path, tmp_path: Path, shots: Path, batch: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        tab = context.new_page()
        if batch == "samples":
            url = (site / "index.html").as_uri()
            summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
        else:
            summary = wide_summary()
            path = tmp_path / "index.html"
            path.write_text(index_of(summary), encoding="utf-8")
            url = path.as_uri()
        tab.goto(url)
        fit = tab.evaluate(INDEX_FIT)
        assert fit["scroll"] <= fit["width"] == 1400 and fit["body"] <= fit["width"]
        present = {k for f in summary["files"] for k, v in f["detected"].items() if v}
        kinds = [h["kind"] for h in fit["heads"] if h["kind"]]
        assert set(kinds) == present
        # every head, the damage families' too, lies inside the window
        assert all(0 <= h["left"] < h["right"] <= fit["width"] for h in fit["heads"]), fit["heads"]
        assert [h["text"].strip(" ▲▼") for h in fit["heads"][-4:]] == ["total", "applied", "marked", "sec."]
        for kind in ("private_use", "foreign_symbol", "placeholder"):
            if kind in present:
                head = tab.locator(f'table.files th[data-kind="{kind}"]')
                assert head.is_visible() and kind in head.get_attribute("title")
        screenshot(tab, shots, f"html-index-{batch}.png", full_page=True)
    finally:
        context.close()


ROW_NAMES = "() => Array.from(document.querySelectorAll('tbody tr.file')).map(r => r.dataset.name)"


def test_browser_index_sorts_by_any_column(tab: Any, tmp_path: Path) -> None:
    summary = wide_summary()
    summary["files"][3]["seconds"] = "n/a"  # a file without a time sorts below every time
    path = tmp_path / "index.html"
    path.write_text(index_of(summary), encoding="utf-8")
    tab.set_viewport_size({"width": 1400, "height": 900})
    tab.goto(path.as_uri())
    files = summary["files"]
    names = [f["input"] for f in files]
    assert tab.evaluate(ROW_NAMES) == names

    def by(key: Any, reverse: bool) -> list[str]:
        return [f["input"] for f in sorted(files, key=key, reverse=reverse)]

    total = tab.locator("table.files thead th", has_text="total")
    total.click()
    assert tab.evaluate(ROW_NAMES) == by(lambda f: sum(f["detected"].values()), True)
    assert total.get_attribute("aria-sort") == "descending"
    total.click()
    assert tab.evaluate(ROW_NAMES) == by(lambda f: sum(f["detected"].values()), False)
    assert total.get_attribute("aria-sort") == "ascending"
    for kind in ("private_use", "question_mark", "junk"):
        tab.locator(f'table.files th[data-kind="{kind}"]').click()
        assert tab.evaluate(ROW_NAMES) == by(lambda f, k=kind: f["applied"][k] + f["marked"][k], True)
    tab.locator("table.files thead th", has_text="input").click()
    assert tab.evaluate(ROW_NAMES) == sorted(names)
    tab.locator("table.files thead th", has_text="sec.").click()
    secs = tab.evaluate(ROW_NAMES)
    assert secs[-1] == files[3]["input"]
    assert secs == by(lambda f: f["seconds"] if isinstance(f["seconds"], float) else -1.0, True)
    # the filter still works on sorted rows, and the links still go to their own pages
    tab.locator("#file-filter").fill("_卷第7_")
    assert tab.locator("tbody tr.file").filter(visible=True).count() == 1
    assert tab.locator("tbody tr.file a").filter(visible=True).get_attribute("href") == "7.html"


BARS = """() => Array.from(document.querySelectorAll('#summary .bar-row')).map(r => ({
  kind: r.dataset.kind, count: Number(r.dataset.count), text: r.querySelector('.bar-num b').innerText,
  applied: r.querySelector('.bar-a').getBoundingClientRect().width,
  marked: r.querySelector('.bar-m').getBoundingClientRect().width,
  full: r.querySelector('.bar').getBoundingClientRect().width,
  colour: getComputedStyle(r.querySelector('.bar-a')).backgroundColor}))"""


def test_browser_summary_chart(tab: Any, site: Path, shots: Path) -> None:
    tab.set_viewport_size({"width": 1400, "height": 900})
    tab.goto((site / "index.html").as_uri())
    summary = json.loads((REPORTS / "summary.json").read_text(encoding="utf-8"))
    applied: Counter[str] = Counter()
    marked: Counter[str] = Counter()
    for f in summary["files"]:
        applied.update(f["applied"])
        marked.update(f["marked"])
    bars = tab.evaluate(BARS)
    assert len(bars) == len(applied | marked)
    assert {b["kind"]: b["count"] for b in bars} == dict(applied + marked)
    assert all(b["text"] == str(b["count"]) for b in bars)
    assert [b["count"] for b in bars] == sorted((b["count"] for b in bars), reverse=True)
    top = bars[0]["count"]
    for b in bars:
        # drawn to scale: the applied and left-marked parts in proportion to the largest family's count
        assert abs(b["applied"] - b["full"] * applied[b["kind"]] / top) <= 1.5, b
        assert abs(b["marked"] - b["full"] * marked[b["kind"]] / top) <= 1.5, b
    assert len({b["colour"] for b in bars}) == len(bars)  # each family its own colour
    tab.locator("#summary").screenshot(path=str(shots / "html-index-summary.png"))
    assert (shots / "html-index-summary.png").stat().st_size > 5_000


SIDE_ROWS = """() => Array.from(document.querySelectorAll('#sbs tbody tr')).map(r => {
  const c = r.children, top = x => Math.round(x.getBoundingClientRect().top);
  return {left: r.dataset.leftLine, right: r.dataset.rightLine, src: c[1].textContent, dst: c[3].textContent,
          tops: [top(c[1]), top(c[3])], changed: r.classList.contains('changed'),
          marks: Array.from(r.querySelectorAll('mark.edit')).map(m => {
            const s = getComputedStyle(m);
            return {id: Number(m.dataset.id), side: m.closest('td').classList.contains('src') ? 'src' : 'dst',
                    text: m.textContent, title: m.title,
                    lit: s.backgroundColor !== 'rgba(0, 0, 0, 0)' || s.outlineStyle !== 'none'};
          })};
})"""


@pytest.mark.parametrize("index", [0, 2], ids=["junk-line-removed", "same-lines"])
def test_browser_side_by_side(tab: Any, site: Path, shots: Path, index: int) -> None:
    from repair.report import rebuild_input

    report, output = open_page(tab, site, REPORT_FILES[index])
    original = rebuild_input(output, report)
    assert tab.locator("#sbs").is_hidden() and tab.locator("#text").is_visible()
    tab.locator("#view-sbs").check()
    assert tab.locator("#sbs").is_visible() and tab.locator("#text").is_hidden()
    rows = tab.evaluate(SIDE_ROWS)
    src, dst = lines(original), lines(output)
    for i, r in enumerate(rows, 1):
        if r["left"]:
            assert r["src"] == src[int(r["left"]) - 1]
        if r["right"]:
            assert r["dst"] == dst[int(r["right"]) - 1]
        if index == 2:  # no edit adds or removes a line: row i is line i on both sides
            assert (r["left"], r["right"]) == (str(i), str(i))
        assert r["tops"][0] == r["tops"][1]  # the two sides of a row start at the same height
    assert [int(r["left"]) for r in rows if r["left"]] == list(range(1, len(src) + 1))
    assert [int(r["right"]) for r in rows if r["right"]] == list(range(1, len(dst) + 1))
    # every edit highlighted on both sides: the original's text on the left, the output's on the right
    marks = [m for r in rows for m in r["marks"]]
    assert all(m["lit"] for m in marks)
    for e in report["edits"]:
        mine = [m for m in marks if m["id"] == e["id"]]
        left = "\n".join(m["text"] for m in mine if m["side"] == "src")
        right = "\n".join(m["text"] for m in mine if m["side"] == "dst")
        assert left.replace("\n", "") == e["before"].replace("\n", "")
        assert right == output[e["out_start"] : e["out_end"]]
        assert all(f"#{e['id']} {e['kind']}" in m["title"] for m in mine)
        if len(e["candidates"]) > 1:  # the alternatives on hover
            assert all("alternatives: " + e["candidates"][1]["text"] in m["title"] for m in mine)
    assert {r["changed"] for r in rows if not r["marks"]} <= {False}
    # a click on either side opens that edit; the filters apply to this view too
    e = next(e for e in report["edits"] if e["candidates"])
    mark = tab.locator(f'#sbs td.src mark[data-id="{e["id"]}"]').first
    mark.scroll_into_view_if_needed()
    mark.click()
    assert tab.locator("#details").get_attribute("data-id") == str(e["id"])
    assert tab.locator(f'#sbs mark.selected[data-id="{e["id"]}"]').count() >= 2
    tab.set_viewport_size({"width": 1400, "height": 1000})
    screenshot(tab, shots, f"html-side-by-side-{index:03d}.png")
    tab.locator(f'input[data-filter-kind="{e["kind"]}"]').uncheck()
    assert tab.locator(f'#sbs mark.edit[data-kind="{e["kind"]}"]:not(.off)').count() == 0
    tab.locator(f'input[data-filter-kind="{e["kind"]}"]').check()
    tab.locator("#changed-only").check()
    shown = tab.locator("#sbs tbody tr").filter(visible=True)
    assert shown.count() == sum(1 for r in rows if r["changed"]) > 0
    assert tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def panel_figures(tab: Any) -> dict[str, str]:
    return tab.evaluate(
        """() => Object.fromEntries(Array.from(document.querySelectorAll('#details dt')).map(
             dt => [dt.textContent, dt.nextElementSibling.innerText]))"""
    )


def test_browser_panel_names_confidence_and_probability(tab: Any, site: Path, shots: Path) -> None:
    report, _ = open_page(tab, site, REPORT_FILES[1])
    e = next(e for e in report["edits"] if e["note"].startswith("left marked: best candidate"))
    tab.locator(f'#text mark[data-id="{e["id"]}"]').click()
    fields = panel_figures(tab)
    conf, prob = f"{e['confidence']:.3f}", e["candidates"][0]["source"].removeprefix("lm p=")
    assert conf != prob
    assert tab.locator('#details [data-field="confidence"]').inner_text() == conf
    assert "calibrated" in tab.locator('#details [data-field="confidence-meaning"]').inner_text()
    assert tab.locator('#details [data-field="probability"]').inner_text() == prob
    meaning = tab.locator('#details [data-field="probability-meaning"]').inner_text()
    assert "among the candidates" in meaning and e["candidates"][0]["text"] in meaning
    assert fields["note"] == f"left marked: best candidate {e['candidates'][0]['text']} with confidence {conf}"
    heads = tab.locator("#details table.cands th").all_inner_texts()
    assert heads == ["#", "text", "model probability", "evidence", "score"]
    probs = tab.locator("#details table.cands td.prob").all_inner_texts()
    assert probs == [c["source"].removeprefix("lm p=") for c in e["candidates"]]
    assert "p=" not in tab.locator("#details").inner_text()
    tab.set_viewport_size({"width": 1400, "height": 1000})
    screenshot(tab, shots, "html-panel-figures.png")


def test_browser_panel_explains_a_variant_fill(
    tab: Any, tmp_path: Path, shots: Path, variant_fill: tuple[dict[str, Any], str]
) -> None:
    report, output = variant_fill
    path = tmp_path / "lunyu.html"
    path.write_text(render_file(report, output), encoding="utf-8")
    tab.goto(path.as_uri())
    tab.locator("#text mark.edit").click()
    assert tab.locator('#details [data-field="channel"]').inner_text() == "outside the code page (Big5)"
    why = tab.locator('#details [data-field="why-form"]').inner_text()
    assert "could not encode" in why and "Big5 lacks" in why and "逺" in why
    tab.locator("#view-sbs").check()
    assert tab.locator("#sbs td.src mark").inner_text() == "?"
    assert tab.locator("#sbs td.dst mark").inner_text() == report["edits"][0]["after"]
    tab.locator("#sbs td.dst mark").click()
    assert tab.locator('#details [data-field="why-form"]').is_visible()
    tab.set_viewport_size({"width": 1400, "height": 900})
    tab.locator('#details [data-field="why-form"]').scroll_into_view_if_needed()
    screenshot(tab, shots, "html-panel-variant.png")


def test_panel_names_the_witness_a_collation_reading_came_from() -> None:
    doc = "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作〓者，未之有也。君子務本，本立而道生。"
    reference = "有子曰其爲人也孝弟而好犯上者鮮矣不好犯上而好作亂者未之有也君子務本本立而道生"
    result = Repairer(model=None, references=(reference,)).repair_text(doc)
    report = build_report(result, input_path="a.txt", output_path="out/a.txt", input_bytes=doc.encode(), settings={})
    (d,) = panel_data(report, result.text).values()
    assert d["after"] == "亂" and d["witness"].startswith("reference 1, at character ")
    assert "而好作亂者" in d["witness"]
