"""How often a lost character read by the channel is right, by its posterior.

The search gives each character whose bytes were lost a posterior among the
characters the channel allows.  Posteriors are not accuracies: this table is
what ``benchmarks/calibrate_channel.py`` observed on garbled held-out text,
per group of channels (what was lost differs: one continuation byte of 64,
a lead byte, most of the bytes).  Rows are (lower bound of the posterior,
characters, right), ascending; the confidence reported is (right+1)/(n+2) of
the row, and a row is split off only where at most 1% of its readings were
wrong, pooled and in every calibration run.
"""

from __future__ import annotations

from collections.abc import Sequence

from repair.channel.forward import Channel

# Filled by benchmarks/calibrate_channel.py; see docs/channel.md.
RELIABILITY: dict[str, tuple[tuple[float, int, int], ...]] = {
    "continuation byte lost": ((0.0, 1, 0),),
    "lead byte lost": ((0.0, 1, 0),),
    "most bytes lost": ((0.0, 1, 0),),
}


def group(channel: Channel) -> str:
    """Which row of ``RELIABILITY`` a channel's lost characters are judged by."""
    if channel.true == "utf-8" and channel.wrong not in ("big5", "cp950", "big5hkscs"):
        return "continuation byte lost"
    if channel.wrong == "utf-8":
        return "most bytes lost"
    return "lead byte lost"


def observed_accuracy(raw: float, table: Sequence[tuple[float, int, int]]) -> float:
    """The share of right answers in the reliability bin of ``raw``, shrunk: (right+1)/(n+2).

    ``table`` rows are (lower bound of the raw posterior, cases, right), ascending.

    >>> observed_accuracy(0.995, ((0.0, 98, 49), (0.99, 98, 98)))
    0.99
    """
    n, k = next((n, k) for lo, n, k in reversed(table) if raw >= lo)
    return (k + 1) / (n + 2)


def confidence(raw: float, channel: Channel) -> float:
    return observed_accuracy(raw, RELIABILITY[group(channel)])
