"""Generate repair/data/punctfreq.tsv: how often each punctuation mark is written.

A character lost at the end of a line is very often punctuation, and the
channel leaves several marks that fit the bytes that survive (UTF-8 ， ？ （
share their first two bytes).  The character model sees Han characters only,
so the re-decoding search weighs marks by this table: log10 of each mark's
share among the punctuation of the training part of the corpus, with a floor
for marks it never writes.

    python scripts/build_punctuation_table.py ../shared/corpus -o repair/data/punctfreq.tsv
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from repair.lm.split import paragraphs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    for _name, _line, para in paragraphs(args.corpus, held_out=False):
        counts.update(c for c in para if unicodedata.category(c).startswith("P"))
    total = sum(counts.values())
    with args.output.open("w", encoding="utf-8") as fh:
        fh.write(f"# punctuation marks of the corpus's training part: mark, count, log10 share ({total:,} marks)\n")
        for ch, n in counts.most_common():
            if n >= 5:
                fh.write(f"{ch}\t{n}\t{math.log10(n / total):.3f}\n")


if __name__ == "__main__":
    main()
