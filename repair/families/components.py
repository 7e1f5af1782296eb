"""A rare character typed as its parts: 亻疑 for 儗, 钅薄 for 鑮, ‹豸干› or <豸干> for 豻.

The channel: the typist had no code for the character and wrote its
components, either bare (a side-form component that never stands alone,
followed by the rest) or inside angle brackets, or as an ideographic
description sequence (⿰亻疑).  Candidates are the characters whose
decomposition matches; until a decomposition table and the model choose, the
span is marked.
"""

from __future__ import annotations

import re

from repair.families.base import HAN_CLASS, Document, MarkOnly
from repair.types import Span

# Side forms that do not occur as words of running text (checked against the
# classical corpus: each occurs at most twice in 29 million characters, and
# then as a dictionary head-word).
SIDE_FORMS = "亻钅氵扌忄犭纟讠饣礻衤刂艹阝灬丬爫耂糹釒飠訁牜罒𧾷𤣩"

COMPONENT_RE = re.compile(
    # ‹豸干›, <豸干>, 〈豸干〉 with two or three parts
    f"[‹<〈]([{HAN_CLASS}{SIDE_FORMS}]{{2,3}})[›>〉]"
    # [門@里], [亻+疑] composition formulas
    f"|\\[[{HAN_CLASS}{SIDE_FORMS}][@+＋/][{HAN_CLASS}{SIDE_FORMS}](?:[@+＋/][{HAN_CLASS}])?\\]"
    # ideographic description sequences
    f"|[\u2ff0-\u2ffb](?:[\u2ff0-\u2ffb]|[{HAN_CLASS}{SIDE_FORMS}]){{2,4}}"
    # a bare side form followed by the rest of the character
    f"|[{SIDE_FORMS}][{HAN_CLASS}]"
)


class ComponentSpellings(MarkOnly):
    kind = "component"
    priority = 35

    def detect(self, doc: Document) -> list[Span]:
        return [Span(m.start(), m.end(), self.kind, m.group(0)) for m in COMPONENT_RE.finditer(doc.text)]
