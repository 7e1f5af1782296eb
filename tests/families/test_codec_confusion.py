"""Codec confusion: mojibake built here from clean sentences is re-decoded exactly.

Every case garbles a sentence written for the test with one (true, wrong)
codec pair, puts it between clean context, and checks the family label, the
exact span (the mojibake and nothing else), its offset and the repaired text.
"""

from __future__ import annotations

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252)
import pytest

from repair.lm.model import default_model_path

needs_model = pytest.mark.skipif(not default_model_path().exists(), reason="the shipped model is missing")

PLACEHOLDER = "〓"

TRAD = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎"
TRAD_2 = "天命之謂性率性之謂道脩道之謂教"
SIMP = "天命之谓性率性之谓道修道之谓教"
SIMP_2 = "道可道非常道名可名非常名"
SIMP_3 = "天下皆知美之为美斯恶已"
SIMP_PUNCT = "子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？"


def utf8_as_gbk(s: str) -> str:
    return s.encode("utf-8").decode("gb18030")


def big5_as_gbk(s: str) -> str:
    return s.encode("big5").decode("gb18030")


def gbk_as_big5(s: str) -> str:
    return s.encode("gbk").decode("big5hkscs")


def gbk_as_cp1252(s: str) -> str:
    return s.encode("gbk").decode("sloppy-windows-1252")


def big5_as_cp1252(s: str) -> str:
    return s.encode("big5").decode("sloppy-windows-1252")


def utf8_as_cp1252(s: str) -> str:
    return s.encode("utf-8").decode("sloppy-windows-1252")


def utf8_as_cp1252_twice(s: str) -> str:
    return utf8_as_cp1252(utf8_as_cp1252(s))


def utf8_as_latin1(s: str) -> str:
    return s.encode("utf-8").decode("latin-1")


BUG_FTFY_WIDENS_SPAN = (
    "the ftfy row fixes clean text around the mojibake as a no-op, and the whole-run reading "
    "wins the tie on gain: the span swallows the clean neighbours ('按：', a final '。')"
)
BUG_RUN_SPLIT_AT_NBSP = (
    "redecode.RUN_RE is [^\\s]+: byte A0 (cp1252) or 85 (Latin-1) of a UTF-8 sequence decodes "
    "to NBSP/NEL, which splits the mojibake into runs that cannot be re-read whole"
)

# (prefix, clean sentence, garbling, suffix) -> the span is garble(sentence) at len(prefix),
# and the output is prefix + sentence + suffix.
CASES = [
    pytest.param("", SIMP_2, utf8_as_gbk, "", id="utf8-as-gbk"),
    pytest.param("老子曰：", SIMP_2, utf8_as_gbk, "", id="utf8-as-gbk-after-context"),
    pytest.param("老子曰：\n", SIMP_2, utf8_as_gbk, "\n天下皆知美之為美。", id="utf8-as-gbk-own-line"),
    pytest.param("前言：", SIMP_PUNCT, utf8_as_gbk, "", id="utf8-as-gbk-punctuated-with-pua"),
    pytest.param("", TRAD, big5_as_gbk, "", id="big5-as-gbk-with-pua-and-kana"),
    pytest.param("注：", TRAD, big5_as_gbk, "。", id="big5-as-gbk-in-context"),
    pytest.param("《中庸》：", TRAD_2, big5_as_gbk, "。", id="big5-as-gbk-zhongyong"),
    pytest.param("", SIMP, gbk_as_big5, "", id="gbk-as-big5"),
    pytest.param("", "子曰学而时习之不亦说乎有朋自远方来不亦乐乎", gbk_as_big5, "", id="gbk-as-big5-lunyu"),
    pytest.param("按：", "子曰学而时习之不亦说乎有朋自远方来不亦乐乎", gbk_as_cp1252, "", id="gbk-as-cp1252"),
    pytest.param("《中庸》：", SIMP, gbk_as_cp1252, "。", id="gbk-as-cp1252-in-context"),
    pytest.param("", TRAD_2, big5_as_cp1252, "", id="big5-as-cp1252"),
    pytest.param("", SIMP_2, utf8_as_cp1252, "", id="utf8-as-cp1252"),
    pytest.param("", SIMP_3, utf8_as_cp1252, "", id="utf8-as-cp1252-2"),
    pytest.param("", SIMP_2, utf8_as_latin1, "", id="utf8-as-latin1"),
    pytest.param("", SIMP_2, utf8_as_cp1252_twice, "", id="utf8-as-cp1252-twice"),
    pytest.param("", "知者不言言者不知", utf8_as_cp1252_twice, "", id="utf8-as-cp1252-twice-2"),
    # A rare character at an end of the run is taken in with the debris it
    # became, not left as Latin letters beside the reading.
    pytest.param("", "杕杜章胡不佽焉", utf8_as_cp1252, "", id="utf8-as-cp1252-rare-first-character"),
    pytest.param("", "取亲中裙厕牏，身自浣涤", utf8_as_cp1252_twice, "", id="utf8-as-cp1252-twice-rare-characters"),
    # ︰ is a colon in traditional editions, not vertical-form debris.
    pytest.param("", "優旃曰︰「善。主上雖無言，臣固將請之。」", utf8_as_cp1252, "", id="vertical-colon"),
    # Rare Han before the mojibake: the reading of the whole core is out of
    # step, so it is also read from where the kana and private-use debris start.
    pytest.param("相踶馬而拙於任腫膝夫事有所", "必歸而以有所腫膝而", big5_as_gbk, "", id="big5-as-gbk-after-rare-han"),
    # Known problems.
    pytest.param(
        "按：",
        SIMP_2,
        utf8_as_cp1252,
        "。",
        id="utf8-as-cp1252-in-context",
    ),
    pytest.param(
        "按：",
        SIMP_2,
        utf8_as_cp1252_twice,
        "。",
        id="utf8-as-cp1252-twice-in-context",
    ),
    pytest.param(
        "",
        "学而时习之不亦说乎",
        utf8_as_cp1252,
        "",
        id="utf8-as-cp1252-with-nbsp-byte",
    ),
    pytest.param(
        "",
        SIMP_3,
        utf8_as_cp1252_twice,
        "",
        id="utf8-as-cp1252-twice-with-nbsp-byte",
    ),
    pytest.param(
        "",
        "知者不言言者不知",
        utf8_as_latin1,
        "",
        id="utf8-as-latin1-with-nel-byte",
    ),
]


@pytest.mark.parametrize(("prefix", "sentence", "garble", "suffix"), CASES)
def test_codec_confusion(repaired, observed, prefix, sentence, garble, suffix):
    mojibake = garble(sentence)
    assert mojibake != sentence
    result = repaired(prefix + mojibake + suffix)
    assert observed(result) == [("codec_confusion", mojibake, len(prefix))]
    assert result.text == prefix + sentence + suffix
    (edit,) = result.edits
    assert edit.applied and edit.after == sentence and edit.slots == ()


PUNCTUATED_CONTEXT = [
    pytest.param("", "。", id="stop-after"),
    pytest.param("老子曰：", "。", id="stop-after-in-context"),
    pytest.param("老子曰：", "\n", id="newline-after"),
    pytest.param("「", "」", id="in-quotes"),
]


@pytest.mark.parametrize(("prefix", "suffix"), PUNCTUATED_CONTEXT)
def test_punctuation_around_mojibake_is_not_a_hole(repaired, observed, prefix, suffix):
    # A full-width stop after UTF-8-as-GBK mojibake must not be read as the
    # cut half of a last character (it once became 〓).
    mojibake = utf8_as_gbk(SIMP_2)
    result = repaired(prefix + mojibake + suffix)
    assert observed(result) == [("codec_confusion", mojibake, len(prefix))]
    assert result.text == prefix + SIMP_2 + suffix
    assert result.edits[0].slots == ()


# UTF-8 read as GBK whose last character lost its final byte: the lone byte
# became U+FFFD, and the repair writes the placeholder there with a slot.
LOSSY_TAIL = [
    pytest.param("", "知之为知之不知为不知是知也", "", id="lossy-tail"),
    pytest.param("注：", "天下皆知美之为美斯恶已皆知善之为善斯不善已", "\n下一行。", id="lossy-tail-in-context"),
]


@pytest.mark.parametrize(("prefix", "sentence", "suffix"), LOSSY_TAIL)
def test_lossy_tail_gets_placeholder_and_slot(repaired, observed, prefix, sentence, suffix):
    mojibake = sentence.encode("utf-8").decode("gb18030", errors="replace")
    assert mojibake.count("\ufffd") == 1 and mojibake.endswith("\ufffd")  # the fixture is what it claims
    result = repaired(prefix + mojibake + suffix)
    assert observed(result) == [("codec_confusion", mojibake, len(prefix))]
    assert result.text == prefix + sentence[:-1] + PLACEHOLDER + suffix
    (edit,) = result.edits
    assert edit.applied
    assert edit.after == sentence[:-1] + PLACEHOLDER
    assert [(s.offset, s.length, s.chars) for s in edit.slots] == [(len(sentence) - 1, 1, 1)]


# Lossy signatures: detected, reported, never "repaired".
LOSSY_SIGNATURES = [
    pytest.param("锟斤拷", [("codec_confusion", "锟斤拷", 0)], id="alone"),
    pytest.param("子曰锟斤拷锟斤拷而時習之", [("codec_confusion", "锟斤拷锟斤拷", 2)], id="doubled-in-text"),
    pytest.param("学而时习之。锟斤拷", [("codec_confusion", "锟斤拷", 6)], id="after-sentence"),
    pytest.param(
        "烫烫烫烫",
        [("codec_confusion", "烫烫烫烫", 0)],
        id="stack-fill-whole-run",
    ),
]


@pytest.mark.parametrize(("text", "expected"), LOSSY_SIGNATURES)
def test_lossy_signature_detected_and_never_guessed(repaired, observed, text, expected):
    """锟斤拷 is two U+FFFD written in UTF-8 and read as GBK: the characters were
    lost before, and the bytes tell how many, so each becomes a marked gap;
    烫烫烫 (memory never written) tells no number and stays as it is."""
    result = repaired(text)
    assert observed(result) == expected
    assert result.undo() == text
    for e in result.edits:
        if e.before.startswith("锟"):
            lost = e.before.encode("gbk").decode("utf-8", "replace")
            assert e.applied and e.after == "〓" * len(lost) and len(e.slots) == len(lost)
        else:
            assert not e.applied and e.after == e.before


@needs_model
def test_lossy_signature_gaps_are_ranked_at_their_width():
    """The two characters 锟斤拷 stands for are ranked as a two-character gap:
    the report lists two-character readings, the text keeps two marks."""
    from repair import Repairer

    result = Repairer().repair_text("學而時習之，不亦锟斤拷有朋自遠方來，不亦樂乎？")
    (edit,) = [e for e in result.edits if e.before == "锟斤拷"]
    assert edit.after == "〓〓" and len(edit.slots) == 2
    assert edit.candidates and all(len(c.text) == 2 for c in edit.candidates)
    assert "the bytes tell 2 lost character(s)" in edit.note
    assert result.undo() == "學而時習之，不亦锟斤拷有朋自遠方來，不亦樂乎？"


def test_an_unpaired_bracket_counts_as_debris():
    # GBK read as Big5: only ㄛ (twice) and 衄 are improbable; the ［ that GBK
    # 其 reads as has no partner, and that makes the three a run needs.
    from repair import Repairer
    from repair.redecode import acceptable

    run = "悔，恐其有变，乃闭".encode("gb18030").decode("big5hkscs")
    assert run == "際ㄛ謁［衄曹ㄛ騰敕"
    assert acceptable(run, "悔，恐其有变，乃闭", doc_script="simplified")
    text = "樊哙从刘季来。沛令后" + run + "城城守，欲诛萧、曹。"
    assert Repairer(model=None).repair_text(text).text == "樊哙从刘季来。沛令后悔，恐其有变，乃闭城城守，欲诛萧、曹。"


@needs_model
@pytest.mark.parametrize("word", ["謝謝", "乱码", "用户名或密码错误"])
def test_a_short_string_never_gets_a_wrong_guess(word: str) -> None:
    """A lost character is judged by the characters the bytes fixed beside it,
    not by the guess next to it (謝謝 read as 謐謐, each 謐 sure of itself
    because of the other), and one with too little known context is judged by
    a row of its own: each character comes back right or marked."""
    from repair import Repairer

    garbled = word.encode("utf-8").decode("cp1252", errors="replace")
    assert "\ufffd" in garbled
    out = Repairer().repair_text(garbled).text
    assert len(out) == len(word)
    assert all(o in (w, "〓") for o, w in zip(out, word, strict=True)), out


def test_latin_mojibake_of_a_modern_greeting_reads_whole() -> None:
    """你好 as UTF-8 read as cp1252 is debris to the extreme: it reads back whole,
    not half (ä½ left beside 好), though 你 is rare in classical text."""
    from repair import Repairer

    garbled = "你好".encode().decode("cp1252")
    assert Repairer(model=None).repair_text(garbled).text == "你好"
