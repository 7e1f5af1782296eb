"""Write the small synthetic garbled files in samples/synthetic/.

Each file shows one kind of damage on a sentence written for the purpose
(lines of the Analects and Mencius), so the README example and the tests have
inputs whose clean form is known.  Re-running it rewrites the same bytes.

    python scripts/make_samples.py
"""

from __future__ import annotations

from pathlib import Path

import ftfy.bad_codecs  # noqa: F401  (registers sloppy-windows-1252)

OUT = Path(__file__).resolve().parent.parent / "samples" / "synthetic"

TRAD = "子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？」"
SIMP = "孟子见梁惠王。王曰：“叟不远千里而来，亦将有以利吾国乎？”孟子对曰：“王何必曰利？亦有仁义而已矣。”"


def samples() -> dict[str, bytes]:
    return {
        # UTF-8 text opened as GBK and saved again as UTF-8.
        "utf8_read_as_gbk.txt": (SIMP.encode("utf-8").decode("gb18030", errors="replace") + "\n").encode("utf-8"),
        # GBK bytes shown through cp1252.
        "gbk_read_as_cp1252.txt": (SIMP.encode("gbk").decode("sloppy-windows-1252") + "\n").encode("utf-8"),
        # A Big5 file, left in Big5 (the decoder must find the encoding).
        "big5_file.txt": (TRAD + "\n").encode("big5"),
        # A GBK file with one line pasted in from a UTF-8 source.
        "mixed_gbk_utf8.txt": (SIMP + "\n").encode("gbk") + (TRAD + "\n").encode("utf-8"),
        # Scraper leftovers: escapes, a watermark, a chapter counter.
        "scraped.txt": (
            "第3章\n子曰&#x5B78;而時習之，不亦說乎\\u003F有朋自遠方來【來源：某某書屋-moumoushuwu.com】，不亦%E6%A8%82乎。\n"
        ).encode(),
        # Kangxi radicals from a PDF extraction.
        "pdf_radicals.txt": "⼦曰：「學⽽時習之，不亦說乎？」⼈不知⽽不慍。\n".encode(),
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in samples().items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
