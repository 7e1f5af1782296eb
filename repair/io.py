"""File input and output that never loses data.

Inputs are only read, never written.  Outputs are written to a temporary file
in the destination folder and renamed over the target, so a crash or a kill
leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO

from repair.errors import RepairError, UnwritableOutputError

MAX_INPUT_BYTES = 2 << 30


def open_input(path: Path) -> BinaryIO:
    """The input opened for reading; every problem a user can cause is a ``RepairError``."""
    try:
        if path.is_dir():
            raise RepairError(f"{path}: is a directory (use -r to clean directories)")
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise RepairError(f"{path}: file too large ({size} bytes; the limit is {MAX_INPUT_BYTES})")
        return path.open("rb")
    except FileNotFoundError:
        raise RepairError(f"{path}: no such file") from None
    except PermissionError:
        raise RepairError(f"{path}: permission denied") from None
    except IsADirectoryError:
        raise RepairError(f"{path}: is a directory (use -r to clean directories)") from None
    except OSError as err:
        raise RepairError(f"{path}: cannot read: {err.strerror or err}") from None


def read_input(path: Path) -> bytes:
    with open_input(path) as fh:
        try:
            return fh.read()
        except OSError as err:
            raise RepairError(f"{path}: cannot read: {err.strerror or err}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class AtomicFile:
    """A file written a piece at a time under a temporary name beside ``path``:
    ``commit`` renames it over ``path`` (whole), ``discard`` removes it (nothing).

    Errors name the folder or file and ``what`` (output, report, backup).  A
    kill leaves at most the temporary file, which the next batch sweeps away.
    """

    def __init__(self, path: Path, *, what: str = "output") -> None:
        self.path = Path(path)
        self.what = what
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as err:
            raise UnwritableOutputError(f"{self.path.parent}: cannot write {what}: {err.strerror or err}") from None
        self._fh = os.fdopen(fd, "wb")
        self._committed = False

    def _failed(self, err: OSError) -> UnwritableOutputError:
        self.discard()
        return UnwritableOutputError(f"{self.path}: cannot write {self.what}: {err.strerror or err}")

    def write(self, data: bytes) -> int:
        try:
            return self._fh.write(data)
        except OSError as err:
            raise self._failed(err) from None

    def reset(self) -> None:
        """Start again from an empty file."""
        try:
            self._fh.seek(0)
            self._fh.truncate()
        except OSError as err:
            raise self._failed(err) from None

    def commit(self) -> None:
        try:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            os.chmod(self.tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
            os.replace(self.tmp, self.path)
            self._committed = True
        except OSError as err:
            raise self._failed(err) from None

    def discard(self) -> None:
        """Remove the temporary file (nothing once committed)."""
        if self._committed:
            return
        try:
            self._fh.close()
        except OSError:
            pass
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def write_atomic(path: Path, data: bytes, *, what: str = "output") -> None:
    """Write ``data`` to ``path`` whole or not at all; an error names the folder or file and ``what``."""
    out = AtomicFile(path, what=what)
    try:
        out.write(data)
        out.commit()
    except BaseException:
        out.discard()
        raise


def copy_atomic(source: Path, path: Path, *, what: str = "output") -> None:
    """Copy ``source`` to ``path`` whole or not at all, a block at a time."""
    out = AtomicFile(path, what=what)
    try:
        with open_input(source) as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                out.write(block)
        out.commit()
    except OSError as err:
        out.discard()
        raise RepairError(f"{source}: cannot read: {err.strerror or err}") from None
    except BaseException:
        out.discard()
        raise
