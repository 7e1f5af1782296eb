"""Look-alike swaps found by the model: a twin from the confusion set wins only by a wide margin."""

from __future__ import annotations

from fill_support import needs_model

from repair.families.needs_model import LOOKALIKE_SETS
from repair.fill.lookalike import twins


def test_twins_come_from_the_sets_and_are_symmetric():
    table = twins()
    assert set(table) == {ch for group in LOOKALIKE_SETS for ch in group}
    for ch, others in table.items():
        assert ch not in others
        assert all(ch in table[o] for o in others)


@needs_model
def test_sure_swap_is_repaired_and_undoable():
    from repair import repair_text

    damaged = "夫子之文章，可得而聞也，夫子之言性與夭道，不可得而聞也。"
    result = repair_text(damaged)
    assert result.text == damaged.replace("夭", "天")
    (edit,) = result.edits
    assert (edit.kind, edit.before, edit.after, edit.applied) == ("lookalike", "夭", "天", True)
    assert edit.candidates[0].text == "天" and edit.confidence >= 0.9
    assert result.undo() == damaged


@needs_model
def test_likely_swap_is_reported_not_applied():
    from repair import repair_text

    damaged = "孟子見梁惠玉。王曰：叟不遠千里而來。"
    result = repair_text(damaged)
    assert result.text == damaged
    (edit,) = result.edits
    assert (edit.kind, edit.before, edit.applied) == ("lookalike", "玉", False)
    assert edit.candidates[0].text == "王" and edit.confidence < 0.9


@needs_model
def test_unsure_swap_is_not_mentioned():
    from repair import repair_text

    # 曾子日 is rare, but 日 is everywhere: the swap prior keeps it quiet.
    damaged = "曾子日：吾日三省吾身。"
    assert repair_text(damaged).edits == ()


@needs_model
def test_clean_classics_keep_every_set_character():
    from repair import repair_text

    text = (
        "子曰：學而時習之，不亦說乎？曾子曰：吾日三省吾身。己所不欲，勿施於人。"
        "天下大亂，王者不作，士不可以不弘毅。今之學者為人，古之學者為己。未知生，焉知死。"
    )
    result = repair_text(text)
    assert [e for e in result.edits if e.kind == "lookalike"] == []


def plain_check(text, edits, lm, *, min_confidence):
    """The check as it was: ``judge`` at every set character outside the edits, the reference."""
    import numpy as np

    from repair.fill import lookalike as lk
    from repair.fill.ranker import left_context, right_context
    from repair.types import Candidate, Edit

    table = lk.twins()
    taken = sorted((e.start, e.end) for e in edits)
    found = []
    k = 0
    for i, ch in enumerate(text):
        if ch not in table:
            continue
        while k < len(taken) and taken[k][1] <= i:
            k += 1
        if k < len(taken) and taken[k][0] <= i < taken[k][1]:
            continue
        left, right = left_context(text, i), right_context(text, i + 1)
        if len(left) + len(right) < lk.MIN_CONTEXT:
            continue
        cands, post = lk.judge(lm, left, ch, right)
        best = int(np.argmax(post))
        raw = float(post[best])
        if best == 0 or raw < lk.REPORT_AT:
            continue
        confidence = lk.calibrated(raw)
        applied = confidence >= min_confidence
        ranked = [Candidate(cands[j], round(float(post[j]), 4), "lm, look-alike set") for j in np.argsort(-post)]
        found.append(
            Edit(
                i,
                i + 1,
                ch,
                cands[best] if applied else ch,
                "lookalike",
                confidence,
                tuple(ranked),
                applied,
                note=(f"{'replaced by' if applied else 'may be'} its look-alike {cands[best]} (p={confidence:.3f})"),
                detail={"raw_posterior": round(raw, 4), "set": "".join(cands)},
            )
        )
    return sorted([*edits, *found], key=lambda e: (e.start, e.end))


def _varied_texts() -> list[str]:
    """Clean classics in both scripts, the users' damaged files (simplified,
    with lost characters), and each again with every fifth set character
    swapped for a twin: some eighteen thousand characters in all."""
    from pathlib import Path

    from repair.fill.lookalike import SET_RE

    root = Path(__file__).resolve().parents[2]
    texts = [(root / "tests" / "data" / "negative.txt").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8")[:1500] for p in sorted((root / "samples" / "seeds").glob("*.txt"))]
    table = twins()

    def planted(text: str) -> str:
        chars = list(text)
        for n, m in enumerate(SET_RE.finditer(text)):
            if n % 5 == 2:
                chars[m.start()] = table[m.group()][n % len(table[m.group()])]
        return "".join(chars)

    return texts + [planted(t) for t in texts]


@needs_model
def test_check_finds_exactly_what_judging_every_position_finds():
    """The check judges only where a twin can outscore the character; nothing
    the per-position loop would report is skipped, on clean text, damaged
    text and planted swaps, with and without other edits in the way."""
    from repair.fill.lookalike import SET_RE, check
    from repair.lm.model import load_default
    from repair.types import Edit

    lm = load_default()
    reported = 0
    for text in _varied_texts():
        # Other repairs: every lost character, and a stretch over every seventh set character.
        lost = [Edit(i, i + 1, "\ufffd", "〓", "replacement_char", 0.0) for i, ch in enumerate(text) if ch == "\ufffd"]
        spans = [m.start() for n, m in enumerate(SET_RE.finditer(text)) if n % 7 == 3]
        stretches = [Edit(i, i + 2, text[i : i + 2], text[i : i + 2], "placeholder", 0.0) for i in spans]
        for edits in ([], sorted(lost + stretches, key=lambda e: e.start)):
            for min_confidence in (0.5, 0.9):
                got = check(text, edits, lm, min_confidence=min_confidence)
                assert got == plain_check(text, edits, lm, min_confidence=min_confidence)
                reported += sum(e.kind == "lookalike" for e in got)
    assert reported >= 10  # the planted swaps are found: the comparison covers reports, not only silence


@needs_model
def test_outscored_agrees_with_the_full_scores():
    """``CharLM.outscored`` says yes exactly where a full scoring would, at any handicap."""
    import numpy as np

    from repair.fill.lookalike import _candidates, _slots
    from repair.fill.ranker import left_context
    from repair.lm.model import load_default
    from repair.lm.tokens import to_traditional

    lm = load_default()
    texts = _varied_texts()
    text = "".join(texts[len(texts) // 2 :])[:4000]  # with planted swaps
    yes = 0
    for i, left, right in _slots(text, []):
        cands = _candidates(text[i])[1]
        left, right = to_traditional(left), to_traditional(right)
        scores = np.asarray(lm.score_candidates(left, cands, right))
        for handicap in (-7.0, -3.0, 0.0, 3.0):
            expected = bool((scores[1:] + handicap > scores[0]).any())
            assert lm.outscored(left, cands, right, handicap) == expected, (left_context(text, i), text[i], handicap)
            yes += expected
    assert yes > 100


def test_contexts_projected_together_as_if_alone():
    from repair.lm.tokens import to_traditional
    from repair.lm.tokens import to_traditional_each as _projected

    pieces = ["学而时习之", "", "不亦说乎", "有朋自远方来", "后来", "皇后", "于是", "天干地支", "學而時習"]
    assert _projected(pieces) == [to_traditional(p) for p in pieces]
    assert _projected([]) == []
