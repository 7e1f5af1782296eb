"""Families that only a language model can see: silent deletions and look-alikes.

A dropped character leaves nothing behind, and 已 for 己 is a real character
in the wrong place: both are found by the model noticing that the text is
improbable where it stands.  Without a model these detectors find nothing, by
design (a table-driven guess would flag every 己 in the corpus).  The
confusion sets are data, here; the model's check of look-alikes is
``repair.fill.lookalike`` (it runs after the fills, when a model is loaded).
Silent deletions are searched for against reference texts only: see docs/families.md.
"""

from __future__ import annotations

from repair.families.base import Document, MarkOnly
from repair.types import Span

LOOKALIKE_SETS: tuple[str, ...] = (
    "己已巳",
    "日曰",
    "个不",
    "未末",
    "戊戌戍",
    "土士",
    "刀刁",
    "人入八",
    "天夭",
    "大太犬",
    "千干于",
    "今令",
    "王玉",
    "侯候",
    "栗粟",
    "壺壼",
    "毋母",
    "徒徙",
    "拆折",
    "汨汩",
    "冶治",
    "祇祗衹",
    "崇祟",
    "晴睛",
    "辨辯辦",
    "暑署",
    "券劵",
)


class Deletions(MarkOnly):
    kind = "deletion"
    priority = 90
    trigger = ""  # found by the model and the references, not by a scan

    def detect(self, doc: Document) -> list[Span]:
        return []


class LookAlikes(MarkOnly):
    kind = "lookalike"
    priority = 90
    trigger = ""  # found by the model and the references, not by a scan

    def detect(self, doc: Document) -> list[Span]:
        return []
