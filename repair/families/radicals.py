"""Radical stand-ins: Kangxi radicals (U+2F00-) and CJK radical supplement forms
(U+2E80-) that PDF text extraction writes for ordinary ideographs.

The channel is exact where Unicode itself maps the radical to an ideograph:
NFKC does so for every Kangxi radical, and the supplement table below follows
Unicode's EquivalentUnifiedIdeograph data for the forms whose ideograph is
unambiguous.  A supplement form without a mapping is only marked.

>>> RadicalStandIns().detect(Document("⼀⼈之⼤"))[0].info["ideograph"]
'一'
"""

from __future__ import annotations

import re
import unicodedata

from repair.families.base import Document, Proposal
from repair.types import Candidate, Span

SUPPLEMENT_EQUIVALENTS: dict[str, str] = {
    "⺅": "亻",
    "⺆": "冂",
    "⺉": "刂",
    "⺊": "卜",
    "⺎": "兀",
    "⺐": "尢",
    "⺒": "巳",
    "⺓": "幺",
    "⺖": "忄",
    "⺗": "心",
    "⺘": "扌",
    "⺙": "攵",
    "⺛": "旡",
    "⺝": "月",
    "⺟": "母",
    "⺠": "民",
    "⺡": "氵",
    "⺢": "氺",
    "⺣": "灬",
    "⺤": "爫",
    "⺦": "丬",
    "⺨": "犭",
    "⺩": "王",
    "⺫": "罒",
    "⺬": "示",
    "⺭": "礻",
    "⺯": "糹",
    "⺰": "纟",
    "⺹": "耂",
    "⺺": "肀",
    "⺻": "聿",
    "⺼": "肉",
    "⺽": "臼",
    "⻁": "虎",
    "⻂": "衤",
    "⻃": "覀",
    "⻄": "西",
    "⻅": "见",
    "⻆": "角",
    "⻈": "讠",
    "⻉": "贝",
    "⻋": "车",
    "⻌": "辶",
    "⻏": "阝",
    "⻐": "钅",
    "⻑": "長",
    "⻒": "镸",
    "⻓": "长",
    "⻔": "门",
    "⻖": "阝",
    "⻗": "雨",
    "⻘": "青",
    "⻙": "韦",
    "⻚": "页",
    "⻛": "风",
    "⻜": "飞",
    "⻝": "食",
    "⻟": "飠",
    "⻠": "饣",
    "⻢": "马",
    "⻣": "骨",
    "⻤": "鬼",
    "⻥": "鱼",
    "⻦": "鸟",
    "⻧": "卤",
    "⻨": "麦",
    "⻩": "黄",
    "⻪": "黾",
    "⻫": "斉",
    "⻬": "齐",
    "⻭": "歯",
    "⻮": "齿",
    "⻯": "竜",
    "⻰": "龙",
    "⻱": "龜",
    "⻲": "亀",
    "⻳": "龟",
}

RADICAL_CLASS = "\u2e80-\u2ef3\u2f00-\u2fd5"
RADICAL_RE = re.compile(f"[{RADICAL_CLASS}]")


def equivalent_ideograph(ch: str) -> str | None:
    if "\u2f00" <= ch <= "\u2fd5":
        return unicodedata.normalize("NFKC", ch)
    return SUPPLEMENT_EQUIVALENTS.get(ch)


class RadicalStandIns:
    kind = "radical"
    priority = 30
    trigger = RADICAL_CLASS

    def detect(self, doc: Document) -> list[Span]:
        return [
            Span(m.start(), m.end(), self.kind, m.group(0), {"ideograph": equivalent_ideograph(m.group(0))})
            for m in RADICAL_RE.finditer(doc.text)
        ]

    def propose(self, span: Span, doc: Document) -> Proposal:
        ideograph = span.info["ideograph"]
        if ideograph is None:
            return Proposal(note="radical form with no unified equivalent: left marked")
        return Proposal((Candidate(ideograph, 0.0, "unicode equivalent"),), 1.0, note="radical mapped to its ideograph")
