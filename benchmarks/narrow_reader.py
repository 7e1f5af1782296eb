"""Whole paragraphs read with a narrower code page than they were written in.

The main benchmark (``run_benchmark.py``) damages one piece at a time.  This
one runs the lost-lead-byte channel forward on whole held-out paragraphs, as
a user's file meets it: GBK read as GB2312 (simplified text), Big5-HKSCS read
as Big5 (traditional text), GB18030 read as GBK (either).  Every character the
reader lacks is damaged at once, in all three ways a reader shows it: a mark
and the surviving ASCII byte (``�R``), two marks (``��``, a trail byte of
0x80-0xA0), or a mark and a stretch read one byte late up to the next mark.
Only paragraphs that lack one to three distinct characters are used (a text
that lacks more is not worth reading this way).

It reports the character error rate before and after ``repair_text`` with
default settings, the paragraphs that come back exactly, and those made worse.
Numbers only are saved (``--out``); no corpus text is written.

    python benchmarks/narrow_reader.py --corpus ../shared/corpus --paragraphs 300
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import opencc
from corrupt import held_out_paragraphs, is_han
from rapidfuzz.distance import Levenshtein

import repair
from repair.channel.forward import encodable

# (script, reader, source): the file was written in ``source`` and read with ``reader``.
CHANNELS = (
    ("simplified", "gb2312", "gbk"),
    ("traditional", "big5", "big5hkscs"),
    ("simplified", "gbk", "gb18030"),
    ("traditional", "gbk", "gb18030"),
)
MAX_CHARS = 400


def cases(corpus: Path, per_channel: int, seed: int) -> list[tuple[str, str, str]]:
    """(channel label, clean paragraph, what the reader shows) for each channel."""
    paras = [t[:MAX_CHARS] for _, _, t in held_out_paragraphs(corpus)]
    random.Random(seed).shuffle(paras)
    t2s = opencc.OpenCC("t2s")
    out = []
    for script, reader, source in CHANNELS:
        label = f"{source} read as {reader} ({script})"
        found = 0
        for para in paras:
            clean = t2s.convert(para) if script == "simplified" else para
            lacking = {c for c in clean if not encodable(c, reader)}
            if not 1 <= len(lacking) <= 3 or not all(is_han(c) for c in lacking) or not encodable(clean, source):
                continue
            out.append((label, clean, clean.encode(source).decode(reader, errors="replace")))
            found += 1
            if found == per_channel:
                break
    return out


MARKS = set("\ufffd?〓")


def wrong_characters(repaired: str, clean: str, damaged: str) -> int:
    """Characters the repair wrote that differ from the clean text: output
    characters aligned to a different clean character (or to none), which were
    not already there in the damaged text and are not marks left for a reader."""
    shown = set(damaged)
    wrong = 0
    for tag, i1, i2, _, _ in Levenshtein.opcodes(repaired, clean).as_list():
        if tag in ("replace", "delete"):
            wrong += sum(c not in MARKS and c not in shown for c in repaired[i1:i2])
    return wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--paragraphs", type=int, default=300, help="paragraphs per channel")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "narrow_reader.json")
    args = ap.parse_args()
    repairer = repair.Repairer()
    rows: dict[str, Counter] = {}
    for label, clean, damaged in cases(args.corpus, args.paragraphs, args.seed):
        result = repairer.repair_text(damaged)
        before = Levenshtein.distance(damaged, clean)
        after = Levenshtein.distance(result.text, clean)
        row = rows.setdefault(label, Counter())
        row["paragraphs"] += 1
        row["clean_chars"] += len(clean)
        row["errors_before"] += before
        row["errors_after"] += after
        row["exact"] += result.text == clean
        row["worse"] += after > before
        row["wrong_chars"] += wrong_characters(result.text, clean, damaged)
        for e in result.edits:
            row[f"edits:{e.kind}"] += 1
            row[f"applied:{e.kind}"] += e.applied
    report = {"seed": args.seed, "channels": {k: dict(v) for k, v in rows.items()}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print("| channel | paragraphs | char errors before → after | removed | exact | worse | wrong characters written |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for label, r in rows.items():
        removed = 1 - r["errors_after"] / max(1, r["errors_before"])
        print(
            f"| {label} | {r['paragraphs']} | {r['errors_before']:,} → {r['errors_after']:,} | {removed:.0%} "
            f"| {r['exact']} | {r['worse']} | {r['wrong_chars']} |"
        )


if __name__ == "__main__":
    sys.exit(main())
