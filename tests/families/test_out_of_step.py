"""A reader that lost a character's lead byte reads on out of step until a pair is invalid.

Each case runs the channel forward on a sentence written for the test: a
simplified text holding one character GB2312 lacks (佇, 來: GBK 81 xx with a
trail byte of A1 or more), encoded as GBK and decoded as GB2312 with
replacement.  The lost character shows as U+FFFD, the next characters one
byte late, and a second U+FFFD where the reader fell back in step.
"""

from __future__ import annotations

import pytest

from repair import repair_text
from repair.fill.byte_holes import resynced

SENTENCE = "子曰：学而时习之，不亦说乎。有朋自{}方来，不亦乐乎。人不知而不愠，不亦君子乎。"


def read_as_gb2312(text: str) -> str:
    return text.encode("gbk").decode("gb2312", errors="replace")


@pytest.mark.parametrize("lost", ["來", "佇"])
def test_the_run_between_the_marks_is_read_in_step(lost):
    clean = SENTENCE.format(lost)
    damaged = read_as_gb2312(clean)
    start = damaged.index("\ufffd")
    result = repair_text(damaged, min_confidence=1.0)
    (edit,) = result.edits
    assert edit.kind == "byte_shift" and edit.start == start and edit.before == damaged[start : edit.end]
    # In step again: 方来 are back; the lost character and the comma the reader
    # swallowed are holes with the bytes that survive.
    assert edit.after == "〓方来〓"
    first, last = edit.slots
    assert first.constraint["not_in"] == "gb2312" and first.constraint["trail_byte"] == f"{lost.encode('gbk')[1]:02X}"
    assert last.constraint["lead_byte"] == "A3" and last.constraint["resync_reader"] == "gb2312"
    assert result.undo() == damaged


def test_the_model_and_the_bytes_restore_the_sentence():
    clean = SENTENCE.format("來")
    result = repair_text(read_as_gb2312(clean))
    assert result.text == clean  # 來 from its trail byte, ，from where the reader fell back in step


def test_two_unrelated_marks_keep_the_text_between_them():
    text = "子曰\ufffd学而时习之，不亦说乎\ufffd有朋自远方来"
    result = repair_text(text)
    assert all(e.kind == "replacement_char" for e in result.edits)
    assert result.text == text


def test_resync_needs_an_invalid_pair():
    # A3 AC is ，; AC starts no GB2312 pair, so the reader falls back in step there.
    # A3 BB is ；; BB B2 is a valid pair, so a reader would have read on.
    allowed = resynced(0xA3, 0xB2, "gb18030", "gb2312")
    assert "，" in allowed and "；" not in allowed


def test_a_trail_byte_in_the_ascii_range_puts_the_reader_back_in_step():
    # 甞 is not in Big5; read as Big5 its trail byte pairs with 君's lead byte,
    # and 君's trail byte (67, "g") is shown as itself: 孟�咩g為從章.
    clean = "齊欲伐魏。淳于髡謂齊王曰：孟甞君為從章，天下之所以重齊者也。"
    damaged = clean.encode("big5hkscs").decode("big5", errors="replace")
    assert "\ufffd" in damaged and "g" in damaged
    result = repair_text(damaged, min_confidence=1.0)
    (edit,) = [e for e in result.edits if e.kind == "byte_shift"]
    assert edit.before.startswith("\ufffd") and edit.before.endswith("g")
    assert edit.after == "〓君"  # 君 whole again from its two bytes; 甞 a hole with its trail byte
    assert edit.slots[0].constraint["not_in"] == "big5"
