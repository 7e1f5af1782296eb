"""The registry: every damage family, in one table.

The pipeline iterates this table and never imports a family directly, so a new
family is one module and one line here.
"""

from __future__ import annotations

from repair.families.base import Family
from repair.families.byte_shift import ByteShift
from repair.families.codec_confusion import CodecConfusion
from repair.families.components import ComponentSpellings
from repair.families.escapes import Escapes
from repair.families.foreign_symbols import ForeignSymbols
from repair.families.junk import Junk
from repair.families.needs_model import Deletions, LookAlikes
from repair.families.placeholders import Placeholders
from repair.families.private_use import PrivateUse
from repair.families.question_marks import QuestionMarks
from repair.families.radicals import RadicalStandIns
from repair.families.replacement import ReplacementChars
from repair.families.split_chars import SplitChars

REGISTRY: tuple[Family, ...] = (
    Junk(),
    Escapes(),
    CodecConfusion(),
    ByteShift(),
    RadicalStandIns(),
    ComponentSpellings(),
    SplitChars(),
    QuestionMarks(),
    ReplacementChars(),
    PrivateUse(),
    ForeignSymbols(),
    Placeholders(),
    Deletions(),
    LookAlikes(),
)

FAMILY_KINDS: tuple[str, ...] = tuple(f.kind for f in REGISTRY)


def families(selected: tuple[str, ...] | None = None) -> tuple[Family, ...]:
    if selected is None:
        return tuple(sorted(REGISTRY, key=lambda f: f.priority))
    unknown = set(selected) - set(FAMILY_KINDS)
    if unknown:
        raise ValueError(f"unknown damage families: {', '.join(sorted(unknown))}")
    return tuple(sorted((f for f in REGISTRY if f.kind in selected), key=lambda f: f.priority))
