"""A rare character typed as its parts: 亻疑 for 儗, 钅薄 for 鑮, ‹豸干› or <豸干> for 豻.

The channel: the typist had no code for the character and wrote its
components, either bare (a side-form component that never stands alone,
followed by the rest), inside angle brackets, as a composition formula
([門@里]) or as an ideographic description sequence (⿰亻疑).  Candidates are
the characters whose decomposition matches; until a decomposition table and
the model choose, the span is marked.

>>> [s.text for s in ComponentSpellings().detect(Document("⿰亻疑而不進，見〈學記〉"))]
['⿰亻疑']
"""

from __future__ import annotations

import re

from repair.charclass import HAN_CLASS
from repair.families.base import Document, MarkOnly
from repair.types import Span

# Side forms that do not occur as words of running text (checked against the
# classical corpus: each occurs at most twice in 29 million characters, and
# then as a dictionary head-word).
SIDE_FORMS = "亻钅氵扌忄犭纟讠饣礻衤刂艹阝灬丬爫耂糹釒飠訁牜罒𧾷𤣩"
PART = f"[{HAN_CLASS}{SIDE_FORMS}]"
# Dictionary prose about a component (从亻, 亻聲, 亻也) is not a spelling.
DICTIONARY_WORDS = "从從聲声也者之部旁"

BRACKETED_RE = re.compile(
    # ‹豸干› and <豸干> with two or three parts; 〈…〉 only when a part is a
    # side form, since 〈學記〉 is a title.
    f"‹{PART}{{2,3}}›|<{PART}{{2,3}}>|〈(?=[^〉]*[{SIDE_FORMS}]){PART}{{2,3}}〉"
    # [門@里], [亻+疑] composition formulas
    f"|\\[{PART}[@+＋/]{PART}(?:[@+＋/]{PART})?\\]"
)
BARE_RE = re.compile(f"(?<![{DICTIONARY_WORDS}])[{SIDE_FORMS}](?![{DICTIONARY_WORDS}])[{HAN_CLASS}]")
IDS_BINARY = "⿰⿱⿴⿵⿶⿷⿸⿹⿺⿻"
IDS_TERNARY = "⿲⿳"


def ids_length(text: str, i: int) -> int:
    """Length of the ideographic description sequence starting at ``i`` (0 if none).

    Operators take two parts (three for ⿲⿳), and a part is a character or
    another sequence, so the sequence ends exactly where its last part does.
    """
    if i >= len(text):
        return 0
    ch = text[i]
    arity = 2 if ch in IDS_BINARY else 3 if ch in IDS_TERNARY else 0
    if arity == 0:
        return 1 if re.match(PART, ch) else 0
    pos = i + 1
    for _ in range(arity):
        n = ids_length(text, pos)
        if n == 0:
            return 0
        pos += n
    return pos - i


class ComponentSpellings(MarkOnly):
    kind = "component"
    priority = 35
    trigger = "‹<〈\\[" + IDS_BINARY + IDS_TERNARY + SIDE_FORMS

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        spans = [Span(m.start(), m.end(), self.kind, m.group(0)) for m in BRACKETED_RE.finditer(text)]
        for m in re.finditer(f"[{IDS_BINARY}{IDS_TERNARY}]", text):
            n = ids_length(text, m.start())
            if n > 1 and not any(s.start <= m.start() < s.end for s in spans):
                spans.append(Span(m.start(), m.start() + n, self.kind, text[m.start() : m.start() + n]))
        for m in BARE_RE.finditer(text):
            if not any(s.start < m.end() and m.start() < s.end for s in spans):
                spans.append(Span(m.start(), m.end(), self.kind, m.group(0)))
        return sorted(spans, key=lambda s: s.start)
