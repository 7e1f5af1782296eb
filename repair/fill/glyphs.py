"""The code → character table of a digitization's home-made glyphs.

A private-use code point or a stand-in symbol means the same rare character
in every file of one digitization, so what one file's witnesses prove about a
code settles it in the others.  ``repair glyphs learn`` builds the table from
a batch (codes decided by witnesses, or the best-ranked character with its
confidence); ``repair clean --glyph-table`` applies it; users can write their
own (a table line's confidence is theirs to set: 1.0 for a known glyph).

File format: UTF-8 TSV, ``code  character  confidence  occurrences  source``,
where code is the damaged text as U+XXXX code points joined by spaces.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from repair.errors import RepairError
from repair.types import Result

GLYPH_KINDS = ("private_use", "foreign_symbol")
HEADER = "# code\tcharacter\tconfidence\toccurrences\tsource"


def code_key(text: str) -> str:
    """``\\ue7a1`` → ``U+E7A1``; a run of codes → space-joined."""
    return " ".join(f"U+{ord(c):04X}" for c in text)


def code_text(key: str) -> str:
    try:
        return "".join(chr(int(part[2:], 16)) for part in key.split())
    except ValueError:
        raise RepairError(f"bad code in glyph table: {key!r}") from None


@dataclass(frozen=True)
class Glyph:
    char: str
    confidence: float
    occurrences: int
    source: str


class GlyphTable:
    def __init__(self, entries: dict[str, Glyph] | None = None) -> None:
        self.entries: dict[str, Glyph] = dict(entries or {})

    def get(self, damaged: str) -> Glyph | None:
        """The table's reading of a code, or of a run of codes each of which it
        knows (one character per code: the run is as sure as its least sure code)."""
        found = self.entries.get(damaged)
        if found is not None or len(damaged) < 2:
            return found
        parts = [self.entries.get(code) for code in damaged]
        if any(g is None for g in parts):
            return None
        return Glyph(
            "".join(g.char for g in parts),
            min(g.confidence for g in parts),
            min(g.occurrences for g in parts),
            " + ".join(dict.fromkeys(g.source for g in parts)),
        )

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path: Path) -> GlyphTable:
        entries = {}
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise RepairError(f"{path}: cannot read glyph table: {err}") from None
        for no, line in enumerate(lines, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            # One character per code at most: a run of codes may be fewer
            # characters (two codes that spell one glyph), never more.
            if len(parts) < 2 or not 1 <= len(parts[1]) <= len(code_text(parts[0])):
                raise RepairError(f"{path}:{no}: expected 'code<TAB>character[<TAB>confidence…]'")
            confidence = float(parts[2]) if len(parts) > 2 and parts[2] else 1.0
            occurrences = int(parts[3]) if len(parts) > 3 and parts[3] else 0
            source = parts[4] if len(parts) > 4 else "user"
            entries[code_text(parts[0])] = Glyph(parts[1], confidence, occurrences, source)
        return cls(entries)

    def save(self, path: Path) -> None:
        from repair.io import write_atomic

        rows = [HEADER]
        for damaged, g in sorted(self.entries.items()):
            rows.append(f"{code_key(damaged)}\t{g.char}\t{g.confidence:.4f}\t{g.occurrences}\t{g.source}")
        write_atomic(Path(path), ("\n".join(rows) + "\n").encode("utf-8"))

    @classmethod
    def learn(cls, results: Iterable[Result]) -> GlyphTable:
        """One entry per code: the character its best-evidenced decision chose."""
        votes: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        sources: dict[tuple[str, str], str] = {}
        for result in results:
            for e in result.edits:
                if e.kind not in GLYPH_KINDS or not e.candidates:
                    continue
                if "pair_confidence" in e.detail:
                    # Read with the character after it, left unapplied (a
                    # threshold above the witnesses'): the two codes are the entry.
                    pair = e.before + e.detail["spelled_with"]
                    votes[pair][e.detail["pair_reading"]].append(e.detail["pair_confidence"])
                    if e.detail.get("pair_source") == "witness":
                        sources[(pair, e.detail["pair_reading"])] = "witness"
                    continue
                best = e.candidates[0]
                votes[e.before][best.text].append(e.confidence)
                if best.source.startswith("witness"):
                    sources[(e.before, best.text)] = "witness"
        entries = {}
        for damaged, by_char in votes.items():
            char, confs = max(by_char.items(), key=lambda kv: (max(kv[1]), len(kv[1])))
            agree = len(confs) / sum(len(v) for v in by_char.values())
            entries[damaged] = Glyph(
                char, round(max(confs) * agree, 4), len(confs), sources.get((damaged, char), "model")
            )
        return cls(entries)
