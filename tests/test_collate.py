"""Collation of a damaged document with references that are not exact copies."""

from __future__ import annotations

import random

import pytest

from repair.collate import ReferenceIndex, align

# The opening of the Analects, book 1, punctuated as a modern edition would.
TEXT = (
    "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？"
    "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。"
    "君子務本，本立而道生。孝弟也者，其為仁之本與！"
    "子曰：巧言令色，鮮矣仁！"
    "曾子曰：吾日三省吾身：為人謀而不忠乎？與朋友交而不信乎？傳不習乎？"
    "子曰：道千乘之國，敬事而信，節用而愛人，使民以時。"
    "子曰：弟子入則孝，出則弟，謹而信，汎愛眾，而親仁。行有餘力，則以學文。"
    "子夏曰：賢賢易色；事父母，能竭其力；事君，能致其身；與朋友交，言而有信。雖曰未學，吾必謂之學矣。"
    "子曰：君子不重則不威，學則不固。主忠信，無友不如己者，過則勿憚改。"
    "曾子曰：慎終追遠，民德歸厚矣。"
)
# Notes an interleaving edition puts after phrases of the text (made up, Han only).
NOTES = (
    "馬曰子者男子之通稱",
    "王曰時者學者以時誦習之",
    "包曰同門曰朋",
    "慍怒也凡人有所不知君子不怒",
    "鄭曰言人當務修其本",
    "孔曰巧好其言語令善其顏色皆欲令人說之少能有仁也",
    "注謂省察也",
    "言治國之要在此五者",
)


def han_index(text: str, nth: int) -> int:
    """The offset of the ``nth`` character of ``text`` that is not punctuation."""
    seen = -1
    for i, ch in enumerate(text):
        if "\u4e00" <= ch <= "\u9fff":
            seen += 1
            if seen == nth:
                return i
    raise IndexError(nth)


def damage(text: str, offsets: list[int], mark: str = "〓") -> str:
    chars = list(text)
    for i in offsets:
        chars[i] = mark
    return "".join(chars)


def unpunctuated(text: str) -> str:
    return "".join(ch for ch in text if "\u4e00" <= ch <= "\u9fff")


def test_exact_copy_reads_every_gap():
    gaps = [han_index(TEXT, n) for n in (6, 30, 55, 90, 140, 170)]
    aligned = align(damage(TEXT, gaps), TEXT)
    for i in gaps:
        reading = aligned.read(i, i + 1)
        assert reading.text == TEXT[i], i
        assert reading.offsets == (i,)
        assert reading.solid
        assert reading.left_matches >= 4 and reading.right_matches >= 4
    assert aligned.deletions() == [] and aligned.insertions() == []


def test_another_edition_variants_and_punctuation():
    edition = TEXT.replace("為", "爲").replace("說", "説").replace("眾", "衆")
    edition = edition.replace("：", "，").replace("？", "。").replace("；", "，")
    # gaps at 為 (read as the edition writes it) and at ordinary characters
    wei = [i for i, ch in enumerate(TEXT) if ch == "為"]
    others = [han_index(TEXT, n) for n in (10, 76, 160)]
    assert "為" not in [TEXT[i] for i in others]
    aligned = align(damage(TEXT, wei + others), edition)
    for i in wei:
        reading = aligned.read(i, i + 1)
        assert reading.text == "爲" and reading.solid, i
        assert edition[reading.offsets[0]] == "爲"
    for i in others:
        reading = aligned.read(i, i + 1)
        assert reading.text == TEXT[i] and reading.solid, i
    # a variant form next to a gap still counts as a match
    shuo = TEXT.index("說")
    reading = aligned.read(shuo - 1, shuo)
    assert reading.text == "亦" and reading.solid


def test_variant_table_plugs_in_as_fold():
    # 悦 for 說 is a reading of another edition that no script conversion folds
    edition = TEXT.replace("不亦說乎", "不亦悦乎")
    gap = TEXT.index("說") + 1  # 乎
    doc = damage(TEXT, [gap])
    plain = align(doc, edition).read(gap, gap + 1)
    table = {"悦": "说", "說": "说"}
    folded = align(doc, edition, fold=lambda ch: table.get(ch, ch)).read(gap, gap + 1)
    assert folded.text == "乎" and folded.solid
    assert folded.left_matches > plain.left_matches


def interleaved(text: str, seed: int) -> tuple[str, list[str]]:
    """``text`` with a note after every 10 to 60 of its characters."""
    rng = random.Random(seed)
    out, notes, i = [], [], 0
    while i < len(text):
        step = rng.randint(10, 60)
        out.append(text[i : i + step])
        i += step
        if i < len(text):
            note = NOTES[len(notes) % len(NOTES)]
            notes.append(note)
            out.append(note)
    return "".join(out), notes


def test_interleaved_edition_reads_the_text_and_reports_notes():
    edition, notes = interleaved(TEXT, seed=3)
    gaps = [han_index(TEXT, n) for n in (6, 33, 64, 101, 133, 180, 215)]
    aligned = align(damage(TEXT, gaps), edition)
    solid = 0
    for i in gaps:
        reading = aligned.read(i, i + 1)
        if reading.solid:
            solid += 1
            assert reading.text == TEXT[i], i
    assert solid >= len(gaps) - 1
    found = [run.text for run in aligned.insertions()]
    assert found == notes
    assert aligned.deletions() == []


def test_gap_next_to_a_note_is_not_solid():
    edition = TEXT.replace("時習之，", "時習之，" + NOTES[1])
    gap = TEXT.index("時習之") + 2  # 之, the note follows it
    reading = align(damage(TEXT, [gap]), edition).read(gap, gap + 1)
    assert reading.text.startswith("之") and len(reading.text) > 1
    assert not reading.solid


def test_commentary_quoting_in_pieces():
    # The commentary quotes two passages, comments on each, and skips the rest.
    first = "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？"
    second = "子曰：道千乘之國，敬事而信，節用而愛人，使民以時。"
    commentary = first + "此章勸人學也言學者以時誦習之所以為說也" + second + "此言治國之要在敬事信節用愛人時使民"
    inside = [TEXT.index("時習") + 1, TEXT.index("遠方") + 1, TEXT.index("敬事") + 1, TEXT.index("愛人")]
    outside = [TEXT.index("巧言") + 1, TEXT.index("三省") + 1, TEXT.index("慎終") + 1, TEXT.index("犯上者") + 1]
    aligned = align(damage(TEXT, inside + outside), commentary)
    for i in inside:
        reading = aligned.read(i, i + 1)
        assert reading.solid and reading.text == TEXT[i], i
    for i in outside:
        assert not aligned.read(i, i + 1).solid, i


def test_silent_deletion_is_reported():
    lost = TEXT.index("不慍") + 1  # 慍
    doc = TEXT[:lost] + TEXT[lost + 1 :]
    aligned = align(doc, TEXT)
    (run,) = aligned.deletions()
    assert run.text == "慍"
    assert TEXT[run.ref_start : run.ref_end] == "慍"
    assert doc[run.before] == "不" and doc[run.after] == "不"  # the next Han character
    assert aligned.insertions() == []


def test_extra_character_in_document():
    at = TEXT.index("巧言")
    doc = TEXT[:at] + "之" + TEXT[at:]
    assert align(doc, TEXT).extras() == [at]


def test_two_character_gap():
    at = TEXT.index("朋友交而不信")
    doc = damage(TEXT, [at, at + 1], "〓")
    aligned = align(doc, TEXT)
    reading = aligned.read(at, at + 2)
    assert reading.text == "朋友" and reading.solid
    # one mark per character: each mark reads its own
    assert aligned.read(at + 1, at + 2).text == "友"


def test_gap_before_a_question_mark_reads_the_run():
    at = TEXT.index("乎？")
    reading = align(damage(TEXT, [at]), TEXT).read(at, at + 1)
    assert reading.text == "乎" and reading.solid
    assert reading.run == (at, at + 2)  # the ？ may be a mark too: the reading covers both


def test_run_of_replacement_characters_for_one_character():
    at = TEXT.index("巧言") + 1  # 言, lost as three invalid bytes
    doc = TEXT[:at] + "\ufffd\ufffd\ufffd" + TEXT[at + 1 :]
    aligned = align(doc, TEXT)
    reading = aligned.read(at, at + 3)
    assert reading.text == "言" and reading.solid
    # each mark alone is part of the run: the reading is the same
    assert aligned.read(at + 1, at + 2).text == "言"


def test_gap_marks_of_every_kind():
    marks = ["□", "■", "?", "？", "\ufffd", "\ue123"]
    positions = [han_index(TEXT, n) for n in (20, 50, 80, 110, 140, 170)]
    doc = TEXT
    for mark, i in zip(marks, positions, strict=True):
        doc = doc[:i] + mark + doc[i + 1 :]
    aligned = align(doc, TEXT)
    for i in positions:
        reading = aligned.read(i, i + 1)
        assert reading.text == TEXT[i] and reading.solid, (i, reading)


def test_repeated_passage_gives_no_confident_wrong_reading():
    passage = "君子不重則不威學則不固主忠信無友不如己者過則勿憚改"
    # the reference has the passage twice, once with a different reading
    reference = "曾子曰慎終追遠民德歸厚矣" + passage + "子禽問於子貢曰夫子至於是邦也" + passage.replace("不威", "不畏")
    at = passage.index("不固") + 1
    doc = damage(passage, [at])
    reading = align(doc, reference).read(at, at + 1)
    assert not reading.solid
    # identical copies: no anchor at all
    reference = "曾子曰慎終追遠民德歸厚矣" + passage + "子禽問於子貢曰夫子至於是邦也" + passage
    aligned = align(doc, reference)
    assert not aligned.read(at, at + 1).solid
    assert aligned.blocks() == []


def test_document_unrelated_to_reference():
    aligned = align("天地玄黃宇宙洪荒日月盈昃辰宿列張〓來暑往秋收冬藏", TEXT)
    assert not any(aligned.read(i, i + 1).solid for i in range(25))


def test_index_built_once_serves_many_documents():
    index = ReferenceIndex(TEXT)
    for n in (5, 60, 120):
        i = han_index(TEXT, n)
        start = max(0, i - 30)
        doc = damage(TEXT, [i])[start : i + 30]
        reading = index.align(doc).read(i - start, i - start + 1)
        assert reading.text == TEXT[i] and reading.solid


def test_simplified_document_against_traditional_reference():
    doc = "子曰：学而时〓之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？"
    at = doc.index("〓")
    reading = align(doc, TEXT).read(at, at + 1)
    assert reading.text == "習" and reading.solid


def random_text(rng: random.Random, size: int) -> str:
    alphabet = [chr(cp) for cp in range(0x4E00, 0x4E00 + 3000)]
    return "".join(rng.choice(alphabet) for _ in range(size))


@pytest.mark.parametrize("doc_size", [1000, 4000])
def test_cost_is_linear(doc_size):
    """Cells of edit distance computed grow with the document, not with the reference."""
    rng = random.Random(7)
    small, large = random_text(rng, 20_000), None
    large = small + random_text(rng, 80_000)
    costs = []
    for reference in (small, large):
        start = 5000
        base = reference[start : start + doc_size]
        # damage every 50th character, drop every 97th, and interleave notes
        chars = []
        for i, ch in enumerate(base):
            if i % 97 == 0:
                continue
            chars.append("〓" if i % 50 == 0 else ch)
        doc = "".join(chars)
        aligned = ReferenceIndex(reference).align(doc)
        costs.append(aligned.cost)
        solid = [aligned.read(i, i + 1) for i, ch in enumerate(doc) if ch == "〓"]
        assert sum(r.solid for r in solid) >= 0.9 * len(solid)
    # the document's cost does not depend on the reference's size
    assert costs[0] == costs[1]
    # and is linear in the document: a few cells per character at most
    assert costs[0]["cells"] <= 20 * doc_size
    assert costs[0]["doc_ngrams"] <= doc_size


def test_gap_beside_a_repeated_character():
    # 追王大王王季: a gap at the first 王 of 王王 could be placed on either side of the other one
    text = "期之喪達乎大夫三年之喪達乎天子父母之喪無貴賤一也追王大王王季上祀先公以天子之禮斯禮也"
    at = text.index("王王")
    reading = align(damage(text, [at]), text).read(at, at + 1)
    assert reading.text == "王" and reading.solid
    at = text.index("喪無")
    doc = text[:at] + "〓〓" + text[at + 1 :]  # a run of two marks where the reference has one character
    reading = align(doc, text).read(at, at + 2)
    assert reading.text == "喪" and reading.solid
