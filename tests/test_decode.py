"""``repair.repair_bytes``: finding the encoding of raw bytes, validated by the text it gives."""

from __future__ import annotations

import codecs
import gzip

import pytest
from binary_fixtures import tiny_png

from repair import BinaryInputError, RepairError, repair_bytes

# Ordinary text, written by hand: Analects 1.1-1.3, traditional and simplified.
TRAD = (
    "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？\n"
    "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。\n"
    "子曰：巧言令色，鮮矣仁！\n"
)
SIMP = (
    "子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？\n"
    "有子曰：其为人也孝弟，而好犯上者，鲜矣；不好犯上，而好作乱者，未之有也。\n"
    "子曰：巧言令色，鲜矣仁！\n"
)


def family(encoding: str | None) -> str:
    """The codec family a name belongs to, after Python's own normalisation."""
    assert encoding is not None
    name = codecs.lookup(encoding.removesuffix("-sig")).name
    if name.startswith("utf-16"):
        return "utf-16"
    if name in ("gb18030", "gbk", "gb2312"):
        return "gb"
    if name in ("big5", "big5hkscs", "cp950"):
        return "big5"
    return name


def assert_clean_decode(data: bytes, text: str, expected_family: str) -> None:
    result = repair_bytes(data)
    assert family(result.encoding) == expected_family, result.encoding
    assert result.source_text == text
    assert result.text == text
    assert result.applied == ()
    assert not result.text.startswith("\ufeff")


def test_utf8() -> None:
    result = repair_bytes(TRAD.encode("utf-8"))
    assert result.encoding == "utf-8"
    assert result.text == TRAD
    assert result.applied == ()


def test_utf8_with_bom() -> None:
    result = repair_bytes(codecs.BOM_UTF8 + TRAD.encode("utf-8"))
    assert family(result.encoding) == "utf-8"
    assert result.encoding.endswith("-sig"), "the BOM should be visible in the reported encoding"
    assert result.text == TRAD  # the BOM is not part of the text


@pytest.mark.parametrize("text", [TRAD, SIMP], ids=["trad", "simp"])
@pytest.mark.parametrize(
    ("codec", "bom"),
    [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)],
    ids=["le", "be"],
)
def test_utf16_with_bom(text: str, codec: str, bom: bytes) -> None:
    result = repair_bytes(bom + text.encode(codec))
    assert family(result.encoding) == "utf-16"
    assert codecs.lookup(result.encoding).name == codec  # the right byte order, too
    assert result.text == text
    assert result.applied == ()


def check_utf16_without_bom(text: str, codec: str) -> None:
    result = repair_bytes(text.encode(codec))
    assert family(result.encoding) == "utf-16"
    assert codecs.lookup(result.encoding).name == codec
    assert result.text == text
    assert result.applied == ()


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_one_line(codec: str) -> None:
    check_utf16_without_bom(TRAD.splitlines()[0], codec)


@pytest.mark.parametrize("text", [TRAD, SIMP], ids=["trad", "simp"])
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_several_lines(text: str, codec: str) -> None:
    check_utf16_without_bom(text, codec)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_ascii_without_bom(codec: str) -> None:
    text = "Confucius said: to learn and to practise it in due time, is that not a pleasure?\n"
    result = repair_bytes(text.encode(codec))
    assert codecs.lookup(result.encoding).name == codec
    assert result.text == text


@pytest.mark.parametrize("codec", ["gb18030", "gbk", "gb2312"])
def test_gb_family_simplified(codec: str) -> None:
    assert_clean_decode(SIMP.encode(codec), SIMP, "gb")


@pytest.mark.parametrize("codec", ["gb18030", "gbk"])
def test_gb_family_traditional(codec: str) -> None:
    assert_clean_decode(TRAD.encode(codec), TRAD, "gb")


def test_gb18030_four_byte_characters() -> None:
    text = "𠀀字見於《集韻》，學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？\n"
    raw = text.encode("gb18030")
    assert len(raw) > len(text.encode("gbk", "ignore"))  # it really holds a four-byte sequence
    assert_clean_decode(raw, text, "gb")


@pytest.mark.parametrize("codec", ["big5", "big5hkscs", "cp950"])
def test_big5_traditional(codec: str) -> None:
    assert_clean_decode(TRAD.encode(codec), TRAD, "big5")


def test_ascii_is_utf8() -> None:
    result = repair_bytes(b"plain ASCII text\n")
    assert result.encoding == "utf-8"
    assert result.text == "plain ASCII text\n"


def test_empty() -> None:
    result = repair_bytes(b"")
    assert result.text == ""
    assert result.edits == ()


# -- mixed encodings ----------------------------------------------------------------------------

U = [
    "子曰：學而時習之，不亦說乎？\n",
    "有朋自遠方來，不亦樂乎？\n",
    "人不知而不慍，不亦君子乎？\n",
    "巧言令色，鮮矣仁！\n",
]
G = "其为人也孝弟，而好犯上者，鲜矣。\n"

PRIMARY_ON_A_TIE = (
    "guess_encoding makes UTF-8 the main encoding only when more than half of the non-ASCII lines read as UTF-8; "
    "with one UTF-8 line and one GBK line the statistics pick GB18030 (which reads anything), so "
    "encoding_segments lists the UTF-8 line instead of the GBK line (the text itself is right)"
)


@pytest.mark.parametrize(
    ("layout", "gbk_line"),
    [
        pytest.param(["u0", "g"], 2, id="utf8-then-gbk"),
        pytest.param(["u0", "g", "u1"], 2, id="gbk-between-utf8"),
        pytest.param(["u0", "u1", "g", "u2", "u3"], 3, id="mostly-utf8"),
        pytest.param(["g", "u0", "u1", "u2", "u3"], 1, id="gbk-first"),
        pytest.param(["u0", "u1", "u2", "u3", "g"], 5, id="gbk-last"),
    ],
)
def test_utf8_file_with_a_gbk_line(layout: list[str], gbk_line: int) -> None:
    lines = [G if key == "g" else U[int(key[1])] for key in layout]
    data = b"".join(line.encode("gbk") if line is G else line.encode("utf-8") for line in lines)
    result = repair_bytes(data)
    assert result.text == "".join(lines)
    assert result.encoding == "utf-8"
    assert [(s["line"], family(s["encoding"])) for s in result.encoding_segments] == [(gbk_line, "gb")]


@pytest.mark.parametrize(
    "layout",
    [["u0", "g"], ["g", "u0"], ["u0", "g", "u1"], ["g", "u0", "g"], ["u0", "u1", "g", "u2", "u3"]],
    ids=lambda layout: "-".join(layout),
)
def test_mixed_lines_decode_right_and_segments_are_consistent(layout: list[str]) -> None:
    """Whatever the main encoding, every line is right and the segments list exactly the other lines."""
    lines = [G if key == "g" else U[int(key[1])] for key in layout]
    data = b"".join(line.encode("gbk") if line is G else line.encode("utf-8") for line in lines)
    result = repair_bytes(data)
    assert result.text == "".join(lines)
    assert result.applied == ()
    primary = family(result.encoding)
    assert primary in ("utf-8", "gb")
    expected = [
        (no, "gb" if line is G else "utf-8")
        for no, line in enumerate(lines, 1)
        if ("gb" if line is G else "utf-8") != primary
    ]
    assert [(s["line"], family(s["encoding"])) for s in result.encoding_segments] == expected


# -- undecodable bytes ----------------------------------------------------------------------------


def test_utf8_with_undecodable_bytes() -> None:
    head, middle, tail = "子曰：學而時習之，不亦說乎？", "有朋自遠方來，不亦樂乎？", "人不知而不慍，不亦君子乎？\n"
    data = head.encode() + b"\xff" + middle.encode() + b"\xfe\xfe" + tail.encode()
    result = repair_bytes(data)
    assert result.encoding == "utf-8"
    assert result.source_text == head + "\ufffd" + middle + "\ufffd\ufffd" + tail
    assert result.text == result.source_text  # nothing guessed: the rest is intact

    edits = [e for e in result.edits if e.kind == "replacement_char"]
    assert [(e.start, e.end, e.before) for e in edits] == [
        (len(head), len(head) + 1, "\ufffd"),
        (len(head) + 1 + len(middle), len(head) + 1 + len(middle) + 2, "\ufffd\ufffd"),
    ]
    assert not any(e.applied for e in edits)
    # The raw bytes behind each U+FFFD are reported, so nothing is lost.
    assert "FF" in str(edits[0].detail).upper()
    assert str(edits[1].detail).upper().count("FE") == 2
    assert result.undo() == result.source_text


def test_cut_utf8_character_at_the_end() -> None:
    text = "子曰：學而時習之，不亦說乎？有朋自遠方來"
    data = text.encode() + "樂".encode()[:2]
    result = repair_bytes(data)
    assert result.encoding == "utf-8"
    assert result.source_text.startswith(text)
    assert result.source_text[len(text) :] in ("\ufffd", "\ufffd\ufffd")
    assert [e.kind for e in result.edits] == ["replacement_char"]
    assert result.edits[0].start == len(text)


# -- binary input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: tiny_png(1, 1, b"\xff\x00\x00", 9), id="png-1x1-red"),
        pytest.param(
            lambda: tiny_png(8, 8, b"\x00\x00\x00", 0),
            id="png-8x8-black",
        ),
        pytest.param(lambda: gzip.compress(TRAD.encode("utf-8"), mtime=0), id="gzip-text"),
        pytest.param(
            lambda: gzip.compress(b"ab", mtime=0),
            id="gzip-tiny",
        ),
        pytest.param(lambda: b"PK\x03\x04" + bytes(range(40)), id="zip-header"),
        pytest.param(lambda: b"\x00\x01\x02\x03\xff\xfe\x00\x07" * 8 + b"\x05", id="nul-bytes"),
    ],
)
def test_binary_input_is_refused(make) -> None:
    data = make()
    with pytest.raises(BinaryInputError) as info:
        repair_bytes(data)
    assert isinstance(info.value, RepairError)
    assert "not a text file" in str(info.value)


def test_type_errors() -> None:
    with pytest.raises(TypeError):
        repair_bytes("not bytes")  # type: ignore[arg-type]
