"""Indexes of reference texts kept on disk, mapped rather than rebuilt.

A reference of millions of characters (a user's library of classics) takes
seconds to index and, held as Python objects, gigabytes; a batch's workers
would each hold their own copy.  Its indexes are plain arrays instead,
written once to a cache folder keyed by the text and by everything that
decides them (the folding tables, the format), and read back with
``np.load(mmap_mode="r")``: every process that maps them shares the same
pages of the page cache, and a later run starts at once.

The cache folder is ``$REPAIR_CACHE_DIR`` when set (empty: no cache),
else ``$XDG_CACHE_HOME/repair`` (``~/.cache/repair``).  An index is a folder
of ``.npy`` files written under a temporary name and renamed into place, so
a reader never sees half of one; where nothing can be written the index is
built in memory, as it would be without a cache.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np

# Bumped whenever what is stored, or how it is computed, changes.
FORMAT = "1"
ENV = "REPAIR_CACHE_DIR"
# A reference shorter than this is indexed in memory: its index takes less
# time to build than a cache folder takes to be written and read.
MIN_CACHED_CHARS = 200_000


def cache_root() -> Path | None:
    """Where indexes are kept, or None when caching is turned off (``REPAIR_CACHE_DIR=``)."""
    env = os.environ.get(ENV)
    if env is not None:
        return Path(env) if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "repair"


@functools.cache
def fold_digest() -> str:
    """A digest of what decides how characters are folded: the variant table and
    the modules that fold and project (an edited table gives new indexes)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(FORMAT.encode())
    for rel in (
        "data/variants.tsv",
        "variants.py",
        "charclass.py",
        "collate.py",
        "collate_store.py",
        "fill/witness.py",
        "fill/reference_witness.py",
        "lm/tokens.py",
    ):
        path = root / rel
        digest.update(rel.encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    try:
        from importlib.metadata import version

        digest.update(version("opencc").encode())
    except Exception:  # no version known: the digest is of the code alone
        pass
    return digest.hexdigest()[:16]


def index_key(kind: str, text: str, **params: object) -> str:
    """The cache name of ``kind``'s index of ``text``: the text's SHA-256, the
    fold digest and the parameters, so a changed text or table gets a new index."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    extra = ",".join(f"{k}={v}" for k, v in sorted(params.items()))
    tail = hashlib.sha256(f"{fold_digest()}|{extra}".encode()).hexdigest()[:16]
    return f"{kind}-{digest[:32]}-{tail}"


def load(folder: Path, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The arrays of a complete index folder, mapped read-only; None if it is absent or unreadable."""
    if not folder.is_dir():
        return None
    try:
        return {name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in names}
    except (OSError, ValueError):
        return None


Arrays = Mapping[str, np.ndarray] | Iterable[tuple[str, np.ndarray]]


def _pairs(arrays: Arrays) -> Iterable[tuple[str, np.ndarray]]:
    return arrays.items() if isinstance(arrays, Mapping) else arrays


def save(folder: Path, arrays: Arrays) -> bool:
    """Write ``arrays`` as ``folder`` atomically: into a temporary folder beside
    it, then renamed.  False (and nothing left behind) when it cannot be written;
    when another process has written it first, its copy is kept.  ``arrays``
    may be a generator, so that each is written (and freed) as it is made."""
    tmp: str | None = None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=folder.parent)
        for name, arr in _pairs(arrays):
            with open(os.path.join(tmp, f"{name}.npy"), "wb") as f:
                np.save(f, np.ascontiguousarray(arr), allow_pickle=False)
                f.flush()
                os.fsync(f.fileno())
        try:
            os.replace(tmp, folder)
        except OSError:
            if not folder.is_dir():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # written meanwhile by another process
        return True
    except BaseException as err:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(err, OSError):
            return False
        raise


def cached(
    key: str,
    names: tuple[str, ...],
    build: Callable[[], Arrays],
    *,
    root: Path | str | None = "default",
) -> tuple[Mapping[str, np.ndarray], Path | None]:
    """The arrays named ``key``: mapped from the cache when there, else built,
    saved and mapped; built in memory when the cache cannot be used.  Also
    returns the folder they are mapped from (None: in memory)."""
    folder_root = cache_root() if root == "default" else root
    if folder_root is not None:
        folder = Path(folder_root) / key
        got = load(folder, names)
        if got is not None:
            return got, folder
        if save(folder, build()):
            got = load(folder, names)
            if got is not None:
                return got, folder
    return dict(_pairs(build())), None


def cached_text(data: bytes, make: Callable[[bytes], str], *, root: Path | str | None = "default") -> str:
    """``make(data)`` (a reference file cleaned of exact damage: seconds for a
    few megabytes), kept in the cache under the data's hash and the package
    code's digest, so a rerun reads it back; computed whenever the cache
    cannot be used."""
    folder_root = cache_root() if root == "default" else root
    if folder_root is None or len(data) < MIN_CACHED_CHARS:
        return make(data)
    from repair.batch import code_digest

    path = Path(folder_root) / f"text-{hashlib.sha256(data).hexdigest()[:32]}-{code_digest()}.txt"
    try:
        return path.read_bytes().decode("utf-8", "surrogatepass")
    except (OSError, UnicodeDecodeError):
        pass
    text = make(data)
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8", "surrogatepass"))
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return text


class Chars:
    """A read-only string held as an array of code points (a mapped one shares
    its pages between processes): indexing gives a character, slicing a ``str``."""

    __slots__ = ("codes",)

    def __init__(self, codes: np.ndarray) -> None:
        self.codes = codes

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i: int | slice) -> str:
        if isinstance(i, slice):
            part = self.codes[i]
            return np.ascontiguousarray(part).tobytes().decode("utf-32-le")
        return chr(self.codes[i])

    def __iter__(self) -> Iterator[str]:
        for start in range(0, len(self.codes), 1 << 16):
            yield from self[start : start + (1 << 16)]

    def __str__(self) -> str:
        return self[:]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Chars):
            return np.array_equal(self.codes, other.codes)
        return isinstance(other, str) and self[:] == other

    __hash__ = None  # type: ignore[assignment]


def codepoints(text: str) -> np.ndarray:
    """``text`` as uint32 code points."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
