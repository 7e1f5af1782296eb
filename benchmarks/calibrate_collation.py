"""How often a gap read by collation is right: the confidences of ``repair.fill.collation``
and of the lost characters found by the alignment (``repair.fill.deletions.collated``).

The main benchmark's kind of documents (seeds 1 and 2 by default, never the
benchmark's seed 0) are repaired against each kind of realistic witness
(``witnesses.py``: the exact copy, another edition, an edition with notes, a
commentary quoting the text) with every collation reading written, whatever
its confidence; each written reading is compared with the truth: exact, the
right word in another form (same ``variant_class``), or wrong.  Lost characters
are written only against copies of the same edition, so the exact copy, the
copy with notes and the commentary are given as such (``same_edition``); what
the alignment finds against another edition is tallied too, as reported.

    python benchmarks/calibrate_collation.py --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corrupt import generate_documents, held_out_paragraphs
from witnesses import KINDS, make_witness

from repair import Repairer
from repair.fill import collation, deletions
from repair.variants import variant_class

OUT = Path(__file__).resolve().parent / "results" / "calibration_collation.json"


def _run_outcome(doc, e) -> str:
    """Whether a byte-shifted run read whole is the clean text over the same span:
    exact, right but for the characters left marked (each slot one character, or
    none where the copy has one the document lacks), or wrong."""
    for d in doc.damages:
        end = d.offset + len(d.damaged)
        if d.family == "byte_shift" and e.start <= d.offset and end <= e.end:
            want = doc.damaged[e.start : d.offset] + d.clean + doc.damaged[end : e.end]
            if e.after == want:
                return "exact"
            slots = {s.offset for s in e.slots}
            pattern = "".join(".?" if i in slots else re.escape(c) for i, c in enumerate(e.after))
            return "marked" if slots and re.fullmatch(pattern, want, re.S) else "wrong"
    return "not a damaged run"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    collation.COLLATION_CONFIDENCE = 1.0  # write every reading whose form is known
    deletions.ALIGNED_SAME_EDITION_CONFIDENCE = 1.0
    paras = held_out_paragraphs(args.corpus)
    tally: dict[str, Counter] = {}
    lost: dict[str, Counter] = {}
    runs: dict[str, Counter] = {}
    codec_runs: dict[str, Counter] = {}
    for seed in args.seeds:
        docs = generate_documents(paras, args.docs, seed)
        for kind in KINDS:
            count = tally.setdefault(kind, Counter())
            found = lost.setdefault(kind, Counter())
            for i, doc in enumerate(docs):
                witness = make_witness(kind, doc, i, paras, seed)
                result = Repairer(references=(witness.text,), same_edition=kind != "edition").repair_text(doc.damaged)
                truth = {(d.offset, d.offset + len(d.damaged)): d.clean for d in doc.damages}
                # A run of marks may hold several damaged pieces side by side (くく for 悱悱).
                for a, b in itertools.pairwise(doc.damages):
                    if b.offset == a.offset + len(a.damaged) and a.damaged and b.damaged:
                        truth.setdefault((a.offset, b.offset + len(b.damaged)), a.clean + b.clean)
                for e in result.edits:
                    if "byte_witness" in e.detail:
                        runs.setdefault(kind, Counter())[_run_outcome(doc, e)] += 1
                    if "collation" not in e.detail:
                        continue
                    if e.kind == "codec_confusion":
                        want = truth.get((e.start, e.end))
                        codec_runs.setdefault(kind, Counter())["exact" if e.after == want else "wrong"] += 1
                        continue
                    if e.kind == "deletion":
                        want = truth.get((e.start, e.end))
                        got = e.candidates[0].text
                        found[
                            "right"
                            if want == got
                            else "variant form"
                            if want and variant_class(want) == variant_class(got)
                            else "wrong"
                        ] += 1
                        continue
                    if not e.applied:
                        continue
                    want = truth.get((e.start, e.end))
                    if want is None:
                        count["not a damaged piece"] += 1
                    elif e.after == want:
                        count["exact"] += 1
                    elif len(e.after) == len(want) and all(
                        variant_class(a) == variant_class(b) for a, b in zip(e.after, want, strict=True)
                    ):
                        count["variant form"] += 1
                    else:
                        count["wrong"] += 1
            print(seed, kind, dict(count), dict(found), flush=True)
    total = sum(tally.values(), Counter())
    n = sum(total.values())
    right = total["exact"]
    same = sum((v for k, v in lost.items() if k != "edition"), Counter())
    m = sum(same.values())
    results = {
        "seeds": args.seeds,
        "docs": args.docs,
        "by_kind": {k: dict(v) for k, v in tally.items()},
        "total": dict(total),
        "observed_accuracy": round((right + 1) / (n + 2), 4) if n else None,
        "lost_characters_by_kind": {k: dict(v) for k, v in lost.items()},
        "lost_characters_same_edition": dict(same),
        "lost_characters_observed_accuracy": round((same["right"] + 1) / (m + 2), 4) if m else None,
        # Byte-shifted runs read whole from the reference (exactly, from where the
        # alignment puts them, or through another edition's forms, marks and notes).
        "byte_shifted_runs_by_kind": {k: dict(v) for k, v in runs.items()},
        # Lossy mojibake runs read whole from a copy of the same edition.
        "codec_runs_by_kind": {k: dict(v) for k, v in codec_runs.items()},
    }
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
