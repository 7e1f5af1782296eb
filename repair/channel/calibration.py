"""How often a lost character read by the channel is right, by its posterior.

The search gives each character whose bytes were lost a posterior among the
characters the channel allows.  Posteriors are not accuracies: this table is
what ``benchmarks/channel.py --calibrate`` observed on garbled held-out text,
per group of channels (what was lost differs: one continuation byte of 64,
a lead byte, most of the bytes).  Rows are (lower bound of the posterior,
characters, right), ascending; the confidence reported is (right+1)/(n+2) of
the row, and a row is split off only where at most 1% of its readings were
wrong, pooled and in every calibration run.
"""

from __future__ import annotations

from collections.abc import Sequence

from repair.channel.forward import Channel

# Fitted by ``python benchmarks/channel.py --calibrate --seeds 1 2 --docs 40``
# (the benchmark's seed 0 is not among them; 2 x 39 cases x 40 documents).  A
# group with one row has no cut that keeps to 1% wrong: its lost characters
# are listed, never written.  A group missing here applies nothing.  Groups
# ending in ``|thin`` hold the characters read with fewer than two known Han
# characters within the model's reach (``search.MIN_CONTEXT``).
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {
    "big5>gbk>?": ((0.0, 643, 455), (0.95, 1275, 1266)),
    "big5>gbk>?|thin": ((0.0, 573, 339),),
    "big5>gbk>ignore": ((0.0, 16, 15),),
    "big5>gbk>ignore|thin": ((0.0, 1, 1),),
    "big5>gbk>replace": ((0.0, 886, 684), (0.98, 1146, 1139)),
    "big5>gbk>replace|thin": ((0.0, 576, 364),),
    "big5>utf-8>replace": ((0.0, 188, 56),),
    "big5>utf-8>replace|thin": ((0.0, 273, 110),),
    "gbk>big5>?": ((0.0, 637, 379), (0.99, 435, 433)),
    "gbk>big5>?|thin": ((0.0, 190, 95),),
    "gbk>big5>ignore": ((0.0, 14, 12),),
    "gbk>big5>replace": ((0.0, 348, 160), (0.9, 483, 482)),
    "gbk>big5>replace|thin": ((0.0, 147, 73),),
    "gbk>cp1252>?": ((0.0, 2, 1), (0.8, 134, 134)),
    "gbk>cp1252>?|thin": ((0.0, 1, 1),),
    "gbk>cp1252>replace": ((0.0, 105, 102),),
    "gbk>utf-8>?": ((0.0, 691, 40),),
    "gbk>utf-8>?|thin": ((0.0, 318, 54),),
    "gbk>utf-8>replace": ((0.0, 1056, 62),),
    "gbk>utf-8>replace|thin": ((0.0, 408, 78),),
    "utf-8>big5>?": ((0.0, 1944, 521),),
    "utf-8>big5>?|thin": ((0.0, 5743, 1803),),
    "utf-8>big5>replace": ((0.0, 2101, 628),),
    "utf-8>big5>replace|thin": ((0.0, 6125, 1964), (0.95, 103, 103)),
    "utf-8>cp1252>?": ((0.0, 246, 189), (0.9, 1324, 1320)),
    "utf-8>cp1252>?|thin": ((0.0, 131, 115),),
    "utf-8>cp1252>ignore": ((0.0, 441, 377), (0.999, 568, 566)),
    "utf-8>cp1252>ignore|thin": ((0.0, 82, 71),),
    "utf-8>cp1252>replace": ((0.0, 231, 165), (0.9, 1248, 1239)),
    "utf-8>cp1252>replace|thin": ((0.0, 120, 104),),
    "utf-8>gb2312>?": ((0.0, 1396, 248),),
    "utf-8>gb2312>?|thin": ((0.0, 4472, 1335),),
    "utf-8>gb2312>replace": ((0.0, 1820, 362),),
    "utf-8>gb2312>replace|thin": ((0.0, 6235, 1874),),
    "utf-8>gbk>?": ((0.0, 243, 151), (0.9, 863, 858)),
    "utf-8>gbk>?|thin": ((0.0, 85, 33),),
    "utf-8>gbk>ignore": ((0.0, 182, 124), (0.95, 637, 635)),
    "utf-8>gbk>ignore|thin": ((0.0, 39, 25),),
    "utf-8>gbk>replace": ((0.0, 406, 314), (0.99, 724, 720)),
    "utf-8>gbk>replace|thin": ((0.0, 43, 19),),
}


WRONG_GROUPS = {
    "gbk": "gbk",
    "cp936": "gbk",
    "gb18030": "gbk",
    "gb2312": "gb2312",
    "big5": "big5",
    "cp950": "big5",
    "big5hkscs": "big5",
    "utf-8": "utf-8",
    "shift_jis": "shift_jis",
    "cp1252": "cp1252",
    "sloppy-windows-1252": "cp1252",
    "latin-1": "cp1252",
}


THIN = "|thin"


def group(channel: Channel) -> str:
    """Which row of ``RELIABILITY`` a channel's lost characters are judged by:
    what was lost differs with the true codec, the wrong decoder and what it
    did with the bytes it could not read."""
    true = (
        "gbk"
        if channel.true in ("gbk", "gb18030", "gb2312")
        else "big5"
        if channel.true.startswith("big5")
        else channel.true
    )
    return f"{true}>{WRONG_GROUPS.get(channel.wrong, channel.wrong)}>{channel.errors}"


def observed_accuracy(raw: float, table: Sequence[tuple[float, int, int]]) -> float:
    """The share of right answers in the reliability bin of ``raw``, shrunk: (right+1)/(n+2).

    ``table`` rows are (lower bound of the raw posterior, cases, right), ascending.

    >>> observed_accuracy(0.995, ((0.0, 98, 49), (0.99, 98, 98)))
    0.99
    """
    n, k = next((n, k) for lo, n, k in reversed(table) if raw >= lo)
    return (k + 1) / (n + 2)


def confidence(raw: float, channel: Channel, *, thin: bool = False) -> float:
    """The calibrated confidence of a lost character read at posterior ``raw``;
    ``thin``: read with too little known context, judged by a row of its own
    (``group(...) + THIN``; none: nothing is applied)."""
    rows = RELIABILITY.get(group(channel) + (THIN if thin else ""))
    return observed_accuracy(raw, rows) if rows else 0.0
