"""Repair garbled Chinese text: mojibake, lost characters, stand-ins, scraper junk.

>>> from repair import repair_text
>>> repair_text("子曰&#x5B78;而時習之").text
'子曰學而時習之'
"""

from repair.api import Repairer, repair_bytes, repair_text
from repair.errors import BinaryInputError, RepairError
from repair.types import Candidate, Edit, Result, Slot, Span

__all__ = [
    "BinaryInputError",
    "Candidate",
    "Edit",
    "RepairError",
    "Repairer",
    "Result",
    "Slot",
    "Span",
    "repair_bytes",
    "repair_text",
]
__version__ = "0.3.0"
