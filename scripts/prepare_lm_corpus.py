"""Write the language model's training (or held-out) text, as ``repair train-lm`` does.

Useful to run KenLM's tools by hand on exactly the text the shipped model saw:

    python scripts/prepare_lm_corpus.py ../shared/corpus -o train.txt [--held-out] [--script simplified]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from repair.lm.split import corpus_files, is_held_out
from repair.lm.tokens import to_simplified, training_lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--script", choices=("as-is", "simplified"), default="as-is")
    ap.add_argument("--held-out", action="store_true", help="write the held-out 5%% instead of the training part")
    args = ap.parse_args()
    tokens = 0
    with args.output.open("w", encoding="utf-8") as out:
        for path in corpus_files(args.corpus):
            with path.open(encoding="utf-8") as fh:
                for no, paragraph in enumerate(fh):
                    if is_held_out(path.name, no) != args.held_out:
                        continue
                    if args.script == "simplified":
                        paragraph = to_simplified(paragraph)
                    for line in training_lines(paragraph):
                        out.write(line + "\n")
                        tokens += (len(line) + 1) // 2
    print(f"{tokens} tokens", file=sys.stderr)


if __name__ == "__main__":
    main()
