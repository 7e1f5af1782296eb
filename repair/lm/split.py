"""The one definition of the held-out split of the training corpus.

Every script and command that trains anything on the corpus (character
tables, language models) and every benchmark that evaluates on it uses this
module, so that training never sees a paragraph the evaluation uses.  A paragraph (one line of
a corpus file) is held out when a stable hash of its file name and line number
falls in the last 5% of the hash range; the split is thus reproducible, spread
over every text and independent of the order files are read in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

HELD_OUT_PERCENT = 5

# The 儀禮 family is held out for evaluation altogether; the shared corpus
# already excludes it, and this guard keeps a user-supplied corpus honest too.
EXCLUDED_TITLE_MARKERS = ("儀禮", "仪礼", "禮經", "礼经")


def is_held_out(file_name: str, line_no: int) -> bool:
    digest = hashlib.blake2b(f"{file_name}:{line_no}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % 100 < HELD_OUT_PERCENT


def corpus_files(root: Path) -> list[Path]:
    files = sorted(p for p in root.rglob("*.txt") if p.is_file())
    return [p for p in files if not any(m in p.name for m in EXCLUDED_TITLE_MARKERS)]


def paragraphs(root: Path, *, held_out: bool) -> Iterator[tuple[str, int, str]]:
    """Yield (file name, line number, text) of the training or held-out part."""
    for path in corpus_files(root):
        with path.open(encoding="utf-8") as fh:
            for no, line in enumerate(fh):
                line = line.rstrip("\n")
                if line and is_held_out(path.name, no) == held_out:
                    yield path.name, no, line
