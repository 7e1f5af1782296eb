"""Filling marked damage with the language model (the ranking half of the channel)."""
