"""The repair-quality benchmark of DESIGN.md ("Measures"): synthetic damage of every family.

It answers three questions on text the toolkit never saw (the held-out split
of the corpus):

* how much of the damage is gone: character error rate against the clean text,
  before and after ``repair.repair_text``, over all documents;
* per family: is the damage found (an edit of that kind over it), put back
  exactly, repaired wrongly, left marked for a human, or missed;
* does it touch clean text: edits per million characters of clean held-out
  text, traditional and OpenCC-simplified (the target is zero applied edits).

Ground truth comes from ``corrupt.py``, which builds each document from clean
and damaged pieces.  Results are saved as JSON (numbers only: no corpus text is
written, so the file can be committed) and printed as tables.

    python benchmarks/run_benchmark.py --corpus ../shared/corpus --docs 200 --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

import opencc
from corrupt import FAMILIES, CorruptedDocument, Damage, generate_documents, held_out_paragraphs
from rapidfuzz.distance import Levenshtein

import repair

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "latest.json"
# 〓 and □ are how the corpus editions mark characters they could not print:
# a placeholder detection on them is true, so it is counted apart.
GENUINE_PLACEHOLDERS = set("〓□")
GENUINE_LABEL = "placeholder (genuine 〓/□)"


# --- running the toolkit ----------------------------------------------------


@dataclass(frozen=True)
class EditView:
    """The parts of a ``repair.Edit`` the scoring needs; small to send between processes.

    ``holes`` are (output offset, length) of the placeholders an applied edit
    wrote for characters it could not give back.
    """

    start: int
    end: int
    out_start: int
    out_end: int
    kind: str
    applied: bool
    before: str
    after: str
    holes: tuple[tuple[int, int], ...] = ()


_REPAIRER: repair.Repairer | None = None


def _repairer() -> repair.Repairer:
    global _REPAIRER
    if _REPAIRER is None:
        _REPAIRER = repair.Repairer()
    return _REPAIRER


def repair_batch(texts: Sequence[str | tuple[str, str]]) -> list[tuple[str, list[EditView]]]:
    """Repair each text (or (text, witness text) pair); runs in a worker
    process, so it returns plain records."""
    out = []
    for item in texts:
        if isinstance(item, tuple):
            text, reference = item
            base = _repairer()
            # The witness is the document's own clean text: the same edition.
            result = repair.Repairer(model=base.lm, references=(reference,), same_edition=True).repair_text(text)
        else:
            result = _repairer().repair_text(item)
        out.append((result.text, edit_views(result.edits)))
    return out


def edit_views(edits: Sequence[repair.Edit]) -> list[EditView]:
    """The scoring's view of placed edits (as ``Result.edits`` holds them)."""
    return [
        EditView(
            e.start,
            e.end,
            e.out_start,
            e.out_end,
            e.kind,
            e.applied,
            e.before,
            e.after,
            tuple((e.out_start + s.offset, s.length) for s in e.slots) if e.applied else (),
        )
        for e in edits
    ]


def chunks(texts: Sequence[str], size: int) -> Iterator[list[str]]:
    """Batches of about ``size`` characters, so workers get even loads."""
    batch: list[str] = []
    n = 0
    for t in texts:
        batch.append(t)
        n += len(t[0]) if isinstance(t, tuple) else len(t)
        if n >= size:
            yield batch
            batch, n = [], 0
    if batch:
        yield batch


def repair_all(
    texts: Sequence[str | tuple[str, str]], jobs: int, batch_chars: int = 20_000
) -> list[tuple[str, list[EditView]]]:
    batches = list(chunks(texts, batch_chars))
    if jobs <= 1:
        return [r for b in batches for r in repair_batch(b)]
    with Pool(jobs) as pool:
        return [r for got in pool.imap(repair_batch, batches) for r in got]


# --- scoring damaged documents ----------------------------------------------


def overlaps(a0: int, a1: int, b0: int, b1: int) -> bool:
    """Interval overlap where an empty interval (a deletion, an insertion) counts when it touches."""
    if a0 < b1 and b0 < a1:
        return True
    if a0 == a1:
        return b0 <= a0 <= b1
    if b0 == b1:
        return a0 <= b0 <= a1
    return False


@dataclass
class Outcome:
    """What became of one damaged piece."""

    damage: Damage
    detected: bool  # an edit of the piece's own kind overlaps it
    other_kind: bool  # edits overlap it, none of its kind
    outcome: str  # restored | holes_marked | wrong | marked | missed
    errors_before: int
    errors_after: int
    # Characters the applied edits wrote here (holes apart), and how many of
    # them differ from the clean text: a plausible wrong character is the
    # damage a reader cannot see.
    chars_written: int = 0
    wrong_chars: int = 0


OUTCOMES = ("restored", "holes_marked", "wrong", "marked", "missed")


def score_document(
    doc: CorruptedDocument, output: str, edits: Sequence[EditView]
) -> tuple[list[Outcome], list[EditView]]:
    """Outcomes of every damaged piece, and the edits that touch no damage (false edits).

    A piece is judged on the smallest stretch of the input that contains it
    and every edit and piece overlapping it, so that an edit reaching past the
    piece (a codec-confusion run that starts two characters early) is judged
    on what it really wrote.  The stretch's output position comes from the
    edits' ``start/end/out_start/out_end``.
    """
    text = doc.damaged
    pieces = [(d.offset, d.offset + len(d.damaged), d) for d in doc.damages]
    touched: set[int] = set()
    counted: set[tuple[int, int]] = set()
    outcomes = []
    for d in doc.damages:
        a, b = d.offset, d.offset + len(d.damaged)
        if not d.damaged and d.clean:
            # A character deleted from a run of itself (使使 → 使) is put back
            # exactly at any place in the run: the piece is the whole run.
            while a > 0 and text[a - 1] == d.clean:
                a -= 1
            while b < len(text) and text[b] == d.clean:
                b += 1
        direct = [e for e in edits if overlaps(a, b, e.start, e.end)]
        members: dict[int, EditView] = {}
        inner: dict[int, Damage] = {id(d): d}
        changed = True
        while changed:
            changed = False
            for k, e in enumerate(edits):
                if k not in members and overlaps(a, b, e.start, e.end):
                    members[k] = e
                    a, b = min(a, e.start), max(b, e.end)
                    changed = True
            for s, t, other in pieces:
                if id(other) not in inner and overlaps(a, b, s, t):
                    inner[id(other)] = other
                    a, b = min(a, s), max(b, t)
                    changed = True
        touched.update(members)
        region = sorted(members.values(), key=lambda e: e.start)
        if region:
            out_a = region[0].out_start - (region[0].start - a)
            last = max(region, key=lambda e: e.end)
            out_b = last.out_end + (b - last.end)
        else:
            out_a = a + sum((e.out_end - e.out_start) - (e.end - e.start) for e in edits if e.end <= a)
            out_b = out_a + (b - a)
        expected = _clean_stretch(text, a, b, inner.values())
        got = output[out_a:out_b]
        applied = [e for e in region if e.applied]
        if got == expected:
            outcome = "restored"
        elif applied and _matches_with_holes(got, out_a, applied, expected):
            outcome = "holes_marked"
        elif applied:
            outcome = "wrong"
        elif direct:
            outcome = "marked"
        else:
            outcome = "missed"
        # A stretch shared by several pieces counts its written characters once.
        written, wrong_chars = _written(got, out_a, applied, expected) if (a, b) not in counted else (0, 0)
        counted.add((a, b))
        outcomes.append(
            Outcome(
                d,
                detected=any(e.kind == d.family for e in direct),
                other_kind=bool(direct) and not any(e.kind == d.family for e in direct),
                outcome=outcome,
                errors_before=Levenshtein.distance(text[a:b], expected),
                errors_after=Levenshtein.distance(got, expected),
                chars_written=written,
                wrong_chars=wrong_chars,
            )
        )
    false_edits = [e for k, e in enumerate(edits) if k not in touched]
    return outcomes, false_edits


def _written(got: str, out_a: int, applied: Sequence[EditView], expected: str) -> tuple[int, int]:
    """(characters the applied edits wrote in ``got``, how many of them the
    alignment with ``expected`` finds wrong), placeholders for holes apart."""
    hole = set()
    for e in applied:
        for start, length in e.holes:
            hole.update(range(start, start + length))
    ours = {p for e in applied for p in range(e.out_start, e.out_end) if out_a <= p < out_a + len(got)} - hole
    wrong = sum(
        1 for op in Levenshtein.editops(got, expected) if op.tag in ("replace", "delete") and out_a + op.src_pos in ours
    )
    return len(ours), wrong


def _clean_stretch(text: str, a: int, b: int, damages: Iterable[Damage]) -> str:
    parts = []
    pos = a
    for d in sorted(damages, key=lambda d: d.offset):
        parts.append(text[pos : d.offset])
        parts.append(d.clean)
        pos = d.offset + len(d.damaged)
    parts.append(text[pos:b])
    return "".join(parts)


def _matches_with_holes(got: str, out_a: int, applied: Sequence[EditView], expected: str) -> bool:
    """Whether ``got`` is ``expected`` once each placeholder the repair left is read as 'some character'."""
    holes = {p - out_a for e in applied for start, length in e.holes for p in range(start, start + length)}
    if not holes:
        return False
    pattern = "".join("." if i in holes else re.escape(c) for i, c in enumerate(got))
    return re.fullmatch(pattern, expected, flags=re.DOTALL) is not None


# --- aggregation ------------------------------------------------------------


@dataclass
class Tally:
    instances: int = 0
    recoverable: int = 0
    detected: int = 0
    other_kind: int = 0
    restored_recoverable: int = 0
    errors_before: int = 0
    errors_after: int = 0
    chars_written: int = 0
    wrong_chars: int = 0
    outcomes: Counter = field(default_factory=Counter)

    def add(self, o: Outcome) -> None:
        self.instances += 1
        self.recoverable += o.damage.recoverable
        self.detected += o.detected
        self.other_kind += o.other_kind
        self.restored_recoverable += o.damage.recoverable and o.outcome == "restored"
        self.errors_before += o.errors_before
        self.errors_after += o.errors_after
        self.chars_written += o.chars_written
        self.wrong_chars += o.wrong_chars
        self.outcomes[o.outcome] += 1

    def as_dict(self) -> dict:
        n = max(1, self.instances)
        return {
            "instances": self.instances,
            "recoverable": self.recoverable,
            "detected": self.detected,
            "detected_rate": self.detected / n,
            "detected_as_other_kind": self.other_kind,
            **{o: self.outcomes[o] for o in OUTCOMES},
            "restored_rate": self.outcomes["restored"] / n,
            "restored_of_recoverable": self.restored_recoverable,
            "restored_of_recoverable_rate": self.restored_recoverable / max(1, self.recoverable),
            "wrong_rate": self.outcomes["wrong"] / n,
            "char_errors_before": self.errors_before,
            "char_errors_after": self.errors_after,
            "char_errors_removed_rate": 1 - self.errors_after / self.errors_before if self.errors_before else None,
            "chars_written": self.chars_written,
            "wrong_chars": self.wrong_chars,
        }


def damaged_benchmark(docs: Sequence[CorruptedDocument], jobs: int, witness: bool = False) -> dict:
    """With ``witness``, each document is repaired with its clean text as a
    reference: another copy of the same passage, as a batch of the same
    classic or a user's --reference provides."""
    results = repair_all([(d.damaged, d.clean) if witness else d.damaged for d in docs], jobs)
    per_family: dict[str, Tally] = defaultdict(Tally)
    per_variant: dict[str, Tally] = defaultdict(Tally)
    false_edits: dict[str, Counter] = defaultdict(Counter)
    clean_chars = before = after = 0
    for doc, (output, edits) in zip(docs, results, strict=True):
        clean_chars += len(doc.clean)
        before += Levenshtein.distance(doc.damaged, doc.clean)
        after += Levenshtein.distance(output, doc.clean)
        outcomes, spurious = score_document(doc, output, edits)
        for o in outcomes:
            per_family[o.damage.family].add(o)
            if o.damage.variant:
                per_variant[f"{o.damage.family}[{o.damage.variant}]"].add(o)
        for e in spurious:
            kind = _bucket(e)
            false_edits[kind]["detections"] += 1
            false_edits[kind]["applied"] += e.applied
    return {
        "documents": len(docs),
        "clean_chars": clean_chars,
        "damaged_chars": sum(len(d.damaged) for d in docs),
        "cer_before": before / clean_chars,
        "cer_after": after / clean_chars,
        "char_errors_before": before,
        "char_errors_after": after,
        "families": {f: per_family[f].as_dict() for f in FAMILIES},
        "variants": {k: per_variant[k].as_dict() for k in sorted(per_variant)},
        "edits_outside_damage": {k: dict(v) for k, v in sorted(false_edits.items())},
    }


def _bucket(e: EditView) -> str:
    if e.kind == "placeholder" and set(e.before) <= GENUINE_PLACEHOLDERS:
        return GENUINE_LABEL
    return e.kind


# --- clean text ---------------------------------------------------------------


def clean_texts(paras: Sequence[tuple[str, int, str]], chars: int) -> list[str]:
    """Held-out paragraphs in corpus order until ``chars`` characters."""
    out: list[str] = []
    n = 0
    for _, _, text in paras:
        if n >= chars:
            break
        out.append(text)
        n += len(text)
    if n < chars:
        print(f"warning: the held-out split has only {n:,} characters", file=sys.stderr)
    return out


def false_edit_benchmark(texts: Sequence[str], jobs: int) -> dict:
    """Edits on clean text per million characters, per family: every one of them is false
    (except placeholders on the corpus's own 〓/□ marks, counted apart)."""
    results = repair_all(texts, jobs)
    chars = sum(len(t) for t in texts)
    counts: dict[str, Counter] = defaultdict(Counter)
    for _, edits in results:
        for e in edits:
            kind = _bucket(e)
            counts[kind]["detections"] += 1
            counts[kind]["applied"] += e.applied
    return {"paragraphs": len(texts), **per_million_summary(counts, chars)}


def per_million_summary(counts: dict[str, Counter], chars: int) -> dict:
    """Detections and applied edits per family per million characters; the
    corpus's own placeholders are counted apart, as true detections."""
    per_million = 1e6 / max(1, chars)
    families = {}
    for kind in [*FAMILIES, GENUINE_LABEL]:
        c = counts.get(kind, Counter())
        families[kind] = {
            "detections": c["detections"],
            "applied": c["applied"],
            "detections_per_million": c["detections"] * per_million,
            "applied_per_million": c["applied"] * per_million,
        }
    false_total = [v for k, v in families.items() if k != GENUINE_LABEL]
    return {
        "chars": chars,
        "families": families,
        "total_detections_per_million": sum(v["detections"] for v in false_total) * per_million,
        "total_applied_per_million": sum(v["applied"] for v in false_total) * per_million,
    }


# --- reporting ----------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> str:
    if markdown:
        lines = [
            "| " + " | ".join(header) + " |",
            "|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|",
        ]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return "\n".join(fmt.format(*r) for r in [header, *rows])


def render(results: dict, markdown: bool) -> str:
    dam = results["damaged"]
    out = [
        f"Repair quality on {dam['documents']} synthetic documents ({dam['clean_chars']:,} clean characters, "
        f"held-out corpus text, seed {results['config']['seed']}).",
        "",
        f"**Character error rate: {_pct(dam['cer_before'])} before → {_pct(dam['cer_after'])} after repair** "
        f"({dam['char_errors_before']:,} → {dam['char_errors_after']:,} character edits to the clean text).",
        "",
    ]
    header = [
        "family",
        "instances",
        "detected",
        "restored",
        "restored (recoverable)",
        "holes marked",
        "wrong",
        "wrong chars written",
        "left marked",
        "missed",
        "errors removed",
    ]
    rows = []
    for fam, t in dam["families"].items():
        rows.append(
            [
                fam,
                str(t["instances"]),
                _pct(t["detected_rate"]),
                _pct(t["restored_rate"]),
                f"{t['restored_of_recoverable']}/{t['recoverable']}" if t["recoverable"] else "–",
                str(t["holes_marked"]),
                str(t["wrong"]),
                f"{t.get('wrong_chars', 0)} of {t.get('chars_written', 0):,}",
                str(t["marked"]),
                str(t["missed"]),
                _pct(t["char_errors_removed_rate"]),
            ]
        )
    out += [table(header, rows, markdown), ""]
    variant_rows = [
        [
            k.replace("codec_confusion", "codec").replace("byte_shift", "byte shift"),
            str(t["instances"]),
            str(t["recoverable"]),
            _pct(t["detected_rate"]),
            _pct(t["restored_rate"]),
            f"{t['restored_of_recoverable']}/{t['recoverable']}" if t["recoverable"] else "–",
            str(t["holes_marked"]),
            str(t["wrong"]),
            _pct(t["char_errors_removed_rate"]),
        ]
        for k, t in dam["variants"].items()
        if k.startswith(("codec_confusion[", "byte_shift[")) or k.endswith("[code+character]")
    ]
    if variant_rows:
        header = ["variant", "instances", "lossless", "detected", "restored", "restored (lossless)"]
        header += ["holes marked", "wrong", "errors removed"]
        out += [
            "Codec confusions by (true → wrong) codec, byte shifts by whether a private-use pair was deleted,"
            " and glyphs spelled in two codes (lossless: the damaged text alone gives the clean text back):",
            "",
            table(header, variant_rows, markdown),
            "",
        ]
    outside = dam["edits_outside_damage"]
    if outside:
        rows = [[k, str(v.get("detections", 0)), str(v.get("applied", 0))] for k, v in outside.items()]
        out += [
            "Edits in the damaged documents that overlap no damage:",
            "",
            table(["family", "detections", "applied"], rows, markdown),
            "",
        ]
    clean = results["clean"]
    trad, simp = clean["traditional"], clean["simplified"]
    out.append(
        f"False edits on clean held-out text, per million characters "
        f"({trad['chars']:,} traditional, {simp['chars']:,} simplified characters):"
    )
    out.append("")
    rows = []
    for fam in trad["families"]:
        t, s = trad["families"][fam], simp["families"][fam]
        if fam.startswith("placeholder (genuine"):
            continue
        rows.append(
            [
                fam,
                f"{t['detections_per_million']:.1f}",
                f"{t['applied_per_million']:.1f}",
                f"{s['detections_per_million']:.1f}",
                f"{s['applied_per_million']:.1f}",
            ]
        )
    rows.append(
        [
            "**all families**" if markdown else "all families",
            f"{trad['total_detections_per_million']:.1f}",
            f"{trad['total_applied_per_million']:.1f}",
            f"{simp['total_detections_per_million']:.1f}",
            f"{simp['total_applied_per_million']:.1f}",
        ]
    )
    g_t = trad["families"][GENUINE_LABEL]
    g_s = simp["families"][GENUINE_LABEL]
    rows.append(
        [
            "placeholder on the corpus's own 〓/□ (true)",
            f"{g_t['detections_per_million']:.1f}",
            f"{g_t['applied_per_million']:.1f}",
            f"{g_s['detections_per_million']:.1f}",
            f"{g_s['applied_per_million']:.1f}",
        ]
    )
    header = ["family", "trad. detections/M", "trad. applied/M", "simp. detections/M", "simp. applied/M"]
    out.append(table(header, rows, markdown))
    return "\n".join(out)


# --- main ---------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> dict:
    """Run the benchmark; returns the results that are also saved as JSON."""
    ap = argparse.ArgumentParser(description="Repair-quality benchmark on synthetic damage of every family.")
    ap.add_argument(
        "--corpus", type=Path, default=Path("../shared/corpus"), help="corpus root (held-out split is used)"
    )
    ap.add_argument("--docs", type=int, default=200, help="number of damaged documents")
    ap.add_argument("--seed", type=int, default=0, help="seed of the damage generator")
    ap.add_argument("--clean-chars", type=int, default=1_000_000, help="clean characters per script for false edits")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--witness", action="store_true", help="give each document its clean text as a reference")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    ap.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="print the tables as Markdown (to PATH if given, else stdout)",
    )
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    paras = held_out_paragraphs(args.corpus)
    if not paras:
        ap.error(f"no corpus text under {args.corpus}")
    docs = generate_documents(paras, args.docs, args.seed)
    _log(f"generated {len(docs)} documents, {sum(len(d.damages) for d in docs)} damaged pieces", t0)
    damaged = damaged_benchmark(docs, args.jobs, args.witness)
    _log("repaired and scored the damaged documents", t0)
    trad = clean_texts(paras, args.clean_chars)
    t2s = opencc.OpenCC("t2s")
    clean = {
        "traditional": false_edit_benchmark(trad, args.jobs),
        "simplified": false_edit_benchmark([t2s.convert(t) for t in trad], args.jobs),
    }
    _log("measured false edits on clean text", t0)
    results = {
        "config": {
            "docs": args.docs,
            "seed": args.seed,
            "clean_chars": args.clean_chars,
            "corpus_split": "held-out 5% (repair/lm/split.py)",
            "repair_version": repair.__version__,
            "repair_source": source_state(),
        },
        "damaged": damaged,
        "clean": clean,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    _log(f"saved {args.out}", t0)
    text = render(results, markdown=args.markdown is not None)
    if args.markdown not in (None, "-"):
        Path(args.markdown).write_text(text + "\n", encoding="utf-8")
    print(text)
    return results


def source_state() -> dict:
    """Which toolkit code was measured: the commit, and whether ``repair/`` had uncommitted changes.

    Read-only git queries; an empty dict outside a git checkout.
    """
    root = Path(repair.__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "repair"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {}
    return {"commit": commit, "uncommitted_changes_in_repair": bool(dirty)}


def _log(msg: str, t0: float) -> None:
    print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
