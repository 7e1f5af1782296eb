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
    "big5>gbk>?": ((0.0, 470, 332), (0.98, 1466, 1457)),
    "big5>gbk>?|thin": ((0.0, 264, 176), (0.999, 291, 290)),
    "big5>gbk>ignore": ((0.0, 15, 15),),
    "big5>gbk>ignore|thin": ((0.0, 2, 2),),
    "big5>gbk>replace": ((0.0, 637, 489), (0.99, 1411, 1402)),
    "big5>gbk>replace|thin": ((0.0, 315, 230), (0.9999, 245, 245)),
    "big5>utf-8>replace": ((0.0, 190, 57),),
    "big5>utf-8>replace|thin": ((0.0, 271, 124),),
    "gbk>big5>?": ((0.0, 726, 495), (0.9999, 346, 344)),
    "gbk>big5>?|thin": ((0.0, 190, 135),),
    "gbk>big5>ignore": ((0.0, 14, 12),),
    "gbk>big5>replace": ((0.0, 293, 131), (0.95, 538, 535)),
    "gbk>big5>replace|thin": ((0.0, 147, 103),),
    "gbk>cp1252>?": ((0.0, 0, 0), (0.5, 136, 136)),
    "gbk>cp1252>?|thin": ((0.0, 1, 1),),
    "gbk>cp1252>replace": ((0.0, 105, 102),),
    "gbk>utf-8>?": ((0.0, 691, 39),),
    "gbk>utf-8>?|thin": ((0.0, 318, 69),),
    "gbk>utf-8>replace": ((0.0, 1056, 59),),
    "gbk>utf-8>replace|thin": ((0.0, 408, 95),),
    "utf-8>big5>?": ((0.0, 1526, 442), (0.9999, 123, 123)),
    "utf-8>big5>?|thin": ((0.0, 6038, 2615),),
    "utf-8>big5>replace": ((0.0, 1803, 684),),
    "utf-8>big5>replace|thin": ((0.0, 6526, 2946),),
    "utf-8>cp1252>?": ((0.0, 169, 127), (0.9, 1401, 1397)),
    "utf-8>cp1252>?|thin": ((0.0, 19, 12), (0.98, 112, 112)),
    "utf-8>cp1252>ignore": ((0.0, 241, 194), (0.995, 768, 762)),
    "utf-8>cp1252>ignore|thin": ((0.0, 82, 74),),
    "utf-8>cp1252>replace": ((0.0, 154, 102), (0.9, 1325, 1317)),
    "utf-8>cp1252>replace|thin": ((0.0, 120, 117),),
    "utf-8>gb2312>?": ((0.0, 1141, 267),),
    "utf-8>gb2312>?|thin": ((0.0, 4727, 1839),),
    "utf-8>gb2312>replace": ((0.0, 1440, 375),),
    "utf-8>gb2312>replace|thin": ((0.0, 6615, 2619),),
    "utf-8>gbk>?": ((0.0, 228, 155), (0.95, 878, 873)),
    "utf-8>gbk>?|thin": ((0.0, 85, 39),),
    "utf-8>gbk>ignore": ((0.0, 143, 96), (0.95, 676, 672)),
    "utf-8>gbk>ignore|thin": ((0.0, 39, 30),),
    "utf-8>gbk>replace": ((0.0, 334, 249), (0.99, 796, 793)),
    "utf-8>gbk>replace|thin": ((0.0, 43, 30),),
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


def writable(raw: float, channel: Channel, *, thin: bool = False) -> bool:
    """Whether a lost character read at posterior ``raw`` is in a row split off
    at a cut (at most 1% wrong in calibration).  The row below the cut, or a
    group's only row, is listed, never written, however many of its readings
    were right: 117 of 120 is 2.5% wrong.

    >>> from repair.channel.forward import Channel
    >>> writable(0.999, Channel("utf-8", "gbk")), writable(0.5, Channel("utf-8", "gbk"))
    (True, False)
    """
    rows = RELIABILITY.get(group(channel) + (THIN if thin else ""))
    return bool(rows) and len(rows) > 1 and raw >= rows[-1][0]


def confidence(raw: float, channel: Channel, *, thin: bool = False) -> float:
    """The calibrated confidence of a lost character read at posterior ``raw``;
    ``thin``: read with too little known context, judged by a row of its own
    (``group(...) + THIN``; none: nothing is applied)."""
    rows = RELIABILITY.get(group(channel) + (THIN if thin else ""))
    return observed_accuracy(raw, rows) if rows else 0.0
