"""Glyph tables: what a code means is learned once and applied across a digitization."""

from __future__ import annotations

import pytest
from fill_support import BASE, needs_model, run_repair

import repair
from repair.errors import RepairError
from repair.fill.glyphs import GlyphTable, code_key, code_text


def test_codes_round_trip():
    assert code_key("\ue7a1\ue3ab") == "U+E7A1 U+E3AB"
    assert code_text("U+E7A1 U+E3AB") == "\ue7a1\ue3ab"


def test_user_table_loads_and_bad_lines_are_refused(tmp_path):
    good = tmp_path / "good.tsv"
    good.write_text("# mine\nU+E000\t習\nU+3121\t燭\t0.95\t2\tuser\n", encoding="utf-8")
    table = GlyphTable.load(good)
    assert table.get("\ue000").char == "習" and table.get("\ue000").confidence == 1.0
    assert table.get("ㄡ").confidence == 0.95
    bad = tmp_path / "bad.tsv"
    bad.write_text("U+E000\t兩個\n", encoding="utf-8")
    with pytest.raises(RepairError):
        GlyphTable.load(bad)


@needs_model
def test_learned_from_a_witnessed_file_and_applied_to_another(tmp_path):
    learned = repair.Repairer(references=(BASE,)).repair_text("子曰學而時\ue000之，不亦說乎。")
    table = GlyphTable.learn([learned])
    assert table.get("\ue000").char == "習" and table.get("\ue000").source == "witness"
    path = tmp_path / "glyphs.tsv"
    table.save(path)
    other = repair.Repairer(glyph_table=path).repair_text("溫故\ue000新，可以為師矣。")
    assert other.text == "溫故習新，可以為師矣。"
    assert other.edits[0].candidates[0].source.startswith("glyph table")


@needs_model
def test_glyphs_command_and_clean_with_table(tmp_path):
    ref = tmp_path / "base.txt"
    ref.write_text(BASE, encoding="utf-8")
    a = tmp_path / "a.txt"
    a.write_text("子曰學而時\ue000之，不亦說乎。\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("溫故\ue000新。\n", encoding="utf-8")
    table = tmp_path / "t.tsv"
    run_repair("glyphs", "learn", a, "-o", table, "--reference", ref)
    assert "U+E000\t習" in table.read_text(encoding="utf-8")
    out = tmp_path / "out"
    run_repair("clean", b, "-o", out, "--glyph-table", table)
    assert (out / "b.txt").read_text(encoding="utf-8") == "溫故習新。\n"


def test_a_learned_run_of_codes_loads_back(tmp_path):
    # What learn writes for two codes read as one or two characters, load reads.
    path = tmp_path / "t.tsv"
    path.write_text("U+E3AB U+E4A4\t兔丕\t0.2\t5\tmodel\nU+E4B6 U+4ED8\t弣\t0.999\t3\twitness\n", encoding="utf-8")
    table = GlyphTable.load(path)
    assert table.get("\ue3ab\ue4a4").char == "兔丕"
    assert table.get("\ue4b6付").char == "弣"
    path.write_text("U+E3AB U+E4A4\t兔丕之\n", encoding="utf-8")
    with pytest.raises(RepairError):
        GlyphTable.load(path)


@needs_model
def test_glyphs_learn_lets_the_files_of_a_batch_witness_each_other(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("子曰學而時\ue000之，不亦說乎。\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text(BASE + "\n", encoding="utf-8")
    table = tmp_path / "t.tsv"
    run_repair("glyphs", "learn", a, b, "-o", table)
    assert "U+E000\t習\t0.9990\t1\twitness" in table.read_text(encoding="utf-8")
