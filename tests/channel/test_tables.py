"""The decoders simulated from the generated tables behave exactly like Python's."""

from __future__ import annotations

import itertools
import random

import pytest

from repair.channel.tables import DECODERS, decoder, first_error, strict_decode


def _random_bytes(rng: random.Random) -> bytes:
    # Biased toward lead, trail and continuation ranges, where decoders differ.
    pick = (
        lambda: rng.randrange(256),
        lambda: rng.randrange(0x81, 0xFF),
        lambda: rng.randrange(0x30, 0x7F),
        lambda: rng.randrange(0x80, 0xC0),
        lambda: rng.randrange(0xE0, 0xF5),
    )
    return bytes(rng.choice(pick)() for _ in range(rng.randrange(1, 12)))


@pytest.mark.parametrize("name", DECODERS)
@pytest.mark.parametrize("errors", ["replace", "ignore"])
def test_simulated_decoder_matches_python_on_random_bytes(name: str, errors: str) -> None:
    rng = random.Random(f"{name}:{errors}")
    d = decoder(name)
    for _ in range(3000):
        data = _random_bytes(rng)
        assert d.decode(data, errors) == data.decode(name, errors), data.hex()


@pytest.mark.parametrize("name", DECODERS)
def test_strict_reading_matches_python_on_every_pair_and_random_bytes(name: str) -> None:
    """The re-readers of every family (byte shifts, cut characters, code pages)
    ask ``strict_decode``: it must raise where Python raises, and only there."""

    def python(data: bytes) -> tuple[str | None, int]:
        try:
            return data.decode(name), len(data)
        except UnicodeDecodeError as err:
            return None, err.start

    for data in (bytes(p) for p in itertools.product(range(256), repeat=2)):
        assert strict_decode(data, name) == python(data)[0], data.hex()
    rng = random.Random(name)
    for _ in range(3000):
        data = _random_bytes(rng)
        assert (strict_decode(data, name), first_error(data, name)) == python(data), data.hex()


@pytest.mark.parametrize("name", DECODERS)
def test_pieces_cover_the_bytes_in_order(name: str) -> None:
    data = "學而時習之，中文 text ÖÐ".encode() + "賓主".encode("big5") + "学".encode("gbk")
    pieces = decoder(name).pieces(data)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(pieces))


def test_question_mark_mode_writes_one_question_mark_per_replacement() -> None:
    data = "學而".encode()
    assert decoder("gbk").decode(data, "?") == data.decode("gbk", "replace").replace("\ufffd", "?")
