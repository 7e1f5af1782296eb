"""Escapes left by scrapers and exports: ``&#x4E00;``, ``&#19968;``, ``\\u4e00``, ``%E4%B8%80``.

The channel is exact: an escape names its character, so the repair is the
decoded text with confidence 1.  Only escapes that decode to a real character
are claimed; ``100%`` or a stray ``&`` is left alone.  Escapes of the ASCII
markup characters (``&lt;``, ``&#x3C;``, ``\\u0026``, ...) stay escaped: decoded,
``&#x3C;script&#x3E;`` would become live markup for whoever later puts the
text into a web page.

>>> [s.text for s in Escapes().detect(Document("之&#x4E00;乎\\\\u4e8c%E4%B8%89&amp;&#x3C;"))]
['&#x4E00;', '\\\\u4e8c', '%E4%B8%89']
"""

from __future__ import annotations

import html
import re
import unicodedata
import urllib.parse

from repair.channel.tables import strict_decode
from repair.families.base import Document, Proposal
from repair.plausibility import mean_logp
from repair.types import Candidate, Span

# Never written decoded: each can turn text into markup (or break out of an attribute).
MARKUP_CHARACTERS = frozenset("<>&\"'")

# Named entities a scraper leaves in Chinese text; decoding others could turn
# prose like "&c" into something else, so the list is closed.
NAMED_ENTITIES = (
    "amp",
    "lt",
    "gt",
    "quot",
    "apos",
    "nbsp",
    "ldquo",
    "rdquo",
    "lsquo",
    "rsquo",
    "hellip",
    "mdash",
    "ndash",
    "middot",
    "emsp",
    "ensp",
    "times",
)

ESCAPE_RE = re.compile(
    r"&#[xX][0-9A-Fa-f]{2,6};"
    r"|&#[0-9]{2,7};"
    r"|&(?:" + "|".join(NAMED_ENTITIES) + r");"
    r"|(?:\\u[dD][89abAB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2})"
    r"|\\u[0-9A-Fa-f]{4}"
    r"|\\U000[0-9A-Fa-f]{5}"
    r"|(?:%[0-9A-Fa-f]{2}){2,}"
)


def decode_escape(text: str) -> str | None:
    """The character(s) an escape stands for, or None if it is not one."""
    if text.startswith("&"):
        out = html.unescape(text)
    elif text.startswith("%"):
        raw = urllib.parse.unquote_to_bytes(text)
        readings = [strict_decode(raw, codec) for codec in ("utf-8", "gb18030", "big5hkscs")]
        readings = [r for r in readings if r is not None and not r.isascii()]
        if not readings:
            return None
        # %D1%A7 is Cyrillic in UTF-8 and 学 in GBK: the likelier text wins.
        out = max(readings, key=mean_logp)
    else:
        try:
            out = text.encode("ascii").decode("unicode_escape").encode("utf-16", "surrogatepass").decode("utf-16")
        except (UnicodeDecodeError, UnicodeEncodeError):
            return None
    if (
        out == text
        or not MARKUP_CHARACTERS.isdisjoint(out)
        or "\ufffd" in out
        or any(unicodedata.category(c) in ("Cc", "Cs", "Cn") and c not in "\t\n" for c in out)
    ):
        return None
    return out


class Escapes:
    kind = "escape"
    priority = 10
    trigger = r"&\\%"

    def detect(self, doc: Document) -> list[Span]:
        spans = []
        for m in ESCAPE_RE.finditer(doc.text):
            decoded = decode_escape(m.group(0))
            if decoded is not None:
                spans.append(Span(m.start(), m.end(), self.kind, m.group(0), {"decoded": decoded}))
        return spans

    def propose(self, span: Span, doc: Document) -> Proposal:
        decoded = span.info["decoded"]
        return Proposal((Candidate(decoded, 0.0, "escape"),), 1.0, note="escape decoded")
