"""The stages of a repair, one module each: decode, detect, decide, apply."""
