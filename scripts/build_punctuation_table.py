"""Generate repair/data/punctfreq.tsv and punctcontext.tsv: which punctuation is written where.

A character lost at the end of a line is very often punctuation, and the
channel leaves several marks that fit the bytes that survive (UTF-8 ， ？ （
share their first two bytes).  The character model sees Han characters only,
so the re-decoding search weighs marks by these tables:

- ``punctfreq.tsv``: log10 of each mark's share among the punctuation of the
  training part of the corpus, with a floor for marks it never writes;
- ``punctcontext.tsv``: how often each mark follows a given Han character
  (乎 is followed by ？ far more often than by ，) or mark (。 by 」, hardly
  ever by another 。), and how often it ends a line
  (``$``: a line ends with 。 or ？, hardly ever with ，), for the contexts
  seen often enough to say.

    python scripts/build_punctuation_table.py ../shared/corpus -o repair/data
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from repair.charclass import is_han
from repair.lm.split import paragraphs

LINE_END = "$"
# A context is kept when this many marks were seen in it; a row when seen this often.
MIN_CONTEXT = 30
MIN_ROW = 2


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True, help="the directory written to")
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    context: collections.Counter[tuple[str, str]] = collections.Counter()
    for _name, _line, para in paragraphs(args.corpus, held_out=False):
        para = para.rstrip()
        for i, ch in enumerate(para):
            if not _is_mark(ch):
                continue
            counts[ch] += 1
            if i and (is_han(para[i - 1]) or _is_mark(para[i - 1])):
                context[para[i - 1], ch] += 1
            if i == len(para) - 1:
                context[LINE_END, ch] += 1
    total = sum(counts.values())
    with (args.output / "punctfreq.tsv").open("w", encoding="utf-8") as fh:
        fh.write(f"# punctuation marks of the corpus's training part: mark, count, log10 share ({total:,} marks)\n")
        for ch, n in counts.most_common():
            if n >= 5:
                fh.write(f"{ch}\t{n}\t{math.log10(n / total):.3f}\n")
    per_context: collections.Counter[str] = collections.Counter()
    for (ctx, _ch), n in context.items():
        per_context[ctx] += n
    with (args.output / "punctcontext.tsv").open("w", encoding="utf-8") as fh:
        fh.write(
            "# marks by what precedes them in the corpus's training part: context (a Han character "
            f"or a mark, or {LINE_END} for a mark that ends its line), mark, count\n"
        )
        for (ctx, ch), n in sorted(context.items(), key=lambda kv: (-per_context[kv[0][0]], kv[0][0], -kv[1])):
            if per_context[ctx] >= MIN_CONTEXT and n >= MIN_ROW:
                fh.write(f"{ctx}\t{ch}\t{n}\n")


if __name__ == "__main__":
    main()
