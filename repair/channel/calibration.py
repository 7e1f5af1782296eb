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

# Filled by ``python benchmarks/channel.py --calibrate`` (seeds 1 and 2; the
# benchmark's seed 0 is not among them).  A group missing here applies nothing.
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {}


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


def confidence(raw: float, channel: Channel) -> float:
    rows = RELIABILITY.get(group(channel))
    return observed_accuracy(raw, rows) if rows else 0.0
