"""Errors a user can act on; the CLI turns each into one line and an exit code."""

from __future__ import annotations


class RepairError(Exception):
    """Base: a problem with the input or the environment, not a bug."""

    exit_code = 1


class BinaryInputError(RepairError):
    """The input is not text (an image, an archive, a compiled file)."""


class EmptyInputError(RepairError):
    """Reserved for callers that want to refuse empty input."""


class UnwritableOutputError(RepairError):
    """The output location cannot be written."""
