"""Character classes of Chinese text, as data tables.

Every detector asks the same questions of a character (is it Han? CJK
punctuation? a private-use code? a kana or bopomofo letter standing in for a
rare character?), so the ranges live here once.  Ranges are inclusive.
"""

from __future__ import annotations

import unicodedata

HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DBF),  # Extension A
    (0x4E00, 0x9FFF),  # unified ideographs
    (0xF900, 0xFAFF),  # compatibility ideographs: deliberate glyph choices, kept
    (0x20000, 0x323AF),  # Extensions B-H
)


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in ranges)


# Regex character classes of the ranges above, for the modules that scan text.
HAN_CLASS = _char_class(HAN_RANGES)
# Without the compatibility block: the characters a repair may propose.
UNIFIED_HAN_CLASS = _char_class(tuple(r for r in HAN_RANGES if r != (0xF900, 0xFAFF)))

PRIVATE_USE_RANGES: tuple[tuple[int, int], ...] = (
    (0xE000, 0xF8FF),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
)

# Symbol rows of GB2312/GBK that a converter maps a home-made glyph into: a
# kana, bopomofo, Greek, Cyrillic or pinyin letter, a circled or parenthesised
# number, standing where a rare Han character should be.
FOREIGN_SYMBOL_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0391, 0x03C9, "greek"),
    (0x0401, 0x0451, "cyrillic"),
    (0x3041, 0x30FF, "kana"),
    (0x3105, 0x312F, "bopomofo"),
    (0x31A0, 0x31BF, "bopomofo"),
    (0x2460, 0x249B, "enclosed number"),
    (0x3220, 0x3229, "parenthesised number"),
    (0x2160, 0x216B, "roman numeral"),
    (0x2170, 0x2179, "roman numeral"),
    (0x0101, 0x01DC, "pinyin letter"),
    (0x0251, 0x0261, "pinyin letter"),
    (0xFF21, 0xFF3A, "full-width latin"),
    (0xFF41, 0xFF5A, "full-width latin"),
    (0x2500, 0x254B, "box drawing"),
)

KANGXI_RADICALS = (0x2F00, 0x2FD5)
CJK_RADICALS_SUPPLEMENT = (0x2E80, 0x2EF3)
IDEOGRAPHIC_DESCRIPTION = (0x2FF0, 0x2FFF)

# Punctuation that Chinese text really uses; never damage by itself.
CJK_PUNCTUATION = frozenset("，。、；：？！“”‘’「」『』（）《》〈〉【】〔〕［］｛｝…—～·・．○●◎◇◆△▲☆★※〇　")
ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Brackets come in pairs (opening → closing).  One without its partner on its
# line is more likely a garbled character than punctuation (repair.fill.codec_edges).
BRACKET_PAIRS = {
    "（": "）",
    "［": "］",
    "【": "】",
    "〔": "〕",
    "「": "」",
    "『": "』",
    "《": "》",
    "〈": "〉",
    "｛": "｝",
    "(": ")",
    "[": "]",
    "{": "}",
}
OPENING_OF = {c: o for o, c in BRACKET_PAIRS.items()}


def unpaired_brackets(text: str) -> int:
    """How many brackets of ``text`` have no partner of their kind.

    >>> unpaired_brackets("（案其各本）"), unpaired_brackets("膳［挚"), unpaired_brackets("］（《》")
    (0, 1, 2)
    """
    depth: dict[str, int] = {}
    lone = 0
    for ch in text:
        if ch in BRACKET_PAIRS:
            depth[ch] = depth.get(ch, 0) + 1
        elif ch in OPENING_OF:
            o = OPENING_OF[ch]
            if depth.get(o, 0):
                depth[o] -= 1
            else:
                lone += 1
    return lone + sum(depth.values())


def _in(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_han(ch: str) -> bool:
    """Han ideograph, including compatibility ideographs and Extensions B+.

    Written out rather than looped over ``HAN_RANGES``: the re-decoding search
    asks it millions of times.
    """
    cp = ord(ch)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x323AF or 0xF900 <= cp <= 0xFAFF


assert HAN_RANGES == ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x323AF)), "see is_han"


def is_private_use(ch: str) -> bool:
    return _in(ord(ch), PRIVATE_USE_RANGES)


def foreign_symbol_class(ch: str) -> str | None:
    """Name of the symbol row ``ch`` belongs to, or None.

    >>> foreign_symbol_class("ㄡ"), foreign_symbol_class("β"), foreign_symbol_class("之")
    ('bopomofo', 'greek', None)
    """
    cp = ord(ch)
    for lo, hi, name in FOREIGN_SYMBOL_RANGES:
        if lo <= cp <= hi:
            if name == "pinyin letter" and unicodedata.category(ch) != "Ll":
                return None
            return name
    return None


def is_radical_stand_in(ch: str) -> bool:
    cp = ord(ch)
    return (
        KANGXI_RADICALS[0] <= cp <= KANGXI_RADICALS[1] or CJK_RADICALS_SUPPLEMENT[0] <= cp <= CJK_RADICALS_SUPPLEMENT[1]
    )


def is_cjk_text(ch: str) -> bool:
    """Han or the punctuation and marks that stand between Han characters."""
    return is_han(ch) or ch in CJK_PUNCTUATION
