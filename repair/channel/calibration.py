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

# Fitted by ``python benchmarks/channel.py --calibrate --seeds 1 2 --docs 60``
# (the benchmark's seed 0 is not among them; 2 x 39 cases x 60 documents).  A
# group with one row has no cut that keeps to 1% wrong: its lost characters
# are listed, never written.  A group missing here applies nothing.  Groups
# ending in ``|thin`` hold the characters read with fewer than two known Han
# characters within the model's reach (``search.MIN_CONTEXT``).
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {
    "big5>gbk>?": ((0.0, 712, 506), (0.98, 2253, 2236)),
    "big5>gbk>?|thin": ((0.0, 418, 271), (0.999, 428, 427)),
    "big5>gbk>ignore": ((0.0, 29, 29),),
    "big5>gbk>ignore|thin": ((0.0, 5, 4),),
    "big5>gbk>replace": ((0.0, 811, 595), (0.98, 2265, 2247)),
    "big5>gbk>replace|thin": ((0.0, 414, 287), (0.999, 445, 443)),
    "big5>utf-8>?": ((0.0, 9, 5),),
    "big5>utf-8>?|thin": ((0.0, 14, 6),),
    "big5>utf-8>replace": ((0.0, 308, 82),),
    "big5>utf-8>replace|thin": ((0.0, 409, 190),),
    "gbk>big5>?": ((0.0, 967, 623), (0.999, 658, 655)),
    "gbk>big5>?|thin": ((0.0, 304, 214),),
    "gbk>big5>ignore": ((0.0, 14, 12),),
    "gbk>big5>replace": ((0.0, 711, 449), (0.999, 587, 585)),
    "gbk>big5>replace|thin": ((0.0, 226, 156),),
    "gbk>cp1252>?": ((0.0, 2, 1), (0.8, 196, 196)),
    "gbk>cp1252>?|thin": ((0.0, 1, 1),),
    "gbk>cp1252>replace": ((0.0, 4, 1), (0.8, 186, 185)),
    "gbk>cp1252>replace|thin": ((0.0, 1, 1),),
    "gbk>utf-8>?": ((0.0, 1078, 65),),
    "gbk>utf-8>?|thin": ((0.0, 441, 106),),
    "gbk>utf-8>replace": ((0.0, 1600, 92),),
    "gbk>utf-8>replace|thin": ((0.0, 614, 155),),
    "utf-8>big5>?": ((0.0, 2596, 923),),
    "utf-8>big5>?|thin": ((0.0, 9247, 3958),),
    "utf-8>big5>replace": ((0.0, 2662, 1020),),
    "utf-8>big5>replace|thin": ((0.0, 9695, 4253),),
    "utf-8>cp1252>?": ((0.0, 223, 166), (0.9, 2097, 2087)),
    "utf-8>cp1252>?|thin": ((0.0, 37, 25), (0.995, 170, 170)),
    "utf-8>cp1252>ignore": ((0.0, 326, 261), (0.995, 1098, 1090)),
    "utf-8>cp1252>ignore|thin": ((0.0, 116, 108),),
    "utf-8>cp1252>replace": ((0.0, 231, 153), (0.9, 2049, 2036)),
    "utf-8>cp1252>replace|thin": ((0.0, 48, 45), (0.999, 114, 114)),
    "utf-8>gb2312>?": ((0.0, 1894, 475),),
    "utf-8>gb2312>?|thin": ((0.0, 7734, 3096),),
    "utf-8>gb2312>replace": ((0.0, 2261, 594),),
    "utf-8>gb2312>replace|thin": ((0.0, 10073, 4025),),
    "utf-8>gbk>?": ((0.0, 352, 221), (0.95, 1250, 1245)),
    "utf-8>gbk>?|thin": ((0.0, 178, 72),),
    "utf-8>gbk>ignore": ((0.0, 224, 146), (0.95, 1001, 995)),
    "utf-8>gbk>ignore|thin": ((0.0, 69, 56),),
    "utf-8>gbk>replace": ((0.0, 449, 299), (0.98, 1189, 1182)),
    "utf-8>gbk>replace|thin": ((0.0, 61, 46),),
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


def _rows(channel: Channel, thin: bool) -> tuple[tuple[float, int, int], ...] | None:
    return RELIABILITY.get(group(channel) + (THIN if thin else ""))


def writable(raw: float, channel: Channel, *, thin: bool = False) -> bool:
    """Whether a lost character read at posterior ``raw`` is in a row split off
    at a cut (at most 1% wrong in calibration).  The row below the cut, or a
    group's only row, is listed, never written, however many of its readings
    were right: 117 of 120 is 2.5% wrong.

    >>> from repair.channel.forward import Channel
    >>> writable(0.999, Channel("utf-8", "gbk")), writable(0.5, Channel("utf-8", "gbk"))
    (True, False)
    """
    rows = _rows(channel, thin)
    return bool(rows) and len(rows) > 1 and raw >= rows[-1][0]


def confidence(raw: float, channel: Channel, *, thin: bool = False) -> float:
    """The calibrated confidence of a lost character read at posterior ``raw``;
    ``thin``: read with too little known context, judged by a row of its own
    (``group(...) + THIN``; none: nothing is applied)."""
    rows = _rows(channel, thin)
    return observed_accuracy(raw, rows) if rows else 0.0
