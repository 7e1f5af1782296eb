"""Witnesses that are not exact copies: the main benchmark's documents repaired against other editions.

Each damaged document of ``corrupt.generate_documents`` (the main benchmark's,
same seed) is repaired once per kind of reference ``witnesses.py`` makes: an
exact copy, another edition (variant forms, other punctuation), an edition
with notes printed in the text, and a commentary quoting the text in pieces.
Every repair gets that one reference, ``Repairer(references=(witness,))``,
by default not as ``same_edition``; with ``--same-edition`` the copies of the
document's own edition (the exact copy, the copy with notes, the commentary's
quotations: all but ``edition``) are given as such, as a user who knows it
would, so lost characters the alignment finds are written.

Pieces are scored as ``run_benchmark.py`` scores them, per damage family.  A
piece whose output differs from the clean text only by variant forms (the same
``repair.variants.variant_class`` at every character: 為 written where the
document has 爲) is counted as *variant form*, apart from exact restores and
from wrong repairs.  Results (numbers only) go to
``benchmarks/results/witness.json``; a Markdown table is printed.

    python benchmarks/witness_benchmark.py --corpus ../shared/corpus --docs 200
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

from corrupt import FAMILIES, CorruptedDocument, generate_documents, held_out_paragraphs
from rapidfuzz.distance import Levenshtein
from run_benchmark import EditView, Tally, _pct, chunks, edit_views, score_document, source_state, table
from witnesses import KINDS, make_witness

import repair
from repair.variants import variant_class

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "witness.json"
# The families a witness can restore: the lost characters.  The others are
# repaired from the damage itself and are listed in the JSON only.
WITNESSED = (
    "question_mark",
    "replacement_char",
    "split_char",
    "private_use",
    "foreign_symbol",
    "placeholder",
    "deletion",
    "byte_shift",
)
CATEGORIES = ("restored", "variant", "holes_marked", "wrong", "marked", "missed")

_MODEL = None


def _model():
    global _MODEL
    if _MODEL is None:
        _MODEL = repair.Repairer().lm
    return _MODEL


def repair_with(items: Sequence[tuple[str, str, bool]]) -> list[tuple[str, list[EditView]]]:
    """Repair each (text, reference, same edition) item; runs in a worker process."""
    out = []
    for text, reference, same in items:
        result = repair.Repairer(model=_model(), references=(reference,), same_edition=same).repair_text(text)
        out.append((result.text, edit_views(result.edits)))
    return out


def repair_all(items: Sequence[tuple[str, str, bool]], jobs: int) -> list[tuple[str, list[EditView]]]:
    batches = list(chunks(items, 20_000))
    if jobs <= 1:
        return [r for b in batches for r in repair_with(b)]
    with Pool(jobs) as pool:
        return [r for got in pool.imap(repair_with, batches) for r in got]


def fold(text: str) -> str:
    """Each character as its variant group's key (the same length)."""
    return "".join(map(variant_class, text))


def folded_document(doc: CorruptedDocument) -> CorruptedDocument:
    """The document with every character folded, so that scoring it tells
    which repairs are right up to variant forms; offsets do not move."""
    damages = tuple(replace(d, clean=fold(d.clean), damaged=fold(d.damaged)) for d in doc.damages)
    return replace(doc, clean=fold(doc.clean), damaged=fold(doc.damaged), damages=damages)


def in_reference(witness, start: int, end: int) -> bool:
    """Whether the clean text's ``start:end`` (a damaged piece's passage) is in the witness: a
    commentary quotes only some pieces of the text; the other kinds hold all of it."""
    if witness is None or witness.kind != "commentary":
        return True
    return any(a <= start and end <= b for a, b in witness.pieces)


def score_kind(
    docs: Sequence[CorruptedDocument], results: Sequence[tuple[str, list[EditView]]], witnesses: Sequence = ()
) -> dict:
    tallies: dict[str, Tally] = defaultdict(Tally)
    categories: dict[str, Counter] = defaultdict(Counter)
    # The same outcomes for the pieces whose passage the witness holds.
    held: Counter = Counter()
    before = after = after_folded = clean_chars = 0
    for n, (doc, (output, edits)) in enumerate(zip(docs, results, strict=True)):
        witness = witnesses[n] if witnesses else None
        clean_chars += len(doc.clean)
        before += Levenshtein.distance(doc.damaged, doc.clean)
        after += Levenshtein.distance(output, doc.clean)
        after_folded += Levenshtein.distance(fold(output), fold(doc.clean))
        exact, _ = score_document(doc, output, edits)
        folded, _ = score_document(folded_document(doc), fold(output), edits)
        for o, f in zip(exact, folded, strict=True):
            family = o.damage.family
            tallies[family].add(o)
            variant = o.outcome != "restored" and f.outcome == "restored"
            categories[family]["variant" if variant else o.outcome] += 1
            d = o.damage
            if family in WITNESSED and in_reference(witness, d.clean_offset, d.clean_offset + len(d.clean)):
                held["instances"] += 1
                held["variant" if variant else o.outcome] += 1
    families = {}
    for family in FAMILIES:
        t = tallies[family].as_dict()
        n = max(1, t["instances"])
        c = categories[family]
        families[family] = {
            "instances": t["instances"],
            **{k: c[k] for k in CATEGORIES},
            "restored_rate": c["restored"] / n,
            "variant_rate": c["variant"] / n,
            "detected": t["detected"],
            "char_errors_before": t["char_errors_before"],
            "char_errors_after": t["char_errors_after"],
            "chars_written": t["chars_written"],
            "wrong_chars": t["wrong_chars"],
        }
    return {
        "clean_chars": clean_chars,
        "char_errors_before": before,
        "char_errors_after": after,
        "char_errors_after_up_to_variants": after_folded,
        "cer_before": before / clean_chars,
        "cer_after": after / clean_chars,
        "families": families,
        "in_reference": dict(held),
    }


def witness_stats(witnesses: Sequence, docs: Sequence[CorruptedDocument]) -> dict:
    clean = sum(len(d.clean) for d in docs)
    return {
        "chars": sum(len(w.text) for w in witnesses),
        "chars_per_clean_char": sum(len(w.text) for w in witnesses) / clean,
        "variant_swaps": sum(len(w.swaps) for w in witnesses),
        "notes": sum(len(w.notes) for w in witnesses),
        "quoted_pieces": sum(len(w.pieces) for w in witnesses),
    }


def render(results: dict) -> str:
    kinds = list(results["kinds"])
    fams = results["kinds"][kinds[0]]["families"]
    header = ["family", "instances", *kinds]
    rows = []
    for family in WITNESSED:
        cells = [family, str(fams[family]["instances"])]
        for kind in kinds:
            f = results["kinds"][kind]["families"][family]
            cells.append(f"{_pct(f['restored_rate'])} · {f['variant']} · {f['wrong']} · {f['marked']}")
        rows.append(cells)
    totals = ["all eight", str(sum(fams[f]["instances"] for f in WITNESSED))]
    for kind in kinds:
        fs = results["kinds"][kind]["families"]
        n = sum(fs[f]["instances"] for f in WITNESSED)
        restored = sum(fs[f]["restored"] for f in WITNESSED)
        parts = [sum(fs[f][k] for f in WITNESSED) for k in ("variant", "wrong", "marked")]
        totals.append(f"{_pct(restored / max(1, n))} · {parts[0]} · {parts[1]} · {parts[2]}")
    rows.append(totals)
    held = ["all eight, passage in the reference", ""]
    for kind in kinds:
        h = results["kinds"][kind].get("in_reference", {})
        n = h.get("instances", 0)
        held.append(
            f"{_pct(h.get('restored', 0) / max(1, n))} of {n} · {h.get('variant', 0)} · {h.get('wrong', 0)}"
            f" · {h.get('marked', 0)}"
        )
    rows.append(held)
    cer = ["character error rate after", ""]
    cer += [_pct(results["kinds"][k]["cer_after"]) for k in kinds]
    rows.append(cer)
    cfg = results["config"]
    return "\n".join(
        [
            f"Witness kinds on {cfg['docs']} damaged documents (seed {cfg['seed']})"
            + (", copies of the same edition given as such" if cfg.get("same_edition") else "")
            + "; each cell: restored exactly · "
            "restored in a variant form · wrong · left marked.",
            "",
            table(header, rows, markdown=True),
        ]
    )


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=200, help="damaged documents (the main benchmark's)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the documents and of the witnesses")
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"witness kinds, of {','.join(KINDS)}")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument(
        "--same-edition", action="store_true", help="give the copies of the same edition (all but 'edition') as such"
    )
    ap.add_argument("--out", type=Path, default=None, help=f"default {DEFAULT_OUT.name} (or witness_same_edition.json)")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if args.out is None:
        args.out = DEFAULT_OUT.with_name("witness_same_edition.json") if args.same_edition else DEFAULT_OUT
    t0 = time.perf_counter()
    paras = held_out_paragraphs(args.corpus)
    if not paras:
        ap.error(f"no corpus text under {args.corpus}")
    docs = generate_documents(paras, args.docs, args.seed)
    _log(f"generated {len(docs)} documents", t0)
    results: dict = {
        "config": {
            "docs": args.docs,
            "seed": args.seed,
            "same_edition": args.same_edition,
            "corpus_split": "held-out 5% (repair/lm/split.py)",
            "repair_version": repair.__version__,
            "repair_source": source_state(),
        },
        "kinds": {},
        "witnesses": {},
    }
    for kind in kinds:
        witnesses = [make_witness(kind, d, i, paras, args.seed) for i, d in enumerate(docs)]
        same = args.same_edition and kind != "edition"
        outputs = repair_all([(d.damaged, w.text, same) for d, w in zip(docs, witnesses, strict=True)], args.jobs)
        results["kinds"][kind] = score_kind(docs, outputs, witnesses)
        results["witnesses"][kind] = witness_stats(witnesses, docs)
        _log(f"{kind}: repaired and scored", t0)
    results["seconds"] = round(time.perf_counter() - t0, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    _log(f"saved {args.out}", t0)
    print(render(results))
    return results


def _log(msg: str, t0: float) -> None:
    print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
