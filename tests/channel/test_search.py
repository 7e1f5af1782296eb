"""The inverse by search: exact where the bytes fix the text, the truth among the
candidates where they were lost, and work that grows linearly with the input."""

from __future__ import annotations

import pytest

from repair.channel.forward import Channel, garble
from repair.channel.lines import read_text
from repair.channel.scorer import UnigramScorer, scorer_for
from repair.channel.search import read, read_shifted, shifted_lattice
from repair.lm.model import default_model_path, load_default

needs_model = pytest.mark.skipif(not default_model_path().exists(), reason="the shipped model is missing")

TRAD = "賓入門左西面再拜主人答拜賓升自西階當阿東面致命主人降階西面拜送"
SIMP = "宾入门左西面再拜主人答拜宾升自西阶当阿东面致命主人降阶西面拜送"


@pytest.mark.parametrize(
    ("text", "true", "wrong"),
    [(TRAD, "big5", "latin-1"), (SIMP, "gbk", "latin-1"), (TRAD, "utf-8", "latin-1")],
)
def test_lossless_garbling_reads_back_exactly_without_a_model(text: str, true: str, wrong: str) -> None:
    g = garble(text, true, wrong)
    assert "\ufffd" not in g
    reading = read(g, Channel(true, wrong), UnigramScorer(), whole=True)
    assert reading.text == text
    assert not reading.posteriors  # no byte was lost: nothing to guess


@pytest.mark.parametrize(
    ("text", "true", "wrong", "errors"),
    [
        (SIMP, "utf-8", "gbk", "replace"),
        (TRAD, "utf-8", "gbk", "?"),
        (TRAD, "big5", "gbk", "replace"),
        (SIMP, "gbk", "big5", "replace"),
        (TRAD, "utf-8", "cp1252", "replace"),
    ],
)
def test_every_lost_character_has_the_truth_among_its_candidates(text: str, true: str, wrong: str, errors: str) -> None:
    """The channel is exact: the candidates of a lost character are exactly the
    characters whose bytes give back what was observed, so the truth is among them
    (for these channels, which lose at most one byte of a character)."""
    g = garble(text, true, wrong, errors)
    reading = read(g, Channel(true, wrong, errors), UnigramScorer(), whole=True)
    assert len(reading.text) == len(text)
    assert reading.posteriors, "this garbling loses bytes"
    for i, ranked in reading.posteriors.items():
        assert text[i] in [c for c, _ in ranked], (i, text[i], ranked[:5])


class CountingScorer(UnigramScorer):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def step(self, state, ch):
        self.calls += 1
        return super().step(state, ch)


@pytest.mark.parametrize(
    ("true", "wrong", "errors"),
    [("utf-8", "gbk", "replace"), ("big5", "gbk", "replace"), ("utf-8", "gbk", "ignore"), ("gbk", "utf-8", "replace")],
)
def test_work_grows_linearly_with_the_input(true: str, wrong: str, errors: str) -> None:
    """Four times the text costs at most five times the model calls (counted, not timed)."""
    one = garble(TRAD * 2, true, wrong, errors)
    four = garble(TRAD * 8, true, wrong, errors)
    a, b = CountingScorer(), CountingScorer()
    read(one, Channel(true, wrong, errors), a)
    read(four, Channel(true, wrong, errors), b)
    assert b.calls <= 5 * a.calls


@needs_model
def test_clean_text_beside_a_garbled_field_stays_as_it_is() -> None:
    field = garble("再拜主人答拜", "utf-8", "gbk")
    line = "賓入門左西面" + field + "賓升自西階"
    segs = read_text(line, load_default())
    assert len(segs) == 1
    assert line[: segs[0].start] == "賓入門左西面" and line[segs[0].end :] == "賓升自西階"


@needs_model
def test_scorer_prefers_the_documents_own_script() -> None:
    lm = load_default()
    trad, simp = scorer_for(lm, script="traditional"), scorer_for(lm, script="simplified")
    assert trad.rescore("賓入門左西面", ["說"], "")[0] > trad.rescore("賓入門左西面", ["说"], "")[0]
    assert simp.rescore("宾入门左西面", ["说"], "")[0] > simp.rescore("宾入门左西面", ["說"], "")[0]


LUNYU = "子曰学而时习之不亦说乎有朋自远方来不亦乐乎人不知而不愠不亦君子乎"


def _shifted_run(clean: str) -> tuple[str, list[int]]:
    """GBK bytes with the first lost, read by GB18030, private-use characters
    deleted (the seeds' channel); with the characters after which pairs went."""
    out = clean.encode("gbk")[1:].decode("gb18030", errors="replace")
    kept, deleted = [], []
    for c in out:
        if 0xE000 <= ord(c) <= 0xF8FF:
            deleted.append(len(kept))
        else:
            kept.append(c)
    return "".join(kept), deleted


def test_shifted_lattice_holds_the_bytes_one_byte_late() -> None:
    run, deleted = _shifted_run(LUNYU)
    assert deleted  # the sentence loses pairs: the test needs them
    body = run.rstrip("\ufffd")
    lat = shifted_lattice(body, "gb18030", cut_end=body != run)
    known = bytes(c for c in lat.cells if c >= 0)
    assert known == body.encode("gb18030")
    # A lost lead first, a lost trail last, an optional deleted pair between characters.
    assert lat.holes[0].start == 0 and not lat.holes[0].optional
    assert lat.holes[-1].start == len(lat.cells) - 1
    assert all(h.optional and h.widths == (2, 4, 6) for h in lat.holes[1:-1])
    assert shifted_lattice("abc", "gb18030", cut_end=False) is None  # not two-byte characters


@needs_model
def test_shifted_run_read_with_its_deleted_pairs() -> None:
    """The search puts the deleted pairs where they were (the pair reading alone
    keeps 之不 glued as 只, a common character) and reads the rest exactly."""
    run, deleted = _shifted_run(LUNYU)
    body = run.rstrip("\ufffd")
    reading = read_shifted(body, "gb18030", scorer_for(load_default(), "", "simplified"), cut_end=body != run)
    assert reading is not None
    assert len(reading.text) == len(LUNYU)
    for i, piece in enumerate(reading.pieces):
        if not piece.lossy:
            assert piece.text == LUNYU[i]
    assert sum(p.lossy for p in reading.pieces) >= 2 * len(set(deleted)) + 2
