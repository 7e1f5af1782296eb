"""Self-contained HTML views of the JSON reports, for reading a repair by eye.

The JSON report is what tools consume; these pages are for the person who has
to decide whether to trust an edit.  Each page shows the OUTPUT text (the text
the user keeps) with every edit highlighted where it now sits, so the reviewer
reads the result, not a diff.  Everything (CSS, JS, data) is inline and nothing
is fetched, so a page can be mailed, archived or opened from disk (file://)
without a network and without leaking what is being reviewed.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from itertools import zip_longest
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from repair.channel.forward import encodable
from repair.families import FAMILY_KINDS
from repair.fill.channel import narrow_code_page
from repair.io import write_atomic

# One colour per family, picked to stay apart from each other on a white page;
# the order follows FAMILY_KINDS, so a family keeps its colour across pages.
_PALETTE = (
    (127, 127, 127),  # junk
    (23, 162, 184),  # escape
    (31, 119, 180),  # codec_confusion
    (148, 103, 189),  # byte_shift
    (140, 86, 75),  # radical
    (227, 119, 194),  # component
    (255, 187, 120),  # split_char
    (255, 127, 14),  # question_mark
    (214, 39, 40),  # replacement_char
    (44, 160, 44),  # private_use
    (188, 189, 34),  # foreign_symbol
    (23, 190, 207),  # placeholder
    (57, 59, 121),  # deletion
    (173, 73, 74),  # lookalike
)

_CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Noto Sans CJK TC",
  "Source Han Sans", "Microsoft YaHei", "PingFang SC", sans-serif; color: #1d1d1f; background: #fafafa; }
header.page { padding: 12px 20px; background: #fff; border-bottom: 1px solid #ddd; }
header.page h1 { font-size: 18px; margin: 0 0 4px; word-break: break-all; }
.meta { color: #555; margin: 0 0 8px; word-break: break-all; }
.meta span + span::before { content: " · "; }
table { border-collapse: collapse; }
th, td { padding: 2px 10px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.toolbar { position: sticky; top: 0; z-index: 5; background: #f0f0f3; border-bottom: 1px solid #ccc;
  padding: 8px 20px; display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; }
.toolbar fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 10px;
  align-items: center; }
.toolbar legend { float: left; font-weight: 600; margin-right: 6px; padding: 0; }
.toolbar label { white-space: nowrap; cursor: pointer; }
#visible-count { font-weight: 600; }
.swatch { display: inline-block; padding: 0 5px; border-radius: 3px; background: var(--bg-a);
  outline: 2px solid var(--c); outline-offset: -2px; }
.swatch.marked { background: var(--bg-m); outline-style: dashed; }
main { display: flex; align-items: flex-start; }
#text { flex: 1; min-width: 0; margin: 0; padding: 16px 24px 80px; white-space: pre-wrap; overflow-wrap: anywhere;
  font: 18px/2 "Noto Serif CJK TC", "Noto Serif CJK SC", "Source Han Serif", "Songti TC", "SimSun",
  "Noto Sans CJK TC", "Noto Sans CJK SC", serif; background: #fff; tab-size: 4; }
mark.edit { color: inherit; background: var(--bg-a); outline: 2px solid var(--c); outline-offset: -1px;
  border-radius: 2px; cursor: pointer; }
mark.edit[data-applied="0"] { background: var(--bg-m); outline-style: dashed; }
mark.edit.blank::before { content: ""; display: inline-block; width: .5em; height: 1.1em; vertical-align: -.2em; }
mark.edit[data-applied="1"].blank::before { background: repeating-linear-gradient(135deg, var(--c) 0 2px,
  transparent 2px 5px); }
mark.edit:focus-visible, mark.edit.selected { outline-width: 3px; outline-color: #111; }
mark.edit.off { background: transparent; outline: none; cursor: auto; }
mark.edit.off.blank::before { display: none; }
#sbs { flex: 1; min-width: 0; padding: 0 12px 80px; }
#sbs[hidden], #text[hidden] { display: none; }
table.sbs { width: 100%; table-layout: fixed; background: #fff;
  font: 17px/1.8 "Noto Serif CJK TC", "Noto Serif CJK SC", "Source Han Serif", "Songti TC", "SimSun", serif; }
table.sbs col.ln { width: 3.6em; }
table.sbs th { font: 600 13px/1.5 system-ui, sans-serif; position: sticky; top: var(--toolbar-h, 48px);
  background: #f7f7f7; z-index: 2; }
table.sbs td { white-space: pre-wrap; overflow-wrap: anywhere; padding: 1px 8px; }
table.sbs td.ln { color: #999; font: 12px/2.5 ui-monospace, monospace; text-align: right; user-select: none;
  white-space: nowrap; }
table.sbs td.src { border-right: 1px solid #ddd; }
table.sbs td.filler { background: repeating-linear-gradient(135deg, #f4f4f4 0 6px, #fff 6px 12px); }
table.sbs tr.changed td.ln { color: #333; background: #fff3cd; }
table.sbs tr[hidden] { display: none; }
.sbs-head { display: flex; gap: 16px; justify-content: space-between; padding-top: 6px; word-break: normal; }
.sbs-head label { white-space: nowrap; }
table.cands { width: 100%; font-size: 13px; }
table.cands th, table.cands td { padding: 2px 5px; }
.explain { display: block; color: #666; font-size: 12px; line-height: 1.35; }
.figure { font-weight: 600; font-variant-numeric: tabular-nums; }
aside#details { position: sticky; top: 52px; width: 380px; max-height: calc(100vh - 60px); overflow: auto;
  margin: 12px; padding: 10px 14px; background: #fff; border: 1px solid #bbb; border-radius: 6px;
  box-shadow: 0 2px 10px rgba(0, 0, 0, .12); }
aside#details[hidden] { display: none; }
aside#details h2 { font-size: 16px; margin: 0 0 6px; display: flex; justify-content: space-between; }
aside#details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0 0 8px; }
aside#details dt { color: #555; }
aside#details dd { margin: 0; overflow-wrap: anywhere; }
.snippet { font: 18px/1.4 "Noto Serif CJK TC", "Noto Serif CJK SC", serif; white-space: pre-wrap;
  background: #f3f3f3; padding: 0 4px; border-radius: 3px; }
.codes { color: #666; font: 11px ui-monospace, monospace; }
.cands td.text { font-size: 18px; }
.cands tr.chosen td { background: #eef7ee; font-weight: 600; }
pre.detail { font: 11px/1.35 ui-monospace, monospace; white-space: pre-wrap; max-height: 240px; overflow: auto; }
.empty-note { color: #777; font-style: italic; }
button { font: inherit; cursor: pointer; }
input[type=search] { font: inherit; padding: 3px 6px; width: 280px; }
.index-wrap { padding: 12px 20px; }
table.files { width: 100%; table-layout: fixed; font-size: 13px; background: #fff; }
table.files th, table.files td { padding: 2px 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
table.files td.name { direction: rtl; text-align: left; }
table.files td.name > * { direction: ltr; unicode-bidi: embed; }
table.files td.num { white-space: nowrap; }
table.files td.fam { color: #333; white-space: normal; overflow-wrap: normal; word-break: keep-all; }
table.files td.sum { font-weight: 600; }
table.files thead th { position: sticky; top: 0; background: #f0f0f3; cursor: pointer; user-select: none;
  vertical-align: bottom; }
table.files thead th:hover { background: #e2e2ea; }
table.files thead th[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
table.files thead th[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
table.files th.fam .swatch { padding: 0 3px; }
#summary h2 { font-size: 15px; margin: 10px 0 4px; }
#summary h2 .meta { font-weight: normal; font-size: 12px; }
.chart { display: grid; grid-template-columns: max-content minmax(200px, 560px) max-content; gap: 3px 10px;
  align-items: center; margin: 0 0 10px; }
.bar-row { display: contents; }
.bar { display: flex; height: 14px; background: #f1f1f1; border-radius: 2px; overflow: hidden; }
.bar-a { background: var(--c); }
.bar-m { background: var(--bg-a); }
.bar-num { font-size: 12px; color: #333; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; border-top: 2px solid #999; }
tr[hidden] { display: none; }
"""

_FILE_JS = r"""
(function () {
  "use strict";
  var edits = JSON.parse(document.getElementById("edit-data").textContent);
  var byId = {};
  edits.forEach(function (e) { byId[String(e.id)] = e; });
  var marks = Array.prototype.slice.call(document.querySelectorAll("#text mark.edit"));
  var sideMarks = Array.prototype.slice.call(document.querySelectorAll("#sbs mark.edit"));
  var kindBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-filter-kind]"));
  var showApplied = document.getElementById("show-applied");
  var showMarked = document.getElementById("show-marked");
  var slider = document.getElementById("min-confidence");
  var sliderOut = document.getElementById("min-confidence-value");
  var counter = document.getElementById("visible-count");
  var panel = document.getElementById("details");
  var textView = document.getElementById("text");
  var sideView = document.getElementById("sbs");
  var viewText = document.getElementById("view-text");
  var viewSide = document.getElementById("view-sbs");
  var changedOnly = document.getElementById("changed-only");
  var current = null;

  function isOn(m) { return !m.classList.contains("off"); }

  function update() {
    var kinds = {};
    kindBoxes.forEach(function (b) { kinds[b.getAttribute("data-filter-kind")] = b.checked; });
    var min = parseFloat(slider.value);
    sliderOut.textContent = min.toFixed(2);
    var n = 0;
    function on(m) {
      return kinds[m.getAttribute("data-kind")] === true &&
        (m.getAttribute("data-applied") === "1" ? showApplied.checked : showMarked.checked) &&
        parseFloat(m.getAttribute("data-confidence")) >= min;
    }
    marks.forEach(function (m) {
      var v = on(m);
      m.classList.toggle("off", !v);
      if (v) { n += 1; }
    });
    sideMarks.forEach(function (m) { m.classList.toggle("off", !on(m)); });
    counter.textContent = n + " of " + marks.length + " edits highlighted";
  }

  function setView() {
    var side = viewSide.checked;
    textView.hidden = side;
    sideView.hidden = !side;
    document.body.classList.toggle("side-by-side", side);
  }

  function visible(s) {
    return s === "" ? "\u2205 (nothing)" : s.replace(/\n/g, "\u23ce\n").replace(/\t/g, "\u21e5");
  }

  function codes(s) {
    var out = [];
    for (var i = 0; i < s.length; ) {
      var cp = s.codePointAt(i);
      out.push("U+" + cp.toString(16).toUpperCase().padStart(4, "0"));
      i += cp > 0xffff ? 2 : 1;
    }
    return out.join(" ");
  }

  function el(tag, cls, text) {
    var x = document.createElement(tag);
    if (cls) { x.className = cls; }
    if (text !== undefined) { x.textContent = text; }
    return x;
  }

  function row(dl, name, value, title) {
    var dt = el("dt", "", name);
    if (title) { dt.title = title; }
    dl.appendChild(dt);
    var dd = el("dd");
    if (typeof value === "string") { dd.textContent = value; } else { dd.appendChild(value); }
    dl.appendChild(dd);
    return dd;
  }

  function figure(value, field, meaning, meaningField) {
    var span = el("span");
    var v = el("span", "figure", value);
    v.setAttribute("data-field", field);
    span.appendChild(v);
    if (meaning) {
      var x = el("span", "explain", meaning);
      x.setAttribute("data-field", meaningField);
      span.appendChild(x);
    }
    return span;
  }

  function snippet(s) {
    var span = el("span");
    span.appendChild(el("span", "snippet", visible(s)));
    if (s !== "") { span.appendChild(document.createElement("br")); span.appendChild(el("span", "codes", codes(s))); }
    return span;
  }

  function probabilityRow(dl, e) {
    var best = e.applied ? e.after : (e.candidates.length ? e.candidates[0].text : null);
    var withP = e.candidates.filter(function (c) { return c.probability !== null; });
    if (best === null || withP.length === 0) { return; }
    var mine = e.candidates.filter(function (c) { return c.text === best && c.probability !== null; })[0];
    var name = "model probability of " + visible(best) + " among the candidates";
    if (mine) {
      row(dl, "model probability", figure(mine.probability.toFixed(3), "probability",
        name + " (the language model's share, before calibration; not the confidence)", "probability-meaning"));
    } else {
      var chosen = e.candidates.filter(function (c) { return c.text === best; })[0];
      row(dl, "model probability", figure("\u2014", "probability",
        visible(best) + " was chosen on other evidence (" + (chosen ? chosen.evidence : "") +
        "); the model's own first choice " + visible(withP[0].text) + " had probability " +
        withP[0].probability.toFixed(3) + " among the candidates", "probability-meaning"));
    }
  }

  function select(id) {
    document.querySelectorAll("mark.edit.selected").forEach(function (x) { x.classList.remove("selected"); });
    if (id !== null) {
      var view = viewSide.checked ? sideView : textView;
      view.querySelectorAll('mark.edit[data-id="' + id + '"]').forEach(function (x) { x.classList.add("selected"); });
    }
  }

  function show(m) {
    var e = byId[m.getAttribute("data-id")];
    if (!e) { return; }
    current = m;
    select(String(e.id));
    var body = document.getElementById("details-body");
    body.textContent = "";
    document.getElementById("details-title").textContent = "Edit #" + e.id;
    panel.setAttribute("data-id", String(e.id));
    var dl = el("dl");
    row(dl, "kind", e.kind).setAttribute("data-field", "kind");
    row(dl, "status", e.applied ? "applied" : "left marked (text unchanged)");
    row(dl, "confidence", figure(e.confidence.toFixed(3), "confidence", e.confidence_meaning, "confidence-meaning"));
    probabilityRow(dl, e);
    row(dl, "where", "input line " + e.line + ", col " + e.column + "; output line " + e.out_line +
      ", col " + e.out_column);
    row(dl, "before", snippet(e.before)).setAttribute("data-field", "before");
    row(dl, "after", snippet(e.after)).setAttribute("data-field", "after");
    if (e.channel) {
      row(dl, "channel", e.channel + (e.code_page ? " (" + e.code_page + ")" : ""),
        "what could stand behind the mark").setAttribute("data-field", "channel");
    }
    if (e.why_form) { row(dl, "why this form", e.why_form).setAttribute("data-field", "why-form"); }
    if (e.witness) {
      row(dl, "witness", e.witness, "where the aligned reference reads it").setAttribute("data-field", "witness");
    }
    row(dl, "note", e.note || "\u2014").setAttribute("data-field", "note");
    body.appendChild(dl);
    body.appendChild(el("h3", "", "Candidates (best first)"));
    if (e.candidates.length === 0) {
      body.appendChild(el("p", "empty-note", "no candidates"));
    } else {
      var t = el("table", "cands");
      var head = el("tr");
      [["#", ""], ["text", ""],
       ["model probability", "the candidate's probability under the language model, among these candidates " +
        "(not calibrated; not the confidence)"],
       ["evidence", "what proposed the candidate: the language model, witnesses (other copies of the text), " +
        "a glyph table"],
       ["score", "the ranking score: the model's log10 score, or the number of witnesses"]
      ].forEach(function (h) { var th = el("th", "", h[0]); if (h[1]) { th.title = h[1]; } head.appendChild(th); });
      t.appendChild(head);
      e.candidates.forEach(function (c, i) {
        var tr = el("tr", c.text === e.after && e.applied ? "chosen" : "");
        tr.appendChild(el("td", "num", String(i + 1)));
        tr.appendChild(el("td", "text", visible(c.text)));
        tr.appendChild(el("td", "num prob", c.probability === null ? "\u2014" : c.probability.toFixed(3)));
        tr.appendChild(el("td", "evidence", c.evidence));
        tr.appendChild(el("td", "num", c.score.toFixed(3)));
        t.appendChild(tr);
      });
      body.appendChild(t);
    }
    if (e.detail && Object.keys(e.detail).length) {
      var d = el("details");
      d.appendChild(el("summary", "", "raw detail (as in the JSON report)"));
      d.appendChild(el("pre", "detail", JSON.stringify(e.detail, null, 1)));
      body.appendChild(d);
    }
    panel.hidden = false;
  }

  function stepMarks() {
    if (!viewSide.checked) { return marks.filter(isOn); }
    var seen = {};
    return Array.prototype.slice.call(sideView.querySelectorAll("td.dst mark.edit")).filter(function (m) {
      var id = m.getAttribute("data-id");
      if (!isOn(m) || seen[id] || m.closest("tr").hidden) { return false; }
      seen[id] = true;
      return true;
    });
  }

  function step(dir) {
    var on = stepMarks();
    if (on.length === 0) { return; }
    var i = current ? on.indexOf(current) : -1;
    var next = on[((i < 0 ? (dir > 0 ? -1 : 0) : i) + dir + on.length) % on.length];
    next.scrollIntoView({block: "center"});
    next.focus({preventScroll: true});
    show(next);
  }

  function onClick(ev) {
    var m = ev.target.closest("mark.edit");
    if (m && isOn(m)) { show(m); }
  }
  function onKey(ev) {
    var m = ev.target.closest && ev.target.closest("mark.edit");
    if (m && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); show(m); }
  }
  [textView, sideView].forEach(function (v) {
    v.addEventListener("click", onClick);
    v.addEventListener("keydown", onKey);
  });
  document.getElementById("details-close").addEventListener("click", function () {
    panel.hidden = true;
    select(null);
    current = null;
  });
  document.getElementById("prev-edit").addEventListener("click", function () { step(-1); });
  document.getElementById("next-edit").addEventListener("click", function () { step(1); });
  kindBoxes.concat([showApplied, showMarked]).forEach(function (b) { b.addEventListener("change", update); });
  slider.addEventListener("input", update);
  slider.addEventListener("change", update);
  [viewText, viewSide].forEach(function (b) {
    b.addEventListener("change", function () {
      setView();
      if (current) { panel.hidden = true; select(null); current = null; }
      history.replaceState(null, "", viewSide.checked ? "#side-by-side" : "#");
    });
  });
  changedOnly.addEventListener("change", function () {
    sideView.querySelectorAll("tbody tr").forEach(function (r) {
      r.hidden = changedOnly.checked && !r.classList.contains("changed");
    });
  });

  function fitPanel() {  // keep the panel below the sticky toolbar, whose height depends on the families
    var h = document.querySelector(".toolbar").offsetHeight;
    panel.style.top = (h + 8) + "px";
    document.body.style.setProperty("--toolbar-h", h + "px");
    panel.style.maxHeight = "calc(100vh - " + (h + 16) + "px)";
  }
  window.addEventListener("resize", fitPanel);
  if (location.hash === "#side-by-side") { viewSide.checked = true; }
  setView();
  fitPanel();
  update();
})();
"""

_INDEX_JS = r"""
(function () {
  "use strict";
  var box = document.getElementById("file-filter");
  var body = document.querySelector("table.files tbody");
  var rows = Array.prototype.slice.call(body.querySelectorAll("tr.file"));
  var counter = document.getElementById("visible-files");
  function update() {
    var q = box.value.trim().toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var hit = r.getAttribute("data-name").toLowerCase().indexOf(q) >= 0;
      r.hidden = !hit;
      if (hit) { n += 1; }
    });
    counter.textContent = n + " of " + rows.length + " files";
  }
  box.addEventListener("input", update);

  var heads = Array.prototype.slice.call(document.querySelectorAll("table.files thead th"));
  function sortBy(th) {
    var col = heads.indexOf(th);
    var num = th.getAttribute("data-type") === "num";
    var was = th.getAttribute("aria-sort");
    // first click: numbers largest first (where the damage is), names A to Z
    var dir = was ? (was === "ascending" ? -1 : 1) : (num ? -1 : 1);
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    var keyed = rows.map(function (r, i) {
      var v = r.children[col].getAttribute("data-sort") || "";
      return {r: r, v: num ? parseFloat(v) || 0 : v, i: i};
    });
    keyed.sort(function (a, b) {
      var c = num ? a.v - b.v : a.v.localeCompare(b.v);
      return c !== 0 ? dir * c : a.i - b.i;
    });
    keyed.forEach(function (k) { body.appendChild(k.r); });
  }
  heads.forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sortBy(th); }
    });
  });
  update();
})();
"""


# Short column heads for the index (the full name and what it means are in each head's tooltip).
_SHORT: dict[str, str] = {
    "junk": "junk",
    "escape": "esc",
    "codec_confusion": "codec",
    "byte_shift": "shift",
    "radical": "radic",
    "component": "comp",
    "split_char": "split",
    "question_mark": "?",
    "replacement_char": "FFFD",
    "private_use": "PUA",
    "foreign_symbol": "sym",
    "placeholder": "plh",
    "deletion": "del",
    "lookalike": "look",
}
_ABOUT: dict[str, str] = {
    "junk": "scraper junk: watermarks and site furniture inside the text",
    "escape": "escapes left by scrapers and exports (&#x4E00;, \\u4e00, %E4%B8%80)",
    "codec_confusion": "text encoded in one codec and decoded in another (mojibake)",
    "byte_shift": "a GBK or Big5 stream read one byte out of step",
    "radical": "radical stand-ins (Kangxi radicals) written by PDF text extraction",
    "component": "a rare character typed as its parts",
    "split_char": "a character whose lead byte was lost: a mark and the byte that survived",
    "question_mark": "a ? written by a conversion for a character the code page could not encode",
    "replacement_char": "U+FFFD replacement characters from a lossy decode",
    "private_use": "private-use code points: home-made glyphs of the digitization",
    "foreign_symbol": "foreign symbols (kana, Greek, circled numbers) standing for home-made glyphs",
    "placeholder": "placeholders an editor put for an unknown character (囗 □ 〓 ■)",
    "deletion": "a character silently lost, seen by the language model and references",
    "lookalike": "a look-alike character from another set, seen by the language model",
}
# Families whose confidence is a calibrated accuracy (the fills); the others'
# confidence is the detector's own certainty in its reading.
_FILL_KINDS = frozenset(
    {"question_mark", "replacement_char", "private_use", "foreign_symbol", "placeholder", "split_char"}
    | {"deletion", "lookalike"}
)
CONFIDENCE_CALIBRATED = (
    "calibrated: the share of fills like this one (same channel, same model certainty) that were right when "
    "measured; applied when at or above the minimum confidence"
)
CONFIDENCE_DETECTOR = "the detector's certainty that its reading is right (1.0: exact and lossless)"
_LM_P = re.compile(r"^lm p=([0-9]*\.?[0-9]+)$")
_OUTSIDE_PAGE = "outside the code page"


def _model_probability(c: dict[str, Any]) -> float | None:
    """A candidate's probability under the language model among the candidates, when the report gives it."""
    source = str(c.get("source", c.get("note", "")))
    m = _LM_P.match(source)
    if m:
        return float(m.group(1))
    if source.startswith("lm, look-alike"):  # its score is that probability
        return _confidence(c.get("score"))
    return None


def _evidence(source: str) -> str:
    """A candidate's source in words: the model's figure goes to its own column."""
    if _LM_P.match(source) or source.startswith("lm, look-alike"):
        return "language model"
    return source


def _note(note: str) -> str:
    """A note with each figure named: the reports' p= is the calibrated confidence, not a probability."""
    note = re.sub(r"\bat p=", "with confidence ", note)
    return re.sub(r"\bp=", "confidence ", note)


def _page_name(page: str) -> str:
    return {"gb2312": "GB2312", "gbk": "GBK", "big5": "Big5"}.get(page, page)


def _why_form(e: dict[str, Any], page: str | None) -> str:
    """Why a ``?`` fill is the form it is: the channel allows only what the code page lacked."""
    detail = e.get("detail") if isinstance(e.get("detail"), dict) else {}
    if e.get("kind") != "question_mark" or detail.get("channel") != _OUTSIDE_PAGE:
        return ""
    candidates = [c for c in e.get("candidates") or [] if isinstance(c, dict)]
    best = str(e.get("after")) if e.get("applied") else str(candidates[0].get("text", "")) if candidates else ""
    if page is not None:
        name = _page_name(page)
        where = f"This file's other characters all fit in {name}, so only characters {name} lacks"
        lacks = best != "" and not encodable(best, page)
    else:
        where = "Only characters the file's code page lacks"
        lacks = True
    text = (
        "A ? written by a code-page conversion stands for a character that code page could not encode. "
        f"{where} were candidates. "
    )
    if best and lacks:
        verb = "is written" if e.get("applied") else "is proposed"
        text += (
            f"{best} {verb} although a more common form of the character may exist: a form the code page holds "
            "(such as the standard one) would have come through the conversion intact, so it cannot be what "
            "was lost; the variant form the page lacks can."
        )
    return text


def _esc(text: Any) -> str:
    """Escape for both text and quoted attributes; also keep CR, which an HTML parser would turn into LF."""
    return html.escape(str(text), quote=True).replace("\r", "&#13;")


def _json_for_script(data: Any) -> str:
    """JSON that cannot end its <script> element early: markup characters become \\u escapes."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _shown(text: str) -> str:
    """A one-line rendering for tooltips, where a bare newline or empty string would be invisible."""
    if text == "":
        return "∅"
    return text.replace("\r", "␍").replace("\n", "⏎").replace("\t", "⇥")


def _ordered_kinds(kinds: set[str]) -> list[str]:
    known = [k for k in FAMILY_KINDS if k in kinds]
    return known + sorted(kinds - set(known))


def _kind_css(kinds: list[str]) -> str:
    rules = []
    for kind in kinds:
        if kind in FAMILY_KINDS:
            r, g, b = _PALETTE[FAMILY_KINDS.index(kind) % len(_PALETTE)]
        else:  # a family added after this palette: a stable grey-blue rather than no colour at all
            r, g, b = (90, 110, 130)
        sel = _esc(kind)
        rules.append(
            f'[data-kind="{sel}"] {{ --c: rgb({r}, {g}, {b}); --bg-a: rgba({r}, {g}, {b}, .32); '
            f"--bg-m: rgba({r}, {g}, {b}, .12); }}"
        )
    return "\n".join(rules)


def _confidence(value: Any) -> float:
    try:
        c = float(value)
    except (TypeError, ValueError):
        return 0.0
    return c if math.isfinite(c) else 0.0


def _mark_open(e: dict[str, Any], blank: bool, extra: str = "") -> str:
    conf = _confidence(e.get("confidence"))
    applied = bool(e.get("applied"))
    status = "applied" if applied else "left marked"
    after = str(e.get("after", ""))
    candidates = [c for c in e.get("candidates") or [] if isinstance(c, dict)]
    if not applied and candidates:
        # What is left marked says what it may be, not "X → X".
        after = f"{candidates[0].get('text', '')}?"
    tip = (
        f"#{e.get('id')} {e.get('kind')}: {_shown(str(e.get('before', '')))} → {_shown(after)}"
        f" · confidence {conf:.3f} · {status}"
    )
    if len(candidates) > 1:
        tip += " · alternatives: " + " ".join(_shown(str(c.get("text", ""))) for c in candidates[1:5])
    cls = "edit blank" if blank else "edit"
    if extra:
        cls += " " + extra
    return (
        f'<mark class="{cls}" tabindex="0" data-id="{_esc(e.get("id"))}" data-kind="{_esc(e.get("kind"))}"'
        f' data-applied="{1 if applied else 0}" data-confidence="{conf!r}" title="{_esc(tip)}">'
    )


def _marked_text(text: str, edits: list[dict[str, Any]]) -> str:
    """The output text with one <mark> per edit.

    Spans are clamped into the text and, should two ever cross, the later one
    is cut at the end of the earlier, so the marks always nest and the page's
    text stays exactly the output text: one mark per edit, no character lost
    or doubled.  Empty spans (deletions) get an empty mark drawn by CSS.
    """
    n = len(text)
    spans = []
    for e in edits:
        start = min(max(int(e.get("out_start", 0)), 0), n)
        end = min(max(int(e.get("out_end", start)), start), n)
        spans.append((start, end, e))
    spans.sort(key=lambda s: (s[0], s[1] > s[0], -s[1], s[2].get("id", 0)))

    parts: list[str] = []
    cursor = 0
    open_ends: list[int] = []

    def advance(to: int) -> None:
        nonlocal cursor
        if to > cursor:
            parts.append(_esc(text[cursor:to]))
            cursor = to

    for start, end, e in spans:
        while open_ends and open_ends[-1] <= start:
            advance(open_ends.pop())
            parts.append("</mark>")
        advance(start)
        if open_ends and end > open_ends[-1]:
            end = open_ends[-1]
        blank = end == start or text[start:end].strip() == ""
        parts.append(_mark_open(e, blank))
        if end == start:
            parts.append("</mark>")
        else:
            open_ends.append(end)
    while open_ends:
        advance(open_ends.pop())
        parts.append("</mark>")
    advance(n)
    return "".join(parts)


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _placed(output_text: str, edits: list[dict[str, Any]]) -> list[tuple[int, int, dict[str, Any]]]:
    """The edits' output spans, clamped and in order; an edit crossing an earlier one is left out."""
    n = len(output_text)
    spans = []
    for e in edits:
        start = min(max(_int(e.get("out_start")), 0), n)
        end = min(max(_int(e.get("out_end"), start), start), n)
        spans.append((start, end, e))
    spans.sort(key=lambda s: (s[0], s[1], _int(s[2].get("id"))))
    placed, pos = [], 0
    for start, end, e in spans:
        if start >= pos:
            placed.append((start, end, e))
            pos = end
    return placed


class _Side:
    """One column of the side-by-side view: the lines of the current block, as HTML parts."""

    def __init__(self) -> None:
        self.lines: list[list[str]] = [[]]
        self.changed: list[bool] = [False]

    def text(self, piece: str) -> None:
        if piece:
            self.lines[-1].append(_esc(piece))

    def edit(self, text: str, e: dict[str, Any], side: str) -> None:
        pieces = text.split("\n")
        for j, piece in enumerate(pieces):
            if j:
                self.lines.append([])
                self.changed.append(False)
            middle = 0 < j < len(pieces) - 1
            if piece or middle or len(pieces) == 1:
                blank = piece.strip() == ""
                self.lines[-1].append(_mark_open(e, blank, side) + _esc(piece) + "</mark>")
                self.changed[-1] = True

    def newline(self) -> None:
        self.lines.append([])
        self.changed.append(False)


def _side_by_side(output_text: str, edits: list[dict[str, Any]]) -> tuple[str, str, int]:
    """The input text (the output with every edit undone) and the rows of the side-by-side table.

    Text outside the edits is the same on both sides, so each line break there
    ends a line on both sides at once: the rows stay aligned.  Inside an edit
    the two sides may break a different number of times (junk removed with its
    line); there the shorter side is padded with empty cells until the next
    shared line break.  Returns (input text, table rows HTML, number of rows).
    """
    source: list[str] = []
    rows: list[str] = []
    numbers = [0, 0]
    left, right = _Side(), _Side()

    def row(a: list[str] | None, ac: bool, b: list[str] | None, bc: bool, last: bool = False) -> None:
        if last and a == [] and b == [] and not (ac or bc) and rows:
            return  # the empty "line" after a final line break
        cells = []
        attrs = []
        for k, (parts, cls) in enumerate(((a, "src"), (b, "dst"))):
            if parts is None:
                cells.append(f'<td class="ln"></td><td class="{cls} filler"></td>')
                attrs.append(f'data-{("left", "right")[k]}-line=""')
                continue
            numbers[k] += 1
            cells.append(f'<td class="ln">{numbers[k]}</td><td class="{cls}">{"".join(parts)}</td>')
            attrs.append(f'data-{("left", "right")[k]}-line="{numbers[k]}"')
        cls = ' class="changed"' if ac or bc else ""
        rows.append(f"<tr{cls} {' '.join(attrs)}>{''.join(cells)}</tr>")

    # Shared text of the current block before its first edit and after its last:
    # where two sides differ in lines, the empty cells go on the side of the
    # block with less shared text, so the shared text of both sides faces itself.
    shared = {"before": 0, "after": 0, "edited": False}

    def flush(last: bool = False) -> None:
        nonlocal left, right
        a_lines = list(zip(left.lines, left.changed, strict=True))
        b_lines = list(zip(right.lines, right.changed, strict=True))
        if len(a_lines) != len(b_lines) and shared["after"] > shared["before"]:
            # pad before the last line, which holds the shared text after the edits
            pairs = [*zip_longest(a_lines[:-1], b_lines[:-1]), (a_lines[-1], b_lines[-1])]
        else:
            pairs = list(zip_longest(a_lines, b_lines))
        for i, (a, b) in enumerate(pairs):
            row(
                a[0] if a else None,
                bool(a and a[1]),
                b[0] if b else None,
                bool(b and b[1]),
                last and i == len(pairs) - 1,
            )
        left, right = _Side(), _Side()
        shared.update(before=0, after=0, edited=False)

    def same(text: str) -> None:
        source.append(text)
        for j, piece in enumerate(text.split("\n")):
            if j:
                flush()
            left.text(piece)
            right.text(piece)
            shared["after" if shared["edited"] else "before"] += len(piece)

    pos = 0
    for start, end, e in _placed(output_text, edits):
        same(output_text[pos:start])
        before = str(e.get("before", ""))
        source.append(before)
        left.edit(before, e, "src")
        right.edit(output_text[start:end], e, "dst")
        shared.update(after=0, edited=True)
        pos = end
    same(output_text[pos:])
    flush(last=True)
    return "".join(source), "\n".join(rows), len(rows)


def _input_code_page(output_text: str, edits: list[dict[str, Any]]) -> str | None:
    """The narrowest code page holding every Han character of the input outside the edits.

    This is how the filler judges which characters a ``?`` may stand for (the
    report records the channel, "outside the code page", not the page itself).
    """
    kept, pos = [], 0
    for start, end, _ in _placed(output_text, edits):
        kept.append(output_text[pos:start])
        pos = end
    kept.append(output_text[pos:])
    return narrow_code_page("〓".join(kept))


def _counts(report: dict[str, Any], edits: list[dict[str, Any]]) -> dict[str, Counter]:
    summary = report.get("summary") or {}
    if all(isinstance(summary.get(k), dict) for k in ("detected", "applied", "marked")):
        return {k: Counter(summary[k]) for k in ("detected", "applied", "marked")}
    return {
        "detected": Counter(e.get("kind") for e in edits),
        "applied": Counter(e.get("kind") for e in edits if e.get("applied")),
        "marked": Counter(e.get("kind") for e in edits if not e.get("applied")),
    }


def _witness(detail: dict[str, Any]) -> str:
    """Which copy a collation reading came from, where in it, and what it reads there.

    >>> _witness({"collation": {"reference": 2, "offset": 130, "snippet": "而好作亂者"}})
    'reference 2, at character 130: 而好作亂者'
    >>> _witness({"collation": {"reference": 3, "witness": "b.txt", "snippet": "搢三挟"}})
    'b.txt (a file of this batch): 搢三挟'
    """
    c = detail.get("collation")
    if not isinstance(c, dict):
        return ""
    if c.get("witness"):
        where = f"{c['witness']} (a file of this batch)"
    elif "reference" in c:
        where = f"reference {c['reference']}" + (f", at character {c['offset']}" if "offset" in c else "")
    else:
        where = "a reference"
    snippet = c.get("snippet") or c.get("reference_text") or ""
    return f"{where}: {snippet}" if snippet else where


def _panel_data(e: dict[str, Any], page: str | None = None) -> dict[str, Any]:
    """What the details panel shows for one edit, each figure under its own name.

    ``confidence`` is the edit's calibrated confidence (for a fill, the share of
    such fills that were right); ``probability`` a candidate's probability under
    the language model among the candidates, when the report gives one.
    """
    candidates = [c for c in e.get("candidates") or [] if isinstance(c, dict)]
    kind = str(e.get("kind", ""))
    detail = e.get("detail") if isinstance(e.get("detail"), dict) else {}
    calibrated = kind in _FILL_KINDS or "raw_posterior" in detail
    shown = [
        {
            "text": str(c.get("text", "")),
            "score": _confidence(c.get("score")),
            # reports name the proposer "source"; accept "note" from older/hand-made reports
            "source": str(c.get("source", c.get("note", ""))),
            "evidence": _evidence(str(c.get("source", c.get("note", "")))),
            "probability": _model_probability(c),
        }
        for c in candidates
    ]
    return {
        "id": e.get("id"),
        "kind": kind,
        "applied": bool(e.get("applied")),
        "confidence": _confidence(e.get("confidence")),
        "confidence_meaning": CONFIDENCE_CALIBRATED if calibrated else CONFIDENCE_DETECTOR,
        "line": e.get("line"),
        "column": e.get("column"),
        "out_line": e.get("out_line"),
        "out_column": e.get("out_column"),
        "before": str(e.get("before", "")),
        "after": str(e.get("after", "")),
        "note": _note(str(e.get("note", ""))),
        "channel": str(detail.get("channel", "")),
        "why_form": _why_form(e, page),
        "witness": _witness(detail),
        "code_page": _page_name(page) if page and _why_form(e, page) else "",
        "candidates": shown,
        "detail": detail,
    }


def render_file(
    report: dict[str, Any], output_text: str, *, title: str | None = None, index_href: str | None = None
) -> str:
    """One page for one file: the output text with every edit highlighted, filterable and inspectable.

    ``index_href`` (relative) adds a link back to the batch index.
    """
    edits = list(report.get("edits") or [])
    inp = report.get("input") or {}
    out = report.get("output") or {}
    path = inp.get("path") or out.get("path") or "(standard input)"
    page_title = title if title is not None else f"{path} — repair report"
    counts = _counts(report, edits)
    present = {str(e.get("kind")) for e in edits} | {k for c in counts.values() for k, v in c.items() if v}
    kinds = _ordered_kinds(present)
    per_kind_edits = Counter(str(e.get("kind")) for e in edits)
    source_text, side_rows, _ = _side_by_side(output_text, edits)
    page = _input_code_page(output_text, edits) if any(e.get("kind") == "question_mark" for e in edits) else None

    meta = [f"<span>input: {_esc(path)}</span>"]
    if out.get("path"):
        meta.append(f"<span>output: {_esc(out['path'])}</span>")
    meta.append(f"<span>encoding: {_esc(inp.get('encoding') or 'unknown')}</span>")
    segments = inp.get("encoding_segments") or []
    if segments:
        meta.append(f"<span>{len(segments)} encoding segments</span>")
    meta.append(f"<span>{len(output_text)} characters out</span>")
    if report.get("tool_version"):
        meta.append(f"<span>repair {_esc(report['tool_version'])}</span>")
    if index_href is not None:
        meta.append(f'<span><a href="{_esc(index_href)}">all files</a></span>')

    count_rows = []
    for kind in kinds:
        count_rows.append(
            f'<tr data-kind="{_esc(kind)}"><td><span class="swatch">{_esc(kind)}</span></td>'
            f'<td class="num">{counts["detected"][kind]}</td><td class="num">{counts["applied"][kind]}</td>'
            f'<td class="num">{counts["marked"][kind]}</td></tr>'
        )
    totals = [sum(counts[k].values()) for k in ("detected", "applied", "marked")]
    count_rows.append(
        '<tr class="total"><td>all families</td>' + "".join(f'<td class="num">{t}</td>' for t in totals) + "</tr>"
    )
    counts_table = (
        '<table class="counts"><thead><tr><th>family</th><th class="num">detected</th>'
        '<th class="num">applied</th><th class="num">left marked</th></tr></thead><tbody>'
        + "".join(count_rows)
        + "</tbody></table>"
        if kinds
        else '<p class="empty-note">No edits: the file was left as it was.</p>'
    )

    kind_boxes = "".join(
        f'<label data-kind="{_esc(k)}"><input type="checkbox" data-filter-kind="{_esc(k)}" checked> '
        f'<span class="swatch">{_esc(k)}</span> ({per_kind_edits[k]})</label>'
        for k in kinds
        if per_kind_edits[k]
    )
    toolbar = f"""<div class="toolbar" role="toolbar">
<fieldset><legend>Families</legend>{kind_boxes or '<span class="empty-note">none</span>'}</fieldset>
<fieldset><legend>Show</legend>
<label><input type="checkbox" id="show-applied" checked> applied</label>
<label><input type="checkbox" id="show-marked" checked> left marked</label></fieldset>
<fieldset><legend>Min. confidence</legend>
<input type="range" id="min-confidence" min="0" max="1" step="0.01" value="0" aria-label="minimum confidence">
<output id="min-confidence-value" for="min-confidence">0.00</output></fieldset>
<fieldset><legend>View</legend>
<label><input type="radio" name="view" id="view-text" value="text" checked> output text</label>
<label><input type="radio" name="view" id="view-sbs" value="sbs"> side by side</label></fieldset>
<span id="visible-count" aria-live="polite">{len(edits)} of {len(edits)} edits highlighted</span>
<span><button type="button" id="prev-edit">◀ previous</button>
<button type="button" id="next-edit">next ▶</button></span>
</div>"""

    legend = (
        '<p class="meta">Highlighted in the output text: <span class="swatch" style="--c:#555;--bg-a:#ddd">'
        "solid = applied</span> &nbsp; "
        '<span class="swatch marked" style="--c:#555;--bg-m:#eee">dashed = left marked, text unchanged</span>'
        " &nbsp; hover for a summary, click for the details and candidates.</p>"
    )

    return f"""<!DOCTYPE html>
<html lang="zh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="repair">
<title>{_esc(page_title)}</title>
<style>{_CSS}
{_kind_css(kinds)}
</style>
</head>
<body>
<header class="page">
<h1>{_esc(page_title)}</h1>
<p class="meta">{"".join(meta)}</p>
{counts_table}
{legend}
</header>
{toolbar}
<main>
<div id="text" class="text" lang="zh">{_marked_text(output_text, edits)}</div>
<div id="sbs" hidden>
<p class="meta sbs-head"><span>Each row: a line of the original (the input as decoded, {len(source_text)} characters)
and the same line of the output; edits are highlighted on both sides, hover for the alternatives.</span>
<label><input type="checkbox" id="changed-only"> only lines with edits</label></p>
<table class="sbs" lang="zh"><colgroup><col class="ln"><col class="side"><col class="ln"><col class="side"></colgroup>
<thead><tr><th class="ln">line</th><th>original ({_esc(inp.get("encoding") or "input")})</th>
<th class="ln">line</th><th>output</th></tr></thead>
<tbody>
{side_rows}
</tbody></table>
</div>
<aside id="details" hidden aria-live="polite">
<h2><span id="details-title">Edit</span><button type="button" id="details-close" aria-label="close">✕</button></h2>
<div id="details-body"></div>
</aside>
</main>
<script type="application/json" id="edit-data">{_json_for_script([_panel_data(e, page) for e in edits])}</script>
<script>{_FILE_JS}</script>
</body>
</html>
"""


def _count_dict(value: Any) -> Counter:
    out: Counter = Counter()
    if isinstance(value, dict):
        for k, v in value.items():
            n = _int(v)
            if n > 0:
                out[str(k)] = n
    return out


def _summary_chart(kinds: list[str], applied: Counter, marked: Counter, detected: Counter) -> str:
    """Counts per family for the whole batch: one bar per family present, applied and left marked stacked."""
    if not kinds:
        return '<p class="empty-note">No edits in this batch.</p>'
    count = {k: max(detected[k], applied[k] + marked[k]) for k in kinds}
    top = max(count.values()) or 1
    rows = []
    for k in sorted(kinds, key=lambda k: (-count[k], kinds.index(k))):
        a, m = applied[k], marked[k]
        wa, wm = 100 * a / top, 100 * m / top
        rows.append(
            f'<div class="bar-row" data-kind="{_esc(k)}" data-count="{count[k]}" data-applied="{a}" data-marked="{m}"'
            f' title="{_esc(k)}: {_esc(_ABOUT.get(k, ""))}">'
            f'<span class="bar-label"><span class="swatch">{_esc(k)}</span></span>'
            f'<span class="bar"><span class="bar-a" style="width:{wa:.3f}%"></span>'
            f'<span class="bar-m" style="width:{wm:.3f}%"></span></span>'
            f'<span class="bar-num"><b>{count[k]}</b> ({a} applied, {m} left marked)</span></div>'
        )
    total = sum(count.values())
    return (
        f'<section id="summary" aria-label="edits per family in this batch"><h2>Edits per family: {total} in all'
        ' <span class="meta">(solid: applied · light: left marked, text unchanged)</span></h2>'
        f'<div class="chart">{"".join(rows)}</div></section>'
    )


def render_index(summary: dict[str, Any], pages: list[tuple[str, str]]) -> str:
    """The batch index: a chart of the batch's edits per family, then per-file counts, sortable, linked.

    ``pages`` pairs each file of ``summary["files"]`` (same order) with the
    relative href of its page; a file whose input is not in ``pages`` is
    listed without a link.  Only the families present in the batch get a
    column, each under a short head (its full name in the tooltip), so the
    table fits a 1,400-pixel window without a horizontal scroll.
    """
    files = list(summary.get("files") or [])
    if len(pages) == len(files):
        hrefs = [href for _, href in pages]
    else:
        by_input = dict(pages)
        hrefs = [by_input.get(str(f.get("input"))) for f in files]
    present: set[str] = set()
    for f in files:
        for key in ("detected", "applied", "marked"):
            present |= set(_count_dict(f.get(key)))
    kinds = _ordered_kinds(present)

    totals: dict[str, Counter] = {"applied": Counter(), "marked": Counter(), "detected": Counter()}
    total_seconds = 0.0
    any_seconds = False
    rows = []
    widths = {k: len(_SHORT.get(k, k)) for k in kinds}
    for f, href in zip(files, hrefs, strict=True):
        applied = _count_dict(f.get("applied"))
        marked = _count_dict(f.get("marked"))
        detected = _count_dict(f.get("detected"))
        totals["applied"] += applied
        totals["marked"] += marked
        totals["detected"] += detected
        name = str(f.get("input") or "(standard input)")
        out_path = _esc(f.get("output") or "")
        link = (
            f'<a href="{_esc(href)}" title="{_esc(name)} → output: {out_path}">{_esc(name)}</a>'
            if href
            else f'<span title="{_esc(name)}">{_esc(name)}</span>'
        )
        cells = []
        for k in kinds:
            a, m = applied[k], marked[k]
            if a or m:
                widths[k] = max(widths[k], len(f"{a}/{m}"))
                cells.append(
                    f'<td class="num fam" data-kind="{_esc(k)}" data-sort="{a + m}"'
                    f' title="{_esc(k)}: {a} applied, {m} left marked">{a}/<wbr>{m}</td>'
                )
            else:
                cells.append('<td class="num fam" data-sort="0">·</td>')
        seconds = f.get("seconds")
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds):
            any_seconds = True
            total_seconds += float(seconds)
            sec, sec_sort = f"{float(seconds):.2f}", f"{float(seconds)!r}"
        else:
            sec, sec_sort = "", "-1"
        n_applied, n_marked = sum(applied.values()), sum(marked.values())
        n_total = max(sum(detected.values()), n_applied + n_marked)
        encoding = str(f.get("encoding") or "")
        rows.append(
            f'<tr class="file" data-name="{_esc(name)}"><td class="name" data-sort="{_esc(name)}">{link}</td>'
            f'<td class="enc" data-sort="{_esc(encoding)}" title="{_esc(encoding)}">{_esc(encoding)}</td>'
            f"{''.join(cells)}"
            f'<td class="num sum" data-sort="{n_total}">{n_total}</td>'
            f'<td class="num" data-sort="{n_applied}">{n_applied}</td>'
            f'<td class="num" data-sort="{n_marked}">{n_marked}</td>'
            f'<td class="num" data-sort="{sec_sort}">{sec}</td></tr>'
        )
    for k in kinds:
        widths[k] = max(widths[k], len(f"{totals['applied'][k]}/{totals['marked'][k]}"))
    total_cells = "".join(f'<td class="num fam">{totals["applied"][k]}/<wbr>{totals["marked"][k]}</td>' for k in kinds)
    sum_applied, sum_marked = sum(totals["applied"].values()), sum(totals["marked"].values())
    sum_total = max(sum(totals["detected"].values()), sum_applied + sum_marked)
    total_row = (
        f'<tr class="total"><td>{len(files)} files</td><td></td>{total_cells}'
        f'<td class="num">{sum_total}</td><td class="num">{sum_applied}</td><td class="num">{sum_marked}</td>'
        f'<td class="num">{f"{total_seconds:.2f}" if any_seconds else ""}</td></tr>'
    )
    num_width = min(max(7, len(str(sum_total))), 9)  # the heads' words (applied) and the sort arrow
    # the name column takes what is left; a long name is cut at its start (its end names the file)
    cols = (
        '<col class="name"><col style="width:7em">'
        # wider counts wrap after the slash rather than widen the table
        + "".join(f'<col style="width:{min(widths[k], 6) + 2}ch">' for k in kinds)
        + f'<col style="width:{num_width + 1}ch">' * 3
        + '<col style="width:8.5ch">'
    )
    head_kinds = "".join(
        f'<th class="num fam" data-kind="{_esc(k)}" data-type="num" scope="col" tabindex="0" aria-label="{_esc(k)}"'
        f' title="{_esc(k)}: {_esc(_ABOUT.get(k, ""))}; applied / left marked (click to sort)">'
        f'<span class="swatch">{_esc(_SHORT.get(k, k))}</span></th>'
        for k in kinds
    )
    failed = _int(summary.get("failed"))
    return f"""<!DOCTYPE html>
<html lang="zh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="repair">
<title>repair reports — {len(files)} files</title>
<style>{_CSS}
{_kind_css(kinds)}
</style>
</head>
<body class="index">
<header class="page">
<h1>Repair reports</h1>
<p class="meta"><span>{len(files)} files repaired</span><span>{failed} failed</span>
<span>each family column: applied / left marked (hover a head for the family's full name)</span>
<span>click a column head to sort</span></p>
{_summary_chart(kinds, totals["applied"], totals["marked"], totals["detected"])}
<label>Filter by file name: <input type="search" id="file-filter" placeholder="part of a path"></label>
<span id="visible-files" aria-live="polite">{len(files)} of {len(files)} files</span>
</header>
<div class="index-wrap">
<table class="files">
<colgroup>{cols}</colgroup>
<thead><tr><th scope="col" tabindex="0" data-type="text"
 title="input file (hover a name for its output; click to sort)">input</th>
<th scope="col" tabindex="0" data-type="text" title="the codec the input was decoded with">encoding</th>{head_kinds}
<th class="num" scope="col" tabindex="0" data-type="num" title="edits in the file: applied + left marked">total</th>
<th class="num" scope="col" tabindex="0" data-type="num" title="edits applied to the text">applied</th>
<th class="num" scope="col" tabindex="0" data-type="num" title="edits left marked, text unchanged">marked</th>
<th class="num" scope="col" tabindex="0" data-type="num" title="seconds spent on the file">sec.</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
<tfoot>{total_row}</tfoot>
</table>
</div>
<script>{_INDEX_JS}</script>
</body>
</html>
"""


def _page_path(relative_name: str) -> PurePosixPath:
    """Where a file's page goes under html/; refuses names that would land outside it or on the index."""
    rel = PurePosixPath(relative_name.replace("\\", "/"))
    if rel.is_absolute() or not rel.parts or any(p in ("", ".", "..") for p in rel.parts):
        raise ValueError(f"{relative_name!r}: not a relative file name inside the report folder")
    page = rel.with_name(rel.name + ".html")
    if page == PurePosixPath("index.html"):  # a file called "index" must not overwrite the index page
        page = PurePosixPath("index_.html")
    return page


def page_href(relative_name: str) -> str:
    """A file's page address relative to the index (percent-encoded)."""
    return "/".join(quote(p) for p in _page_path(relative_name).parts)


def write_file_page(
    report_dir: Path, report: dict[str, Any], output_text: str, relative_name: str, *, title: str | None = None
) -> str:
    """Write one file's page under ``<report_dir>/html/``; returns its href relative to the index.

    A batch worker writes its own file's page, so pages cost no memory in the
    parent; the parent then writes the index once.
    """
    page = _page_path(relative_name)
    up = "../" * (len(page.parts) - 1)
    body = render_file(report, output_text, title=title, index_href=up + "index.html")
    write_atomic(Path(report_dir) / "html" / Path(*page.parts), body.encode("utf-8"))
    return "/".join(quote(p) for p in page.parts)


def write_index(report_dir: Path, summary: dict[str, Any], pages: dict[str, str]) -> None:
    """Write ``<report_dir>/html/index.html``; ``pages`` maps input path → href."""
    index_pages = [(str(f.get("input")), pages.get(str(f.get("input")), "")) for f in summary.get("files") or []]
    write_atomic(Path(report_dir) / "html" / "index.html", render_index(summary, index_pages).encode("utf-8"))


def write_html_reports(report_dir: Path, items: list[tuple[dict[str, Any], str, str]], summary: dict[str, Any]) -> None:
    """Write ``html/<relative_name>.html`` per file and ``html/index.html``, each atomically.

    Links are relative and percent-encoded, so the folder works from disk
    (file://) and keeps working when moved or archived as a whole.
    """
    pages = {
        str((report.get("input") or {}).get("path")): write_file_page(report_dir, report, output_text, relative_name)
        for report, output_text, relative_name in items
    }
    write_index(report_dir, summary, pages)
