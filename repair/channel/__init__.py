"""The channel: how text is garbled by codecs, and how to read it back.

One place for the whole re-decoding channel, in three parts:

- ``tables`` and ``forward``: what each decoder does with each byte, from
  tables Python's own codecs wrote (``scripts/build_codec_tables.py``), and the
  garbling a text goes through (encode, lose bytes, decode wrongly, replace,
  write ``?`` or drop what does not decode, perhaps twice);
- ``search``: the inverse, a beam search over the byte lattice of an observed
  string that reads it as characters of the true codec with the language
  model, and gives each character whose bytes were lost its posterior;
- ``lines``: which channel garbled each line, cheapest hypotheses first.
"""

from repair.channel.forward import ERROR_MODES, TRUE_CODECS, Channel, garble
from repair.channel.lines import Segment, read_text
from repair.channel.tables import DECODERS, decoder

__all__ = ["DECODERS", "ERROR_MODES", "TRUE_CODECS", "Channel", "Segment", "decoder", "garble", "read_text"]
