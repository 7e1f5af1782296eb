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
# are listed, never written.  A group missing here applies nothing.
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {
    "big5>gbk>?": ((0.0, 769, 546), (0.99, 1722, 1709)),
    "big5>gbk>ignore": ((0.0, 17, 17),),
    "big5>gbk>replace": ((0.0, 828, 600), (0.99, 1780, 1766)),
    "big5>utf-8>replace": ((0.0, 430, 150), (0.999, 31, 31)),
    "gbk>big5>?": ((0.0, 874, 588), (0.9999, 388, 386)),
    "gbk>big5>ignore": ((0.0, 14, 12),),
    "gbk>big5>replace": ((0.0, 423, 217), (0.98, 555, 552)),
    "gbk>cp1252>?": ((0.0, 0, 0), (0.5, 137, 137)),
    "gbk>cp1252>replace": ((0.0, 7, 4), (0.95, 98, 98)),
    "gbk>utf-8>?": ((0.0, 1009, 108),),
    "gbk>utf-8>replace": ((0.0, 1464, 154),),
    "utf-8>big5>?": ((0.0, 7687, 3180),),
    "utf-8>big5>replace": ((0.0, 8329, 3630),),
    "utf-8>cp1252>?": ((0.0, 177, 131), (0.9, 1524, 1517)),
    "utf-8>cp1252>ignore": ((0.0, 362, 305), (0.999, 729, 725)),
    "utf-8>cp1252>replace": ((0.0, 164, 110), (0.9, 1435, 1426)),
    "utf-8>gb2312>?": ((0.0, 5868, 2106),),
    "utf-8>gb2312>replace": ((0.0, 8055, 2994),),
    "utf-8>gbk>?": ((0.0, 390, 271), (0.99, 801, 796)),
    "utf-8>gbk>ignore": ((0.0, 156, 101), (0.95, 702, 697)),
    "utf-8>gbk>replace": ((0.0, 357, 260), (0.99, 816, 812)),
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
