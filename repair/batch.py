"""Cleaning many files: walking, a process pool, resuming, and the batch summary.

The command line is a thin shell over this module.  Design choices:

- Each worker process rebuilds the ``Repairer`` once from its pickled state
  (settings, model path, witnesses) and maps the model once; files are the
  unit of work, so a slow file never holds up the others.
- Workers write their own outputs, reports and HTML pages, atomically
  (``repair.io.write_atomic``): a kill leaves the old file or the new one.
  Only small summary rows travel back to the parent.
- A re-run skips files whose output and report are up to date: the report
  records the input's hash, the output's hash and a fingerprint of every
  setting that could change the result (tool version, model file, threshold,
  references, glyph table, and the batch witnesses that touch this file).
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import hashlib
import io
import json
import os
import re
import resource
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from repair import stream
from repair.api import Repairer
from repair.errors import RepairError
from repair.families import FAMILY_KINDS
from repair.io import AtomicFile, copy_atomic, read_input, write_atomic
from repair.report import build_report, dumps, settings_of, sha256

DEFAULT_REPORT_SUBDIR = "_repair_reports"
# Written by write_atomic: ".<name>.<8 random chars>.tmp"; a kill can leave one.
STALE_TMP_RE = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


@dataclass(frozen=True)
class Job:
    source: Path
    relative: Path


@dataclass
class Plan:
    """Where a batch writes; ``in_place`` writes over the inputs after keeping a backup."""

    out_dir: Path | None
    report_dir: Path
    html: bool = True
    in_place: bool = False
    backup_suffix: str = ".orig"
    # Seconds a file may take (None or 0: no bound); past it the file is
    # written with its exact repairs only and reported as timed_out.
    max_seconds: float | None = None
    # Files above this many bytes are repaired this many characters at a time
    # (None: repair.stream's STREAM_BYTES and CHUNK_CHARS).
    stream_bytes: int | None = None
    chunk_chars: int | None = None

    def target(self, job: Job) -> Path:
        return job.source if self.in_place else self.out_dir / job.relative  # type: ignore[operator]

    def report_path(self, job: Job) -> Path:
        return self.report_dir / job.relative.with_name(job.relative.name + ".report.json")


@dataclass
class Outcome:
    """One file's row in the summary."""

    row: dict[str, Any]
    status: str  # "repaired", "timed_out", "skipped" or "failed"
    error: str = ""
    page: str = ""
    chars: int = 0
    pid: int = 0
    peak_rss_mb: float = 0.0
    lines: list[str] = field(default_factory=list)


def collect_inputs(
    paths: tuple[str, ...], recursive: bool, *, skip_dirs: tuple[Path, ...] = (), backup_suffix: str | None = None
) -> tuple[list[Job], list[str]]:
    """Expand the command line into files; errors for paths that cannot be used.

    Hidden files, report folders and (in place) backups are never inputs, so a
    re-run over the same folder does not clean its own by-products.
    """
    skip = {p.resolve() for p in skip_dirs}
    jobs: list[Job] = []
    errors: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            if not recursive:
                errors.append(f"{p}: is a directory (use -r to clean directories)")
                continue
            # A folder to skip that is the walked folder itself is not skipped: writing
            # onto the inputs is then caught file by file ("would overwrite").
            skip_here = {s for s in skip if s != p.resolve()}
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                if not f.is_file() or any(part.startswith(".") or part == DEFAULT_REPORT_SUBDIR for part in rel.parts):
                    continue
                if backup_suffix and f.name.endswith(backup_suffix):
                    continue
                if any(s in f.resolve().parents for s in skip_here):
                    continue
                jobs.append(Job(f, rel))
        elif p.exists():
            jobs.append(Job(p, Path(p.name)))
        else:
            errors.append(f"{p}: no such file or directory")
    return jobs, errors


def name_clashes(jobs: list[Job]) -> list[str]:
    """One message per output name that two or more inputs would share (``a/x.txt`` and
    ``b/x.txt`` given as files both become ``x.txt``), in command-line order.

    A batch with a clash is refused as a whole before anything is written: which of the
    inputs would win depends on the order workers finish, and the report of one would
    sit beside the output of the other.
    """
    by_name: dict[Path, list[Path]] = {}
    for job in jobs:
        by_name.setdefault(job.relative, []).append(job.source)
    return [
        f"{', '.join(map(str, sources))}: same output name {name.as_posix()!r}"
        " (give their folder with -r, which keeps relative paths, or clean them in separate runs)"
        for name, sources in by_name.items()
        if len(sources) > 1
    ]


def remove_stale_temporaries(*folders: Path) -> int:
    """Delete temporary files a killed run left behind (never anything else)."""
    removed = 0
    for folder in folders:
        if not folder.is_dir():
            continue
        for f in folder.rglob(".*.tmp"):
            if f.is_file() and STALE_TMP_RE.match(f.name):
                try:
                    f.unlink()
                    removed += 1
                except OSError:
                    pass
    return removed


def fingerprint(repairer: Repairer) -> str:
    """Every setting besides the input that decides a file's output, hashed (batch witnesses apart)."""
    from repair import __version__

    model = None
    if repairer.lm is not None:
        st = Path(repairer.lm.path).stat()
        model = [str(Path(repairer.lm.path).resolve()), st.st_size, st.st_mtime_ns]
    glyphs = repairer._glyphs
    parts = {
        "tool": __version__,
        "code": code_digest(),
        "settings": settings_of(repairer),
        "model": model,
        "references": [sha256(t) for t in repairer.references],
        "glyphs": sorted((k, v.char) for k, v in glyphs.entries.items()) if glyphs is not None else None,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]


@functools.cache
def code_digest() -> str:
    """A hash of the package's own code and tables: an edited or upgraded
    install with an unchanged version number still redoes every file."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".tsv", ".txt")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def witness_digest(repairer: Repairer, keys: set[str]) -> str:
    """What the batch's witnesses say about these gap contexts (a file's share of the index)."""
    index = repairer._witnesses
    if index is None or not keys:
        return ""
    seen = {
        f"{k}/{width}": sorted(table[k].items())
        for width, table in index.runs.items()
        for k in sorted(keys)
        if k in table
    }
    return hashlib.sha256(json.dumps(seen, ensure_ascii=False).encode()).hexdigest()[:16] if seen else ""


def up_to_date(plan: Plan, job: Job, digest: str, fp: tuple[str, str], *, large: bool = False) -> dict[str, Any] | None:
    """The existing report, when the file's output and report match its input and settings.

    ``digest`` is the input's SHA-256; ``fp`` is (settings fingerprint, digest of
    the batch witnesses for this file's gaps).  In place, the batch's texts are the
    earlier outputs, so the witnesses drawn from them are not comparable and only
    the settings count.  Of a ``large`` file's report only the head is read.
    """
    try:
        path = plan.report_path(job)
        report = stream.report_head(path) if large else json.loads(path.read_text(encoding="utf-8"))
        settings = report.get("settings", {})
        if settings.get("fingerprint") != fp[0]:
            return None
        if plan.in_place:
            # The input is the output now; a file changed since is cleaned again.
            return report if digest == report["output"]["sha256"] else None
        if settings.get("witnesses", "") != fp[1]:
            return None
        if digest == report["input"]["sha256"] and stream.utf8_sha256(plan.target(job)) == report["output"]["sha256"]:
            return report
    except (OSError, ValueError, KeyError, UnicodeDecodeError):
        return None
    return None


# --- the worker side -------------------------------------------------------------------------

_WORKER: Repairer | None = None
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Make this worker exit when the process that started it dies, even by SIGKILL.

    On Linux the kernel sends SIGKILL on the parent's death (``PR_SET_PDEATHSIG``);
    a daemon thread that polls the parent's pid is the fallback elsewhere (and
    covers a parent that died before the signal was asked for).  The kernel's signal
    follows the parent *thread* that started the worker: pools are started from the
    caller's thread, which lives as long as the batch.  Without this, a
    parent killed with ``kill -9`` or by the out-of-memory killer leaves its
    workers running, each holding a mapped model.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _init_worker(repairer: Repairer, parent: int | None = None) -> None:
    global _WORKER
    if parent is not None:
        _watch_parent(parent)
    _WORKER = repairer


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def clean_one(job: Job, plan: Plan, fp: tuple[str, str], repairer: Repairer | None = None) -> Outcome:
    """Repair one file and write its output, report and page; never raises for bad input."""
    repairer = repairer or _WORKER
    assert repairer is not None
    t0 = time.perf_counter()
    target = plan.target(job)
    base = {"input": str(job.source), "output": str(target)}
    try:
        large = stream.is_large(job.source, plan.stream_bytes)
        data = b"" if large else read_input(job.source)
        existing = up_to_date(plan, job, stream.file_sha256(job.source) if large else sha256(data), fp, large=large)
        if existing is not None and large and plan.html and not _page_path(plan, job).exists():
            existing = None  # a large file's page is written while it is repaired
        if existing is not None:
            page = ""
            if plan.html:
                from repair.html_report import page_href

                page = page_href(job.relative.as_posix())
                if not (plan.report_dir / "html" / Path(*page.split("/"))).exists():
                    from repair.html_report import write_file_page

                    page = write_file_page(
                        plan.report_dir, existing, plan.target(job).read_text("utf-8"), job.relative.as_posix()
                    )
            return Outcome(_row(base, existing, 0.0), "skipped", page=page, pid=os.getpid(), peak_rss_mb=_peak_rss_mb())
        if not plan.in_place and target.resolve() == job.source.resolve():
            raise RepairError(f"{job.source}: output would overwrite the input; choose another -o or --in-place")
        if large:
            return _clean_streamed(job, plan, fp, repairer, base, t0)
        settings = {**settings_of(repairer), "fingerprint": fp[0], "witnesses": fp[1]}
        timed_out = False
        try:
            with _deadline(plan.max_seconds):
                result = repairer.repair_bytes(data)
        except _TimedOut:
            # One file never stalls a worker: past the bound it gets the
            # repairs its bytes alone decide, and is redone by the next run.
            timed_out = True
            exact = exact_repairer(repairer)
            result = exact.repair_bytes(data)
            settings = {
                **settings_of(exact),
                "fingerprint": fp[0] + ":timed-out",
                "witnesses": fp[1],
                "timed_out_after_seconds": plan.max_seconds,
            }
        report = build_report(
            result, input_path=str(job.source), output_path=str(target), input_bytes=data, settings=settings
        )
        out = result.text.encode("utf-8")
        if plan.in_place:
            backup = job.source.with_name(job.source.name + plan.backup_suffix)
            if not backup.exists():  # the first backup holds the original; never overwrite it
                write_atomic(backup, data, what="backup")
        # The report (and its page) first: no output ever exists without the report that explains
        # it.  If the output then cannot be written, they go again (they would describe nothing).
        report_path = plan.report_path(job)
        written = [report_path]
        try:
            write_atomic(report_path, dumps(report).encode("utf-8"), what="report")
            page = ""
            if plan.html:
                from urllib.parse import unquote

                from repair.html_report import page_href, write_file_page

                href = page_href(job.relative.as_posix())
                written.append(plan.report_dir / "html" / Path(*map(unquote, href.split("/"))))
                page = write_file_page(plan.report_dir, report, result.text, job.relative.as_posix())
            if not plan.in_place or out != data:
                write_atomic(target, out)
        except BaseException:
            for path in written:
                try:
                    path.unlink()
                except OSError:
                    pass
            raise
        seconds = time.perf_counter() - t0
        status = "timed_out" if timed_out else "repaired"
        return Outcome(
            _row(base, report, seconds),
            status,
            page=page,
            chars=len(result.source_text),
            pid=os.getpid(),
            peak_rss_mb=_peak_rss_mb(),
        )
    except RepairError as err:
        msg = str(err) if str(err).startswith(str(job.source)) else f"{job.source}: {err}"
        return Outcome({**base, "status": "failed", "error": msg}, "failed", error=msg, pid=os.getpid())
    except Exception as err:  # a bug must not take a thousand-file batch down with it
        msg = f"{job.source}: internal error ({type(err).__name__}: {err}); please report it"
        return Outcome({**base, "status": "failed", "error": msg}, "failed", error=msg, pid=os.getpid())


def _page_path(plan: Plan, job: Job) -> Path:
    from urllib.parse import unquote

    from repair.html_report import page_href

    return plan.report_dir / "html" / Path(*map(unquote, page_href(job.relative.as_posix()).split("/")))


def _clean_streamed(
    job: Job, plan: Plan, fp: tuple[str, str], repairer: Repairer, base: dict[str, Any], t0: float
) -> Outcome:
    """``clean_one`` for a file above ``stream.STREAM_BYTES``: the same outputs, as atomic and
    in the same order, written while it is repaired a chunk at a time (``repair.stream``).
    Its HTML page shows the output's first chunk; the JSON report has every edit."""
    target, report_path = plan.target(job), plan.report_path(job)
    settings = {**settings_of(repairer), "fingerprint": fp[0], "witnesses": fp[1]}
    out = AtomicFile(target)
    report: AtomicFile | None = None
    published: list[Path] = []
    try:
        report = AtomicFile(report_path, what="report")

        def repair_with(r: Repairer, s: dict[str, Any]) -> stream.Streamed:
            out.reset()
            report.reset()
            return stream.repair_file(
                job.source,
                r,
                out,
                report,
                input_path=str(job.source),
                output_path=str(target),
                settings=s,
                chunk_chars=plan.chunk_chars,
                spool_dir=report_path.parent,
            )

        timed_out = False
        try:
            with _deadline(plan.max_seconds):
                made = repair_with(repairer, settings)
        except _TimedOut:
            timed_out = True
            exact = exact_repairer(repairer)
            settings = {
                **settings_of(exact),
                "fingerprint": fp[0] + ":timed-out",
                "witnesses": fp[1],
                "timed_out_after_seconds": plan.max_seconds,
            }
            made = repair_with(exact, settings)
        backup = job.source.with_name(job.source.name + plan.backup_suffix)
        if plan.in_place and not backup.exists():  # the first backup holds the original; never overwrite it
            copy_atomic(job.source, backup, what="backup")
        report.commit()
        published.append(report_path)
        page = ""
        if plan.html:
            from repair.html_report import write_file_page

            published.append(_page_path(plan, job))
            shown, total = len(made.preview_text), made.report["output"]["chars"]
            page = write_file_page(
                plan.report_dir,
                {**made.report, "edits": made.preview_edits},
                made.preview_text,
                job.relative.as_posix(),
                title=f"{job.source} — repair report: the first {shown:,} of {total:,} characters "
                "(every edit is in the JSON report)",
            )
        if plan.in_place and made.unchanged:
            out.discard()
        else:
            out.commit()
    except BaseException:
        out.discard()
        if report is not None:
            report.discard()
        for path in published:
            try:
                path.unlink()
            except OSError:
                pass
        raise
    return Outcome(
        _row(base, made.report, time.perf_counter() - t0),
        "timed_out" if timed_out else "repaired",
        page=page,
        chars=made.report["input"]["chars"],
        pid=os.getpid(),
        peak_rss_mb=_peak_rss_mb(),
    )


# The families whose repairs the bytes alone decide, each a linear scan with
# no search and no model: what a file past its time bound still gets (the
# damage they find is marked, and the rest of the file is left as it was).
EXACT_FAMILIES = (
    "junk",
    "escape",
    "radical",
    "question_mark",
    "replacement_char",
    "private_use",
    "foreign_symbol",
    "placeholder",
)
# A default bound generous for a large file of damaged text (a megabyte of the
# slowest mojibake takes a minute or two).
DEFAULT_MAX_SECONDS = 600.0


class _TimedOut(Exception):
    pass


@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise ``_TimedOut`` in the block after ``seconds`` (a real-time timer;
    only where signals can be had: the main thread of a Unix process, which a
    batch worker and the command line are)."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame) -> None:
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_EXACT: dict[int, Repairer] = {}


def exact_repairer(repairer: Repairer) -> Repairer:
    """The repairer's settings with the exact, model-free families only."""
    got = _EXACT.get(id(repairer))
    if got is None:
        keep = tuple(f for f in EXACT_FAMILIES if repairer.families is None or f in repairer.families)
        got = _EXACT[id(repairer)] = dataclasses.replace(
            repairer, model=None, families=keep or EXACT_FAMILIES[:1], references=(), glyph_table=None
        )
    return got


def _row(base: dict[str, Any], report: dict[str, Any], seconds: float) -> dict[str, Any]:
    s = report["summary"]
    return {
        **base,
        "encoding": report["input"]["encoding"],
        "encoding_segments": report["input"].get("encoding_segments", []),
        "chars": report["input"]["chars"],
        "seconds": round(seconds, 3),
        **s,
    }


# --- the parent side -------------------------------------------------------------------------


def run(
    jobs: list[Job],
    plan: Plan,
    repairer: Repairer,
    *,
    workers: int = 1,
    batch_witnesses: bool = True,
    on_done: Callable[[Outcome], None] | None = None,
    on_phase: Callable[[str], None] | None = None,
) -> list[Outcome]:
    """Clean every job; outcomes in job order.  KeyboardInterrupt propagates after the pool stops.

    With ``batch_witnesses``, the batch's exactly repaired texts are kept in a
    temporary folder until every file is cleaned: each file's partners are
    read from it when the file is repaired.
    """
    with tempfile.TemporaryDirectory(prefix="repair-witnesses-") as tmp:
        keys_by_job: dict[int, set[str]] = {}
        partner_digests: list[str] = [""] * len(jobs)
        if batch_witnesses and len(jobs) > 1:
            keys_by_job, partner_digests = _batch_witnesses(jobs, repairer, workers, plan, Path(tmp))
        if on_phase:
            on_phase("repairing")
        settings_fp = fingerprint(repairer)
        fps = [
            (settings_fp, _joined(witness_digest(repairer, keys_by_job.get(i, set())), partner_digests[i]))
            for i in range(len(jobs))
        ]
        try:
            return _clean_all(jobs, plan, repairer, fps, workers, on_done)
        finally:
            repairer._partners = None  # its texts go with the folder


def _joined(witnesses: str, partners: str) -> str:
    """A file's share of the batch witnesses: its gaps' contexts, then its partners' texts."""
    return f"{witnesses}+{partners}" if partners else witnesses


def _clean_all(
    jobs: list[Job],
    plan: Plan,
    repairer: Repairer,
    fps: list[tuple[str, str]],
    workers: int,
    on_done: Callable[[Outcome], None] | None,
) -> list[Outcome]:
    """Pass 3, in this process or a pool of workers (each built from the pickled ``repairer``,
    batch witnesses and partners included)."""
    outcomes: list[Outcome | None] = [None] * len(jobs)
    if workers > 1 and len(jobs) > 1 and repairer.references:
        repairer._collations()  # built and stored once, here: the workers map them
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            outcomes[i] = clean_one(job, plan, fps[i], repairer)
            if on_done:
                on_done(outcomes[i])
        return outcomes  # type: ignore[return-value]
    ctx = get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(repairer, os.getpid())
    ) as pool:
        try:
            pending = {pool.submit(clean_one, job, plan, fps[i]): i for i, job in enumerate(jobs)}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    i = pending.pop(fut)
                    outcomes[i] = fut.result()
                    if on_done:
                        on_done(outcomes[i])
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return outcomes  # type: ignore[return-value]


def _decoded(path: Path) -> str | None:
    from repair.pipeline.decode import decode_bytes

    try:
        return decode_bytes(read_input(path)).text
    except RepairError:
        return None  # reported when the file itself is cleaned


@dataclass
class _Pass1:
    """What pass 1 learns of one file: its gap contexts and, for a kept text, what chooses its
    partners (``repair.partners``)."""

    keys: set[str]
    document: str = ""
    sketch: Any = None
    kept_sha: str = ""


def _exact_keys(args: tuple[Path, Repairer, Path, int]) -> _Pass1:
    """Pass 1: the file's gap contexts; its exactly repaired text is kept for pass 2
    and for its partners, with its sketch.
    A file to stream (``chunk_chars`` not 0) is read a chunk at a time and not kept:
    its repair sees one chunk as its own text, so the other chunks would witness it
    as other copies."""
    from repair.api import result_gap_keys
    from repair.collate import sketch
    from repair.partners import document_key

    path, exact, kept, chunk_chars = args
    if chunk_chars:
        try:
            return _Pass1(stream.gap_keys(path, exact, chunk_chars))
        except RepairError:
            return _Pass1(set())
    text = _decoded(path)
    if text is None:
        return _Pass1(set())
    result = exact.repair_text(text)
    kept.write_text(result.text, encoding="utf-8")
    return _Pass1(result_gap_keys(result), document_key(text), sketch(result.text), sha256(result.text))


def _index_part(args: tuple[Path, frozenset[str]]) -> dict[str, dict[str, dict[str, int]]]:
    """Pass 2: what the file's exactly repaired text puts in the batch's gap contexts."""
    kept, keys = args
    if not kept.exists():
        return {}
    index = Repairer.new_batch_index(set(keys))
    index.add(kept.read_text(encoding="utf-8"))
    return index.counts()


def _batch_witnesses(
    jobs: list[Job], repairer: Repairer, workers: int, plan: Plan, tmp: Path
) -> tuple[dict[int, set[str]], list[str]]:
    """Let the batch's clean text witness its own gaps (``Repairer.with_batch_witnesses``,
    in the pool: pass 1 repairs each file exactly once and keeps the text in ``tmp``,
    pass 2 indexes the kept texts), and its files be collated with each other
    (``repair.partners``: the partners of each are chosen from pass 1's sketches, and
    their kept texts stay in ``tmp`` for pass 3).  Keys per job, and a digest of each
    job's partners.  The exact contexts serve the model's fill only: without a model
    the files are only collated."""
    from repair.partners import BatchPartners, chosen

    exact = repairer.exact()
    paths = [j.source for j in jobs]
    kept = [tmp / f"{i}.txt" for i in range(len(paths))]
    first = [
        (p, exact, k, (plan.chunk_chars or stream.CHUNK_CHARS) if stream.is_large(p, plan.stream_bytes) else 0)
        for p, k in zip(paths, kept, strict=True)
    ]
    with_model = repairer.lm is not None
    if workers > 1:
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=get_context("spawn"),
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        ) as pool:
            learnt = list(pool.map(_exact_keys, first, chunksize=4))
            every = frozenset().union(*(x.keys for x in learnt))
            parts = list(pool.map(_index_part, [(k, every) for k in kept], chunksize=4)) if with_model else []
    else:
        learnt = [_exact_keys(a) for a in first]
        every = frozenset().union(*(x.keys for x in learnt))
        parts = [_index_part((k, every)) for k in kept] if with_model else []
    keys: dict[int, set[str]] = {}
    if with_model:
        index = Repairer.new_batch_index(set(every))
        for part in parts:
            index.merge(part)
        repairer.adopt_batch_index(index)
        keys = {i: x.keys for i, x in enumerate(learnt)}
    # Only kept texts (not large files, not undecodable ones) take part in collation.
    own = [i for i, x in enumerate(learnt) if x.sketch is not None]
    table, digests = chosen(
        [jobs[i].relative.as_posix() for i in own],
        [learnt[i].document for i in own],
        [learnt[i].sketch for i in own],
        [str(kept[i]) for i in own],
        [learnt[i].kept_sha for i in own],
    )
    repairer._partners = BatchPartners(table)
    partner_digests = [""] * len(jobs)
    for i, d in zip(own, digests, strict=True):
        partner_digests[i] = d
    used = {path for entry in table.values() for _, path in entry}
    for k in kept:
        if str(k) not in used:
            k.unlink(missing_ok=True)  # a text nobody is collated with
    return keys, partner_digests


def write_summary(
    plan: Plan, outcomes: list[Outcome], seconds: float, workers: int, errors: list[str] = ()
) -> dict[str, Any]:
    """summary.json, summary.csv and the HTML index; ``errors``: paths that never became jobs."""
    peaks: dict[int, float] = {}
    for o in outcomes:
        if o.pid:
            peaks[o.pid] = max(peaks.get(o.pid, 0.0), o.peak_rss_mb)
    summary = {
        "files": [
            {
                **o.row,
                "status": o.status,
                "worker_pid": o.pid,
                "worker_peak_rss_mb": round(peaks.get(o.pid, 0.0), 1),
            }
            for o in outcomes
        ],
        "failed": sum(o.status == "failed" for o in outcomes) + len(errors),
        "errors": list(errors),
        "skipped": sum(o.status == "skipped" for o in outcomes),
        "repaired": sum(o.status == "repaired" for o in outcomes),
        "timed_out": sum(o.status == "timed_out" for o in outcomes),
        "seconds": round(seconds, 3),
        "workers": workers,
        "peak_rss_mb_per_worker": {str(pid): round(mb, 1) for pid, mb in sorted(peaks.items())},
    }
    write_atomic(
        plan.report_dir / "summary.json",
        json.dumps(summary, ensure_ascii=False, indent=1).encode("utf-8"),
        what="report",
    )
    write_atomic(plan.report_dir / "summary.csv", summary_csv(summary["files"]).encode("utf-8"), what="report")
    if plan.html:
        from repair.html_report import write_index

        pages = {o.row["input"]: o.page for o in outcomes if o.page}
        write_index(plan.report_dir, summary, pages)
    return summary


# summary.csv: these columns, always, in this order (documented in the README), then three per
# damage family, for every family in registry order; the CSVs of any two batches concatenate.
CSV_COLUMNS = (
    "input",
    "output",
    "status",
    "encoding",
    "other_encoding_lines",
    "chars",
    "seconds",
    "applied",
    "marked",
    "error",
    "worker_pid",
    "worker_peak_rss_mb",
)
CSV_FAMILY_COUNTS = ("detected", "applied", "marked")


def csv_header() -> list[str]:
    return [*CSV_COLUMNS, *(f"{what}_{k}" for k in FAMILY_KINDS for what in CSV_FAMILY_COUNTS)]


def summary_csv(rows: list[dict[str, Any]]) -> str:
    """One line per file: encoding, status, time, worker memory, and detected/applied/marked per family."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csv_header())
    for r in rows:
        w.writerow(
            [
                r.get("input"),
                r.get("output"),
                r.get("status"),
                r.get("encoding", ""),
                len(r.get("encoding_segments", ())),
                r.get("chars", ""),
                r.get("seconds", ""),
                sum(r.get("applied", {}).values()),
                sum(r.get("marked", {}).values()),
                r.get("error", ""),
                r.get("worker_pid", ""),
                r.get("worker_peak_rss_mb", ""),
            ]
            + [r.get(what, {}).get(k, 0) for k in FAMILY_KINDS for what in CSV_FAMILY_COUNTS]
        )
    return buf.getvalue()


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def progress_bar(total: int, *, quiet: bool):
    """A tqdm bar on a terminal (files/s, characters/s in the postfix); None when quiet or piped."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="file", dynamic_ncols=True, file=sys.stderr)
