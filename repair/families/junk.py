"""Scraper junk: watermarks and site furniture inside the text.

The channel is a web page turned into text: it adds lines and bracketed notes
that were never part of the book (``【来源：读书之家-dushuzhijia.com】``, a
``第65章`` counter above a chapter that has its own title, a lone ``>``).  The
repair removes them and the report keeps every removed character.  Patterns
are a data table; a line is only removed whole when nothing else is on it.
"""

from __future__ import annotations

import re

from repair.families.base import Document, Proposal
from repair.types import Candidate, Span

DOMAIN = (
    r"(?<![%A-Za-z0-9])(?:https?://)?(?:www\.)?[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*"
    r"\.(?:com|net|org|cn|cc|tw|hk|info|top|xyz|me|io|co|la|vip|tv)(?![A-Za-z0-9-])(?:/[^\s】\])）]*)?"
)
# Phrases a site puts before its address, and the shapes of site names.
LABEL = (
    r"(?:(?:更多|免费|免費)[^\s，。：:【】\[\]（）()]{0,10}?(?:请访问|請訪問|访问|訪問|尽在|盡在|请到|請到)"
    r"|本书由|本書由|(?:来源|來源|转载自|轉載自|出自)[：:]?)"
)
SITE_KINDS = (
    "书屋|書屋|书阁|書閣|书院|書院|书库|書庫|书城|書城|小说网|小說網|文学网|文學網"
    "|中文网|中文網|书吧|書吧|书网|書網|阅读网|閱讀網"
)
SITE = r"(?:[\u4e00-\u9fff]{0,4}(?:" + SITE_KINDS + r"))"
NAVIGATION = r"上一[章页頁]|下一[章页頁]|返回目[录錄]|加入[书書]签"
AFTER = r"(?:整理|提供|首发|首發|制作|製作)"
INSIDE = r"[^【】\[\]（）()〔〕\n，。；]"

# (pattern, what it is, confidence); each pattern matches the junk exactly.
# (pattern, what it is, confidence, characters one of which every match holds:
# the detect stage's scan says which are in the text, so a pattern whose
# characters are absent is never run).
JUNK_PATTERNS: tuple[tuple[re.Pattern[str], str, float, str], ...] = (
    # A whole bracketed watermark: 【来源：读书之家-dushuzhijia.com】, （本书由x.la整理）
    # The bracket must close right after the address (or a word like 整理):
    # a real note that happens to hold an address keeps its own text.
    (
        re.compile(
            r"[【\[（(〔]" + INSIDE + r"{0,12}?" + DOMAIN + r"[ \t\u3000]*" + AFTER + r"?[ \t\u3000]*[】\]）)〕]"
        ),
        "watermark",
        0.99,
        "A-Za-z",  # the address's top-level domain
    ),
    # A bare site name or address glued to the text: -dushuzhijia.com, 更多…请访问x.cc
    (
        re.compile(
            r"(?:"
            + LABEL
            + r"[ \t\u3000]*)?(?:[-—_~]*[ \t\u3000]*"
            + SITE
            + r")?[ \t\u3000]*[-—_~]*[ \t\u3000]*"
            + DOMAIN
            + r"(?:[ \t\u3000]*"
            + AFTER
            + r")?"
        ),
        "watermark",
        0.99,
        "A-Za-z",  # the address's top-level domain
    ),
    # Site furniture alone on a line.
    (
        re.compile(r"(?m)^[ \t\u3000]*第[ \t]*[0-9０-９]+[ \t]*[章节節回页頁][ \t\u3000]*$\n?"),
        "chapter counter",
        0.95,
        "第",
    ),
    (re.compile(r"(?m)^[ \t\u3000]*[>＞<#*=~|_\-]{1,5}[ \t\u3000]*$\n?"), "stray symbol line", 0.95, r">＞<#*=~|_\-"),
    (
        re.compile(
            r"(?m)^[ \t\u3000]*(?:" + NAVIGATION + r"|本章完|手机阅读|手機閱讀)"
            r"(?:[ \t\u3000]*[|｜/][ \t\u3000]*(?:" + NAVIGATION + r"))*[ \t\u3000]*$\n?"
        ),
        "navigation line",
        0.95,
        "章页頁录錄签机機",
    ),
)


class Junk:
    kind = "junk"
    priority = 5
    trigger = "".join(needs for *_, needs in JUNK_PATTERNS)

    def detect(self, doc: Document) -> list[Span]:
        spans: list[Span] = []
        taken: list[tuple[int, int]] = []
        for pattern, what, confidence, needs in JUNK_PATTERNS:
            if not doc.holds(needs):
                continue
            for m in pattern.finditer(doc.text):
                start, end = m.start(), m.end()
                if start == end or any(s < end and start < e for s, e in taken):
                    continue
                start, end = _whole_line(doc.text, start, end)
                taken.append((start, end))
                spans.append(Span(start, end, self.kind, doc.text[start:end], {"what": what, "confidence": confidence}))
        return sorted(spans, key=lambda s: s.start)

    def propose(self, span: Span, doc: Document) -> Proposal:
        return Proposal(
            (Candidate("", 0.0, span.info["what"]),), span.info["confidence"], note=f"removed {span.info['what']}"
        )


LEFTOVER = " \t\u3000>＞<#*=~|_-—"


def _whole_line(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a match to its line (and newline) when nothing but stray symbols is
    left on it, so that removing junk leaves no junk behind (``-【…】``)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip(LEFTOVER) or text[end:line_end].strip(LEFTOVER):
        return start, end
    return line_start, min(line_end + 1, len(text))
