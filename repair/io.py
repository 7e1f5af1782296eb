"""File input and output that never loses data.

Inputs are read whole as bytes and never written.  Outputs are written to a
temporary file in the destination folder and renamed over the target, so a
crash or a kill leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from repair.errors import RepairError, UnwritableOutputError

MAX_INPUT_BYTES = 2 << 30


def read_input(path: Path) -> bytes:
    try:
        if path.is_dir():
            raise RepairError(f"{path}: is a directory (use -r to clean directories)")
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise RepairError(f"{path}: file too large ({size} bytes; the limit is {MAX_INPUT_BYTES})")
        return path.read_bytes()
    except FileNotFoundError:
        raise RepairError(f"{path}: no such file") from None
    except PermissionError:
        raise RepairError(f"{path}: permission denied") from None
    except IsADirectoryError:
        raise RepairError(f"{path}: is a directory (use -r to clean directories)") from None
    except OSError as err:
        raise RepairError(f"{path}: cannot read: {err.strerror or err}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes, *, what: str = "output") -> None:
    """Write ``data`` to ``path`` whole or not at all; an error names the folder or file and ``what``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise UnwritableOutputError(f"{path.parent}: cannot write {what}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp, path)
    except OSError as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise UnwritableOutputError(f"{path}: cannot write {what}: {err.strerror or err}") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
