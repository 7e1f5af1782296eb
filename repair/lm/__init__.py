"""The character n-gram language model: tokens, scoring, cache, training."""

from repair.lm.model import CharLM, default_model_path, load_default
from repair.lm.tokens import han_projection

__all__ = ["CharLM", "default_model_path", "han_projection", "load_default"]
