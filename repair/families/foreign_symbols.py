"""Foreign symbols amid Han text: kana, bopomofo, Greek, circled numbers ...

The channel: a converter mapped a rare character into a fixed GB2312 symbol
row, so the symbol stands for one and the same rare character wherever it
occurs.  Only short runs with Han text on one side and Han or Chinese
punctuation on the other are claimed: a Japanese phrase, a Greek word or a
numbered list is text, not damage.

>>> [s.text for s in ForeignSymbols().detect(Document("鹑β。饮い鳖 αβγ表"))]
['β', 'い']
"""

from __future__ import annotations

import re

from repair.charclass import CJK_PUNCTUATION, FOREIGN_SYMBOL_RANGES, foreign_symbol_class, is_han
from repair.families.base import Document, MarkOnly
from repair.types import Span

MAX_RUN = 2
FOREIGN_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi, _ in FOREIGN_SYMBOL_RANGES)
FOREIGN_RUN_RE = re.compile(f"[{FOREIGN_CLASS}]+")
LIST_MARKS = set("、，。；：")
KANA_WORD_RE = re.compile("[\u3041-\u30ff]{3,}")


class ForeignSymbols(MarkOnly):
    kind = "foreign_symbol"
    priority = 45
    trigger = FOREIGN_CLASS

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans = []
        # A text with kana words (three or more in a row) is writing Japanese:
        # its kana are language, not stand-ins.  Kana inside a stretch another
        # family has claimed (GBK mojibake is full of them) say nothing.
        japanese = any(
            not any(a < m.end() and m.start() < b for a, b in doc.claimed) for m in KANA_WORD_RE.finditer(text)
        )
        for m in FOREIGN_RUN_RE.finditer(text):
            i, j = m.start(), m.end()
            cls = foreign_symbol_class(text[i])
            if cls is None:  # pinyin range holds capitals, which are not claimed
                continue
            if japanese and cls == "kana":
                continue
            left = text[i - 1] if i else ""
            right = text[j] if j < len(text) else ""
            han_side = (left and is_han(left)) or (right and is_han(right))
            cjk_sides = all(c == "" or c == "\n" or is_han(c) or c in CJK_PUNCTUATION for c in (left, right))
            # A lone symbol as an item of a Chinese list (鹑、β。) stands for a word too.
            list_item = j - i == 1 and left in LIST_MARKS and right in LIST_MARKS
            if j - i <= MAX_RUN and cjk_sides and (han_side or list_item):
                spans.append(Span(i, j, self.kind, text[i:j], {"row": cls}))
        return spans
