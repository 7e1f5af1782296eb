"""Write the language model's training text: one line per stretch, characters space-joined.

Tokens are Han characters only (the Han projection): punctuation, white space,
Latin letters and digits are dropped, so a character's context runs across
punctuation the way it runs in the mostly unpunctuated corpus.  〓 and □ mark
characters missing from the source edition: the text is cut there, so no
n-gram spans an unknown character.  Long paragraphs are cut into lines of at
most MAX_LINE characters.  Only the training part of the split is written
(see corpus_split.py); ``--held-out`` writes the evaluation part instead.

    python scripts/prepare_lm_corpus.py ../shared/corpus -o train.txt [--script traditional|simplified]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_split import paragraphs

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af"
CUT_RE = re.compile("[〓□■囗]")
NON_HAN_RE = re.compile(f"[^{HAN}]")
MAX_LINE = 200


def han_lines(text: str) -> list[str]:
    out = []
    for piece in CUT_RE.split(text):
        han = NON_HAN_RE.sub("", piece)
        for i in range(0, len(han), MAX_LINE):
            chunk = han[i : i + MAX_LINE]
            if len(chunk) >= 2:
                out.append(chunk)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--script", choices=("traditional", "simplified"), default="traditional")
    ap.add_argument("--held-out", action="store_true")
    args = ap.parse_args()
    convert = None
    if args.script == "simplified":
        import opencc

        convert = opencc.OpenCC("t2s").convert
    n = 0
    with args.output.open("w", encoding="utf-8") as out:
        for _name, _no, text in paragraphs(args.corpus, held_out=args.held_out):
            if convert:
                text = convert(text)
            for line in han_lines(text):
                out.write(" ".join(line) + "\n")
                n += len(line)
    print(f"{n} characters", file=sys.stderr)


if __name__ == "__main__":
    main()
