"""Seeded synthetic damage for the repair benchmark, one generator per damage family.

Every family of DESIGN.md ("Damage families") is simulated by running its
channel forward on clean text: a lossy encode for ``?``, a byte lost in a GBK
stream for a byte shift, text encoded in one codec and decoded in another for
codec confusion, and so on.  A document is built as a concatenation of clean
pieces and damaged pieces, so the ground truth (what each damaged piece was,
and where it sits in the damaged document) is exact by construction rather
than recovered afterwards by diffing.

The clean text is the held-out split of the corpus (``repair/lm/split.py``),
which the toolkit's character table never saw.  Nothing here stores corpus
text: documents are generated in memory each time the benchmark runs.

Run it alone to look at what it makes (prints to stdout only)::

    python benchmarks/corrupt.py --corpus ../shared/corpus --docs 2 --seed 1
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252)
import opencc

# Measure this checkout, whatever else is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from repair.channel.forward import encodable
from repair.lm.split import corpus_files, paragraphs

__all__ = ["FAMILIES", "CorruptedDocument", "Damage", "corpus_files", "generate_documents", "held_out_paragraphs"]

# The kind names of the toolkit's edits (``Edit.kind``), in DESIGN.md order.
FAMILIES: tuple[str, ...] = (
    "question_mark",
    "replacement_char",
    "split_char",
    "private_use",
    "foreign_symbol",
    "placeholder",
    "deletion",
    "byte_shift",
    "codec_confusion",
    "lookalike",
    "component",
    "radical",
    "escape",
    "junk",
)

TRADITIONAL = "traditional"
SIMPLIFIED = "simplified"

# Clean characters kept between two damaged pieces, so that each detection can
# be attributed to one piece (real damage clusters too, but then nobody can
# say which repair belongs to which damage).
MARGIN = 8

HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af]")


def is_han(ch: str) -> bool:
    return HAN_RE.fullmatch(ch) is not None


def two_byte_gbk(ch: str) -> bool:
    try:
        return len(ch.encode("gbk")) == 2
    except UnicodeEncodeError:
        return False


# --- channel tables -------------------------------------------------------


@dataclass(frozen=True)
class CodecCase:
    """One (true, wrong, error mode) confusion: text encoded in ``true`` was decoded as ``wrong``.

    ``errors`` is what the wrong decoder did with bytes it could not read, as
    users' software does it: U+FFFD (``replace``), ``?`` as converters write,
    or nothing (``ignore``, ``iconv -c``).  ``script`` is the script of the text
    such a file holds: GBK files are simplified and Big5 files traditional;
    UTF-8 files may be either.
    """

    label: str
    true: str
    wrong: str
    rounds: int
    scripts: tuple[str, ...]
    errors: str = "replace"


# The strict decoders users' software has (Python's gbk, big5, cp1252 ...),
# not the permissive gb18030 and big5hkscs, under which nearly every byte pair
# is valid and garbling looks lossless when in users' files it is not.
CODEC_CASES: tuple[CodecCase, ...] = (
    CodecCase("utf-8→gbk", "utf-8", "gbk", 1, (SIMPLIFIED, TRADITIONAL)),
    CodecCase("utf-8→gbk (?)", "utf-8", "gbk", 1, (SIMPLIFIED,), "?"),
    CodecCase("utf-8→gbk (dropped)", "utf-8", "gbk", 1, (TRADITIONAL,), "ignore"),
    CodecCase("utf-8→big5", "utf-8", "big5", 1, (TRADITIONAL,)),
    CodecCase("gbk→big5", "gbk", "big5", 1, (SIMPLIFIED,)),
    CodecCase("big5→gbk", "big5", "gbk", 1, (TRADITIONAL,)),
    CodecCase("gbk→cp1252", "gbk", "cp1252", 1, (SIMPLIFIED,)),
    CodecCase("big5→latin-1", "big5", "latin-1", 1, (TRADITIONAL,)),
    CodecCase("utf-8→cp1252", "utf-8", "cp1252", 1, (TRADITIONAL, SIMPLIFIED)),
    CodecCase("utf-8→latin-1×2", "utf-8", "latin-1", 2, (TRADITIONAL, SIMPLIFIED)),
)


def garble(text: str, case: CodecCase) -> str:
    """Run the confusion forward with the real decoder and its error mode."""
    from repair.channel.tables import decoder

    for _ in range(case.rounds):
        text = decoder(case.wrong).decode(text.encode(case.true, errors="replace"), case.errors)
    return text


def is_lossless(clean: str, damaged: str, case: CodecCase) -> bool:
    """Whether re-encoding with the wrong codec and decoding with the true one gives ``clean`` back."""
    text = damaged
    try:
        for _ in range(case.rounds):
            text = text.encode(case.wrong).decode(case.true)
    except (UnicodeEncodeError, UnicodeDecodeError):
        return False
    return text == clean


def byte_shift(text: str) -> tuple[str, int]:
    """The DESIGN.md channel: GBK bytes, first byte lost, read as GB18030, private-use pairs deleted.

    Also returns how many private-use pairs were deleted: each glues two
    characters into one, which only a language model can see.
    """
    raw = text.encode("gbk")[1:]
    out = raw.decode("gb18030", errors="replace")
    kept = "".join(c for c in out if not 0xE000 <= ord(c) <= 0xF8FF)
    return kept, len(out) - len(kept)


# OCR confusions: each set is characters an engine mistakes for one another.
LOOKALIKE_SETS: tuple[str, ...] = (
    "己已巳",
    "日曰",
    "未末",
    "土士",
    "人入",
    "天夭",
    "戊戌戍",
    "刀刁",
    "千干",
    "今令",
    "王玉",
    "侯候",
    "栗粟",
    "毋母",
    "徒徙",
    "冶治",
    "崇祟",
    "暑署",
    "汨汩",
    "免兔",
    "鳥烏",
    "鸟乌",
    "大犬",
    "析折",
)
LOOKALIKES: dict[str, str] = {ch: s for s in LOOKALIKE_SETS for ch in s}

# Hand-written decompositions: (character, first part, second part, layout).
# Mostly common characters, so that every document has one to damage; the
# channel (a typist spelling a character by its parts) is the same for all.
COMPONENTS: tuple[tuple[str, str, str, str], ...] = (
    ("儗", "亻", "疑", "⿰"),
    ("豻", "豸", "干", "⿰"),
    ("鑮", "釒", "薄", "⿰"),
    ("儒", "亻", "需", "⿰"),
    ("仁", "亻", "二", "⿰"),
    ("佐", "亻", "左", "⿰"),
    ("侍", "亻", "寺", "⿰"),
    ("倍", "亻", "咅", "⿰"),
    ("海", "氵", "每", "⿰"),
    ("河", "氵", "可", "⿰"),
    ("江", "氵", "工", "⿰"),
    ("持", "扌", "寺", "⿰"),
    ("情", "忄", "青", "⿰"),
    ("狐", "犭", "瓜", "⿰"),
    ("祖", "礻", "且", "⿰"),
    ("福", "礻", "畐", "⿰"),
    ("被", "衤", "皮", "⿰"),
    ("說", "訁", "兌", "⿰"),
    ("说", "讠", "兑", "⿰"),
    ("紀", "糹", "己", "⿰"),
    ("纪", "纟", "己", "⿰"),
    ("錢", "釒", "戔", "⿰"),
    ("钱", "钅", "戋", "⿰"),
    ("飯", "飠", "反", "⿰"),
    ("饭", "饣", "反", "⿰"),
    ("則", "貝", "刂", "⿰"),
    ("则", "贝", "刂", "⿰"),
    ("郡", "君", "阝", "⿰"),
    ("都", "者", "阝", "⿰"),
    ("陳", "阝", "東", "⿰"),
    ("陈", "阝", "东", "⿰"),
    ("特", "牜", "寺", "⿰"),
    ("花", "艹", "化", "⿱"),
    ("草", "艹", "早", "⿱"),
)
COMPONENT_OF: dict[str, tuple[str, str, str]] = {c: (a, b, layout) for c, a, b, layout in COMPONENTS}
# Components that never stand alone in running text: written bare, they are
# still unambiguous, so a typist may leave out the brackets.
SIDE_FORMS = set("亻钅氵扌忄犭纟讠饣礻衤刂艹阝灬丬爫耂糹釒飠訁牜罒")


def kangxi_stand_ins() -> dict[str, str]:
    """Ideograph -> the Kangxi radical whose NFKC form it is (Unicode's own mapping)."""
    inverse: dict[str, str] = {}
    for cp in range(0x2F00, 0x2FD6):
        inverse.setdefault(unicodedata.normalize("NFKC", chr(cp)), chr(cp))
    return inverse


RADICAL_OF = kangxi_stand_ins()

PLACEHOLDERS = "囗□■〓"
# The share of placeholder damage that is a run of marks (several lost characters in a row).
RUN_SHARE = 0.25
# Symbol rows a converter maps home-made glyphs into (GB2312 rows 4, 5, 6, 8).
FOREIGN_SYMBOLS = (
    [chr(c) for c in range(0x3041, 0x3094)]  # hiragana
    + [chr(c) for c in range(0x30A1, 0x30F7)]  # katakana
    + [chr(c) for c in range(0x3105, 0x312A)]  # bopomofo
    + [chr(c) for c in range(0x03B1, 0x03CA) if c != 0x03C2]  # Greek lower case
    + [chr(c) for c in range(0x0391, 0x03AA) if c != 0x03A2]  # Greek upper case
)
# GB18030 maps GBK's user-defined area AAA1-AFFE to U+E000-U+E233: the codes a
# home-made glyph really gets.
# A wide code page read with a narrower one, as (reader, source), per script:
# GBK read as GB2312 and GB18030 read as GBK for simplified text, Big5-HKSCS
# read as Big5 and GB18030 read as GBK for traditional text.
SPLIT_CHANNELS = {
    SIMPLIFIED: (("gb2312", "gbk"), ("gbk", "gb18030")),
    TRADITIONAL: (("big5", "big5hkscs"), ("gbk", "gb18030")),
}
# What such a reader shows for a character it lacks, when the line stays in
# step: a mark and the ASCII trail byte, or two marks and two digit bytes.
CLEAN_SPLIT_RE = re.compile("\ufffd[\x40-\x7e]|\ufffd\\d\ufffd\\d")

# The pages a lossy conversion may have gone through, narrowest first.
QUESTION_PAGES = {SIMPLIFIED: ("gb2312", "gbk"), TRADITIONAL: ("big5", "gbk")}

PRIVATE_USE_CODES = [chr(c) for c in range(0xE000, 0xE234)]
# Some digitizations spell a home-made glyph in two codes: a private-use code
# for the part the font lacked and an ordinary character for the rest (a
# component written in both scripts alike).  The share of private-use
# documents that do, drawn from a second generator so that the other
# documents stay as the main one draws them.
CODE_PAIR_SHARE = 0.25
CODE_PAIR_PARTS = "木水火土金口日月山石玉目女言虫竹米衣雨耳手"

SITE_PREFIXES = ("读书之家", "笔趣", "书香", "墨香", "古籍", "免费", "国学", "文渊")
SITE_SUFFIXES = ("书屋", "书城", "小说网", "阅读网", "文学网", "书吧", "藏书阁")
SYLLABLES = ("du", "shu", "zhi", "jia", "bi", "qu", "xiang", "mo", "gu", "ji", "guo", "xue", "wen", "yuan", "ge", "txt")
TLDS = ("com", "net", "org", "cc", "la", "info", "cn")


# --- records ----------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """Ground truth for one damaged piece.

    ``offset`` is where ``damaged`` starts in the damaged document and
    ``clean_offset`` where ``clean`` starts in the clean one.  ``clean`` is
    empty for inserted junk and ``damaged`` empty for a deletion.
    ``recoverable`` says whether the damaged text alone determines the clean
    text (an exact channel: escapes, radicals, components, junk, lossless
    codec confusions); the others need a language model at least.
    """

    family: str
    clean: str
    damaged: str
    offset: int
    recoverable: bool
    variant: str = ""
    clean_offset: int = 0


@dataclass(frozen=True)
class CorruptedDocument:
    clean: str
    damaged: str
    damages: tuple[Damage, ...]
    script: str
    sources: tuple[tuple[str, int], ...] = ()

    def check(self) -> None:
        """Assert that the records describe the document exactly (cheap; run on every document)."""
        pos = 0
        rebuilt = []
        for d in self.damages:
            assert self.damaged[d.offset : d.offset + len(d.damaged)] == d.damaged, d
            assert self.clean[d.clean_offset : d.clean_offset + len(d.clean)] == d.clean, d
            rebuilt.append(self.damaged[pos : d.offset])
            rebuilt.append(d.clean)
            pos = d.offset + len(d.damaged)
        rebuilt.append(self.damaged[pos:])
        assert "".join(rebuilt) == self.clean


@dataclass
class _Plan:
    """A damage planned on the clean text: replace ``clean[start:end]`` by ``damaged``."""

    start: int
    end: int
    family: str
    damaged: str
    recoverable: bool
    variant: str = ""


# --- the generator ----------------------------------------------------------


@dataclass
class Corruptor:
    """Builds damaged documents from clean paragraphs, deterministically from ``seed``.

    Families are drawn so that each gets about the same number of documents:
    the least used family that fits a document's script goes first.
    """

    seed: int = 0
    damage_every: int = 110  # about one damaged piece per this many characters
    rng: random.Random = field(init=False)
    pair_rng: random.Random = field(init=False)
    used: Counter = field(default_factory=Counter, init=False)
    used_variants: Counter = field(default_factory=Counter, init=False)
    frequency: dict[str, Counter] = field(default_factory=dict, init=False)
    t2s: opencc.OpenCC = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.pair_rng = random.Random(f"code pairs {self.seed}")
        self.t2s = opencc.OpenCC("t2s")

    def learn_frequencies(self, texts: Iterable[str]) -> None:
        """Character counts per script, to pick "rare" characters the way a font would lack them."""
        trad: Counter = Counter()
        simp: Counter = Counter()
        for t in texts:
            trad.update(t)
            simp.update(self.t2s.convert(t))
        self.frequency = {TRADITIONAL: trad, SIMPLIFIED: simp}

    # -- documents --

    def corrupt(self, clean: str, script: str, sources: tuple[tuple[str, int], ...] = ()) -> CorruptedDocument:
        """Damage ``clean`` (already in ``script``) with a balanced draw of families."""
        wanted = max(3, min(9, len(clean) // self.damage_every))
        plans: list[_Plan] = []
        fits = [f for f in FAMILIES if f != "byte_shift" or script == SIMPLIFIED]
        order = sorted(fits, key=lambda f: (self.used[f], self.rng.random()))
        # Families that replace every occurrence of a character claim their
        # sites first; long pieces next; single characters fill the gaps.  A
        # family that finds no site gives its turn to the next least used one.
        first = ("private_use", "foreign_symbol", "byte_shift", "codec_confusion")
        queue = sorted(order[:wanted], key=lambda f: first.index(f) if f in first else len(first))
        spare = order[wanted:]
        while queue:
            family = queue.pop(0)
            got = GENERATORS[family](self, clean, script, plans)
            if got:
                plans.extend(got)
                self.used[family] += 1
            elif spare:
                queue.append(spare.pop(0))
        return self._assemble(clean, plans, script, sources)

    @staticmethod
    def _assemble(clean: str, plans: list[_Plan], script: str, sources: tuple) -> CorruptedDocument:
        parts: list[str] = []
        damages: list[Damage] = []
        pos = 0
        out_len = 0
        for p in sorted(plans, key=lambda p: (p.start, p.end)):
            parts.append(clean[pos : p.start])
            out_len += p.start - pos
            damages.append(
                Damage(p.family, clean[p.start : p.end], p.damaged, out_len, p.recoverable, p.variant, p.start)
            )
            parts.append(p.damaged)
            out_len += len(p.damaged)
            pos = p.end
        parts.append(clean[pos:])
        doc = CorruptedDocument(clean, "".join(parts), tuple(damages), script, sources)
        doc.check()
        return doc

    # -- placement helpers --

    @staticmethod
    def _free(plans: Sequence[_Plan], start: int, end: int) -> bool:
        return all(start >= p.end + MARGIN or end + MARGIN <= p.start for p in plans)

    def _sites(self, clean: str, plans: Sequence[_Plan], ok: Callable[[str], bool]) -> list[int]:
        """Free positions of single Han characters that ``ok`` accepts, shuffled."""
        sites = [i for i, ch in enumerate(clean) if is_han(ch) and ok(ch) and self._free(plans, i, i + 1)]
        self.rng.shuffle(sites)
        return sites

    def _one_char(
        self, clean: str, plans: Sequence[_Plan], family: str, ok: Callable[[str], bool], make: Callable[[str], str]
    ) -> list[_Plan]:
        sites = self._sites(clean, plans, ok)
        if not sites:
            return []
        i = sites[0]
        return [_Plan(i, i + 1, family, make(clean[i]), False)]

    def _rare_char(self, clean: str, script: str, plans: Sequence[_Plan]) -> tuple[str, list[int]] | None:
        """A character a GBK font would lack (else the rarest one here), with all its free occurrences.

        Private-use codes and foreign symbols stand for one character wherever
        it occurs, so every occurrence is damaged; characters that occur more
        than five times are not rare enough to be given a home-made glyph.
        """
        freq = self.frequency.get(script, Counter())
        where: dict[str, list[int]] = {}
        for i, ch in enumerate(clean):
            if is_han(ch):
                where.setdefault(ch, []).append(i)
        options = [
            ch
            for ch, pos in where.items()
            if len(pos) <= 5 and all(self._free(plans, i, i + 1) for i in pos) and not self._taken(plans, ch, clean)
        ]
        if not options:
            return None
        self.rng.shuffle(options)
        ch = min(options, key=lambda c: (two_byte_gbk(c), freq[c]))
        return ch, where[ch]

    @staticmethod
    def _taken(plans: Sequence[_Plan], ch: str, clean: str) -> bool:
        return any(clean[p.start : p.end] == ch for p in plans if p.family in ("private_use", "foreign_symbol"))

    # -- families --

    def question_mark(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        """A conversion to a narrower code page that turned what it lacked into ``?``.

        The channel as the repair infers it: the document went through the
        narrowest page of its script (GB2312 or Big5, else GBK) that loses
        only a few of its characters (1 to 3 distinct, 6 occurrences at most),
        and every occurrence of each is lost; a page that would lose more
        would leave no document to repair.  In a quarter of the documents the
        converter writes ``??`` (one mark per byte or per UTF-16 unit of the
        lost character), for every character it lost.
        """
        han = {ch for ch in clean if is_han(ch)}
        for page in QUESTION_PAGES[script]:
            lacking = sorted(ch for ch in han if not encodable(ch, page))
            positions = [i for i, ch in enumerate(clean) if ch in lacking]
            if not 1 <= len(lacking) <= 3 or len(positions) > 6:
                continue
            if not all(self._free(plans, i, i + 1) for i in positions):
                return []
            # One converter, one habit: a mark per character, or per byte.
            marks = "??" if self.rng.random() < 0.25 else "?"
            return [_Plan(i, i + 1, "question_mark", marks, False, page) for i in positions]
        return []

    def replacement_char(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        draw = self.rng.random()
        if draw < 0.125:
            # Two neighbouring characters lost, one U+FFFD each: the same "��"
            # as one character lost in two pieces, which the repair must tell apart.
            pairs = [
                i
                for i in self._sites(clean, plans, lambda ch: True)
                if i + 1 < len(clean) and is_han(clean[i + 1]) and self._free(plans, i, i + 2)
            ]
            if pairs:
                return [_Plan(pairs[0], pairs[0] + 2, "replacement_char", "\ufffd\ufffd", False, "two characters")]
        return self._one_char(
            clean,
            plans,
            "replacement_char",
            lambda ch: True,
            lambda ch: "\ufffd\ufffd" if draw < 0.25 else "\ufffd",
        )

    def split_char(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        """A file in a wide code page read with a narrower one, run forward.

        As for ``?``: the reader may lack only a few of the document's
        characters (1 to 3 distinct, 6 occurrences at most), and every
        occurrence of each is damaged, so that the rest of the document is
        what that reader really shows; and the reader must stay in step after
        each (a trail byte in the ASCII range, or a four-byte character's
        digits).  The lost lead byte becomes U+FFFD, or ``?`` from converters
        that replace so.
        """
        han = {ch for ch in clean if is_han(ch)}
        channels = list(SPLIT_CHANNELS[script])
        self.rng.shuffle(channels)
        for reader, source in channels:
            lacking = {ch for ch in han if not encodable(ch, reader)}
            positions = [i for i, c in enumerate(clean) if c in lacking]
            if not 1 <= len(lacking) <= 3 or len(positions) > 6 or not all(encodable(c, source) for c in lacking):
                continue
            shown = {ch: ch.encode(source).decode(reader, errors="replace") for ch in lacking}
            if not all(CLEAN_SPLIT_RE.fullmatch(s) for s in shown.values()):
                continue
            if not all(self._free(plans, i, i + 1) for i in positions):
                continue
            mark = "?" if self.rng.random() < 0.25 else "\ufffd"
            return [
                _Plan(
                    i, i + 1, "split_char", shown[clean[i]].replace("\ufffd", mark), False, f"{source} read as {reader}"
                )
                for i in positions
            ]
        return []

    def private_use(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        got = self._rare_char(clean, script, plans)
        if got is None:
            return []
        _, positions = got
        used = {p.damaged for p in plans if p.family == "private_use"}
        code = self.rng.choice([c for c in PRIVATE_USE_CODES if c not in used])
        if self.pair_rng.random() < CODE_PAIR_SHARE:
            # The glyph in two codes, the same two wherever it occurs.
            part = self.pair_rng.choice(CODE_PAIR_PARTS)
            return [_Plan(i, i + 1, "private_use", code + part, False, "code+character") for i in positions]
        return [_Plan(i, i + 1, "private_use", code, False, f"U+{ord(code):04X}") for i in positions]

    def foreign_symbol(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        got = self._rare_char(clean, script, plans)
        if got is None:
            return []
        _, positions = got
        used = {p.damaged for p in plans if p.family == "foreign_symbol"} | set(clean)
        symbol = self.rng.choice([s for s in FOREIGN_SYMBOLS if s not in used])
        row = unicodedata.name(symbol).split()[0].lower()
        return [_Plan(i, i + 1, "foreign_symbol", symbol, False, row) for i in positions]

    def placeholder(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        """One placeholder per lost character: usually one, a quarter of the
        time a lacuna of two or three (an editor's □□□)."""
        mark = self.rng.choice(PLACEHOLDERS)
        width = self.rng.choice((2, 3)) if self.rng.random() < RUN_SHARE else 1
        for i in self._sites(clean, plans, lambda ch: True):
            if all(is_han(ch) for ch in clean[i : i + width]) and self._free(plans, i, i + width):
                return [_Plan(i, i + width, "placeholder", mark * width, False)]
        return []

    def deletion(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        return self._one_char(clean, plans, "deletion", lambda ch: True, lambda ch: "")

    def lookalike(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        return self._one_char(
            clean,
            plans,
            "lookalike",
            lambda ch: ch in LOOKALIKES,
            lambda ch: self.rng.choice([c for c in LOOKALIKES[ch] if c != ch]),
        )

    def radical(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        sites = self._sites(clean, plans, lambda ch: ch in RADICAL_OF)
        if not sites:
            return []
        i = sites[0]
        return [_Plan(i, i + 1, "radical", RADICAL_OF[clean[i]], True, "kangxi")]

    def component(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        sites = self._sites(clean, plans, lambda ch: ch in COMPONENT_OF)
        if not sites:
            return []
        i = sites[0]
        a, b, layout = COMPONENT_OF[clean[i]]
        styles = ["angle", "guillemet", "formula", "ids"] + (["bare", "bare"] if a in SIDE_FORMS else [])
        style = self.rng.choice(styles)
        spelled = {
            "bare": a + b,
            "angle": f"<{a}{b}>",
            "guillemet": f"‹{a}{b}›",
            "formula": f"[{a}+{b}]",
            "ids": f"{layout}{a}{b}",
        }[style]
        return [_Plan(i, i + 1, "component", spelled, True, style)]

    def escape(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        sites = self._sites(clean, plans, lambda ch: True)
        if not sites:
            return []
        i = sites[0]
        j = i + 1
        length = self.rng.choice((1, 1, 2, 3))
        while j < i + length and j < len(clean) and is_han(clean[j]) and self._free(plans, i, j + 1):
            j += 1
        style = self.rng.choice(("hex", "decimal", "js", "percent"))
        return [_Plan(i, j, "escape", "".join(_escape(ch, style) for ch in clean[i:j]), True, style)]

    def junk(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        kind = self.rng.choice(("watermark", "watermark", "bare", "chapter", "navigation"))
        if kind in ("chapter", "navigation"):
            starts = [0] + [m.end() for m in re.finditer("\n", clean)]
            sites = [s for s in starts if s < len(clean) and self._free(plans, s, s)]
            text = f"第{self.rng.randint(1, 300)}章\n" if kind == "chapter" else "上一章|返回目录|下一章\n"
        else:
            sites = [i for i in range(1, len(clean)) if is_han(clean[i - 1]) and self._free(plans, i, i)]
            text = self._watermark(bare=kind == "bare")
        if not sites:
            return []
        i = self.rng.choice(sites)
        return [_Plan(i, i, "junk", text, True, kind)]

    def _watermark(self, *, bare: bool) -> str:
        rng = self.rng
        domain = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) + "." + rng.choice(TLDS)
        if rng.random() < 0.3:
            domain = "www." + domain
        site = rng.choice(SITE_PREFIXES) + rng.choice(SITE_SUFFIXES)
        if bare:
            return rng.choice((f"-{domain}", f"—{site}{domain}", f"更多免费书籍请访问{domain}"))
        return rng.choice(
            (f"【来源：{site}-{domain}】", f"【{site} {domain}】", f"（本书由{domain}整理）", f"[{site}-{domain}]")
        )

    def byte_shift(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        """The last 20-60 characters of a line, one GBK byte lost: the newline puts the reader back in phase."""
        if script != SIMPLIFIED:
            return []
        options = []
        for m in re.finditer("[^\n]+", clean):
            n = 0
            while n < len(m.group(0)) and two_byte_gbk(m.group(0)[-1 - n]):
                n += 1
            if n >= 20:
                options.append((m.end(), n))
        self.rng.shuffle(options)
        for end, n in options:
            length = self.rng.randint(20, min(60, n))
            start = end - length
            if self._free(plans, start, end):
                damaged, lost = byte_shift(clean[start:end])
                variant = "no pair deleted" if not lost else "pairs deleted"
                return [_Plan(start, end, "byte_shift", damaged, False, variant)]
        return []

    def codec_confusion(self, clean: str, script: str, plans: Sequence[_Plan]) -> list[_Plan]:
        cases = [c for c in CODEC_CASES if script in c.scripts]
        cases.sort(key=lambda c: (self.used_variants[c.label], self.rng.random()))
        for case in cases:
            site = self._codec_site(clean, plans, case)
            if site is not None:
                start, end = site
                damaged = garble(clean[start:end], case)
                self.used_variants[case.label] += 1
                lossless = is_lossless(clean[start:end], damaged, case)
                return [_Plan(start, end, "codec_confusion", damaged, lossless, case.label)]
        return []

    def _codec_site(self, clean: str, plans: Sequence[_Plan], case: CodecCase) -> tuple[int, int] | None:
        """A whole short line (a third of the time) or a stretch of 6-16 characters inside one."""
        lines = [(m.start(), m.end()) for m in re.finditer("[^\n]+", clean)]
        self.rng.shuffle(lines)
        whole = self.rng.random() < 1 / 3
        for s, e in lines:
            if whole and 6 <= e - s <= 60:
                spans = [(s, e)]
            elif e - s >= 6:
                length = self.rng.randint(6, min(16, e - s))
                first = self.rng.randint(s, e - length)
                spans = [(first, first + length)]
            else:
                continue
            for a, b in spans:
                if encodable(clean[a:b], case.true) and self._free(plans, a, b) and any(map(is_han, clean[a:b])):
                    return a, b
        return None


def _escape(ch: str, style: str) -> str:
    cp = ord(ch)
    if style == "hex":
        return f"&#x{cp:X};"
    if style == "decimal":
        return f"&#{cp};"
    if style == "percent":
        return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
    units = ch.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(units[k : k + 2], 'big'):04x}" for k in range(0, len(units), 2))


GENERATORS: dict[str, Callable[[Corruptor, str, str, Sequence[_Plan]], list[_Plan]]] = {
    f: getattr(Corruptor, f) for f in FAMILIES
}


# --- corpus -----------------------------------------------------------------


def held_out_paragraphs(corpus: Path) -> list[tuple[str, int, str]]:
    """The held-out 5% of the corpus (never seen by the toolkit's tables), in file order."""
    return list(paragraphs(corpus, held_out=True))


def generate_documents(
    paras: Sequence[tuple[str, int, str]],
    count: int,
    seed: int,
    *,
    min_chars: int = 400,
    max_chars: int = 1200,
    max_paragraph: int = 300,
) -> list[CorruptedDocument]:
    """``count`` damaged documents spread evenly over ``paras``, alternately traditional and simplified.

    A document is a few consecutive held-out paragraphs of one file, each cut
    to ``max_paragraph`` characters so that a document has several lines
    (byte shifts and whole-line codec confusions need line ends).
    """
    corruptor = Corruptor(seed)
    corruptor.learn_frequencies(t for _, _, t in paras)
    docs = []
    step = max(1, len(paras) // max(1, count))
    for k in range(count):
        target = corruptor.rng.randint(min_chars, max_chars)
        i = (k * step + corruptor.rng.randrange(step)) % len(paras)
        name = paras[i][0]
        lines: list[str] = []
        sources = []
        size = 0
        while size < target and i < len(paras) and paras[i][0] == name:
            text = paras[i][2][:max_paragraph]
            lines.append(text)
            sources.append((paras[i][0], paras[i][1]))
            size += len(text) + 1
            i += 1
        clean = "\n".join(lines)
        script = TRADITIONAL if k % 2 == 0 else SIMPLIFIED
        if script == SIMPLIFIED:
            clean = corruptor.t2s.convert(clean)
        docs.append(corruptor.corrupt(clean, script, tuple(sources)))
    return docs


def main(argv: Sequence[str] | None = None) -> None:
    """Show a few generated documents and their ground truth (stdout only; nothing is written)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--docs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    docs = generate_documents(held_out_paragraphs(args.corpus), args.docs, args.seed)
    for doc in docs:
        print(f"=== {doc.script}, {len(doc.clean)} clean chars, {len(doc.damages)} damaged pieces")
        print(doc.damaged)
        for d in doc.damages:
            exact = "recoverable" if d.recoverable else ""
            print(f"  {d.offset:5d} {d.family:16s} {d.variant:20s} {d.clean!r} -> {d.damaged!r} {exact}")


if __name__ == "__main__":
    main()
