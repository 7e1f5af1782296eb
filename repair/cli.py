"""Command line: ``repair clean``, ``repair detect``.

Every failure a user can cause (a missing path, a binary file, an unwritable
folder) ends in one line on stderr and a non-zero exit, never a traceback; a
file that fails produces no output, and the others are still cleaned.
A batch ends with one summary line and the path of its HTML index.
Exit codes: 0 all done, 1 some input failed, 2 usage error or a run refused
as given (a clash of output names, an output folder that is the input
folder), with nothing written.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import click

from repair import stream
from repair.api import Repairer, load_references
from repair.batch import DEFAULT_MAX_SECONDS, DEFAULT_REPORT_SUBDIR, collect_inputs
from repair.errors import RepairError, UnwritableOutputError
from repair.io import AtomicFile, read_input, write_atomic
from repair.report import build_report, dumps, settings_of


def _fail(message: str) -> None:
    click.echo(f"repair: error: {message}", err=True)


def _settings(repairer: Repairer) -> dict:
    return settings_of(repairer)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="repair", prog_name="repair")
def main() -> None:
    """Repair garbled Chinese text and report every change."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path),
    help="Folder for the repaired files (same relative names).",
)
@click.option(
    "--report-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help=f"Folder for the JSON reports [default: OUT_DIR/{DEFAULT_REPORT_SUBDIR}].",
)
@click.option("-r", "--recursive", is_flag=True, help="Clean the files of directories, recursively.")
@click.option(
    "--min-confidence",
    type=click.FloatRange(0.0, 1.0),
    default=0.9,
    show_default=True,
    help="Apply a repair only at or above this confidence.",
)
@click.option(
    "--placeholder", default="〓", show_default=True, help="Character written for characters that cannot be restored."
)
@click.option(
    "--reference",
    "references",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="A text (or a folder of texts) whose passages may witness lost characters (repeatable).",
)
@click.option(
    "--glyph-table",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A code → character table for this digitization's home-made glyphs (repair glyphs learn).",
)
@click.option(
    "--same-edition",
    is_flag=True,
    help="The --reference texts are copies of the same edition: write the characters they show lost, "
    "instead of only reporting them (another edition's variant readings would look the same).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes [default: all cores]; each maps the model once.",
)
@click.option("--html/--no-html", default=True, show_default=True, help="Also write HTML reports (REPORT_DIR/html).")
@click.option(
    "--in-place", is_flag=True, help="Write over the inputs, keeping each original as FILE + --backup-suffix."
)
@click.option("--backup-suffix", default=".orig", show_default=True, help="Backup name suffix for --in-place.")
@click.option(
    "--batch-witnesses/--no-batch-witnesses",
    default=True,
    show_default=True,
    help="Let the files of the batch witness each other's lost characters: by exact contexts, and collated"
    " with the few files sharing their passages (two extra fast passes).",
)
@click.option(
    "--max-seconds-per-file",
    type=click.FloatRange(min=0),
    default=DEFAULT_MAX_SECONDS,
    show_default=True,
    help="A file that takes longer is written with its exact repairs only (escapes, radicals, junk; damage "
    "marked) and reported as timed_out, so one file never stalls a worker; 0: no bound.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no per-file lines on stderr.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON line per file on stdout (its summary row and report path); "
    'with "-", one JSON object holding the text and its report.',
)
def clean(
    paths,
    out_dir,
    report_dir,
    recursive,
    min_confidence,
    placeholder,
    references,
    glyph_table,
    same_edition,
    jobs,
    html,
    in_place,
    backup_suffix,
    batch_witnesses,
    max_seconds_per_file,
    quiet,
    as_json,
) -> None:
    """Repair PATHS into OUT_DIR and write one report per file.

    Use "-" as the only path to read stdin and write the repaired text to stdout.
    A re-run skips files whose output and report are up to date, so an
    interrupted batch resumes where it stopped.  A batch that would write two
    inputs to one name, or an input over itself, is refused before anything is
    written (exit 2).
    """
    from repair import batch

    if "-" in paths and paths != ("-",):
        raise click.UsageError('"-" (stdin) cannot be mixed with file paths')
    if paths == ("-",) and (out_dir is not None or in_place):
        raise click.UsageError(
            '"-" writes the repaired text to stdout, so -o/--output and --in-place do not apply '
            "(--report-dir does); to clean into a folder, save the text to a file first"
        )
    try:
        texts = load_references(references)
        repairer = Repairer(
            min_confidence=min_confidence,
            placeholder=placeholder,
            references=texts,
            glyph_table=glyph_table,
            same_edition=same_edition,
        )
    except ValueError as err:
        raise click.BadParameter(str(err)) from None
    except RepairError as err:
        _fail(f"reference: {err}")
        sys.exit(1)
    if paths == ("-",):
        sys.exit(_clean_stream(repairer, report_dir, as_json=as_json))
    if in_place and out_dir is not None:
        raise click.UsageError("--in-place and -o/--output exclude each other")
    if in_place and not backup_suffix.strip():
        raise click.UsageError("--in-place needs a non-empty --backup-suffix: the original is always kept")
    if not in_place and out_dir is None:
        raise click.UsageError("missing -o/--output OUT_DIR (or --in-place)")
    if report_dir is None:
        if in_place:
            first = Path(paths[0])
            report_dir = (first if first.is_dir() else first.parent) / DEFAULT_REPORT_SUBDIR
        else:
            report_dir = out_dir / DEFAULT_REPORT_SUBDIR
    skip_dirs = tuple(p for p in (out_dir, report_dir) if p is not None)
    jobs_list, errors = collect_inputs(
        paths, recursive, skip_dirs=skip_dirs, backup_suffix=backup_suffix if in_place else None
    )
    # Refusals come before anything is created: a refused run writes nothing.
    clashes = batch.name_clashes(jobs_list)
    if clashes:
        for c in clashes:
            _fail(c)
        sys.exit(2)
    if not in_place:
        onto = [j for j in jobs_list if (out_dir / j.relative).resolve() == j.source.resolve()]
        if onto:
            more = f" and {len(onto) - 1} more" if len(onto) > 1 else ""
            _fail(
                f"{out_dir}: the output folder is the input folder: the output would overwrite "
                f"{onto[0].source}{more}; choose another -o, or use --in-place (keeps backups)"
            )
            sys.exit(2)
    for e in errors:
        _fail(e)
    if errors and not jobs_list:
        # Nothing to clean (every input refused): no folder is made, no report written.
        sys.exit(1)
    for folder in skip_dirs:
        if folder.exists() and not folder.is_dir():
            _fail(f"{folder}: exists and is not a folder")
            sys.exit(1)
    problem = _prepare_folders([(out_dir, "output"), (report_dir, "report")])
    if problem:
        _fail(problem)
        sys.exit(1)
    batch.remove_stale_temporaries(*skip_dirs)
    plan = batch.Plan(
        out_dir,
        report_dir,
        html=html,
        in_place=in_place,
        backup_suffix=backup_suffix,
        max_seconds=max_seconds_per_file or None,
    )
    workers = min(jobs or batch.default_workers(), max(1, len(jobs_list)))
    bar = batch.progress_bar(len(jobs_list), quiet=quiet)
    t0 = time.perf_counter()
    chars = 0

    def done(o: batch.Outcome) -> None:
        nonlocal chars
        chars += o.chars
        if o.status == "failed":
            (bar.write if bar else lambda m: click.echo(m, err=True))(f"repair: error: {o.error}")
        elif bar is None and not quiet:
            click.echo(file_line(o.row, o.status), err=True)
        if bar is not None:
            elapsed = max(time.perf_counter() - t0, 1e-9)
            bar.set_postfix_str(f"{chars / elapsed:,.0f} chars/s", refresh=False)
            bar.update(1)

    if bar is not None:
        bar.set_description("batch witnesses" if batch_witnesses and len(jobs_list) > 1 else "repairing")

    def phase(name: str) -> None:
        if bar is not None:
            bar.set_description(name)

    try:
        outcomes = batch.run(
            jobs_list, plan, repairer, workers=workers, batch_witnesses=batch_witnesses, on_done=done, on_phase=phase
        )
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        _fail("interrupted: finished files are complete, no file is half-written; run again to resume")
        sys.exit(130)
    except BrokenProcessPool:
        if bar is not None:
            bar.close()
        _fail("a worker process died (killed, or out of memory): finished files are complete; run again to resume")
        sys.exit(1)
    if bar is not None:
        bar.close()
    failed = len(errors) + sum(o.status == "failed" for o in outcomes)
    try:
        summary = batch.write_summary(plan, outcomes, time.perf_counter() - t0, workers, errors)
    except UnwritableOutputError as err:
        _fail(str(err))
        sys.exit(1)
    if as_json:
        for job, row in zip(jobs_list, summary["files"], strict=True):
            extra = {} if row["status"] == "failed" else {"report": str(plan.report_path(job))}
            click.echo(json.dumps({**row, **extra}, ensure_ascii=False))
    if not quiet:
        click.echo(summary_line(summary), err=True)
        index = report_dir / "html" / "index.html"
        click.echo(f"HTML report: {index}" if html else f"reports: {report_dir}", err=True)
    sys.exit(1 if failed else 0)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 file``, ``2 files``, ``1 lost character``.

    >>> plural(1, "lost character"), plural(2, "lost character"), plural(0, "file")
    ('1 lost character', '2 lost characters', '0 files')
    """
    return f"{n} {word if n == 1 else many or word + 's'}"


def encoding_text(encoding: str, segments: list[dict]) -> str:
    """The input's encoding; with lines in another encoding, says so and where.

    >>> encoding_text("utf-8", [])
    'utf-8'
    >>> encoding_text("utf-8", [{"line": 4, "encoding": "big5hkscs"}])
    'mixed encoding: utf-8, line 4 in big5hkscs'
    >>> encoding_text("utf-8", [{"line": n, "encoding": "gbk"} for n in (2, 5, 9, 11)])
    'mixed encoding: utf-8, lines 2, 5, 9, ... (4 lines) in gbk'
    """
    if not segments:
        return encoding
    by_codec: dict[str, list[int]] = {}
    for seg in segments:
        by_codec.setdefault(seg["encoding"], []).append(seg["line"])
    parts = []
    for codec, lines in by_codec.items():
        shown = ", ".join(map(str, lines[:3]))
        where = f"line {shown}" if len(lines) == 1 else f"lines {shown}"
        if len(lines) > 3:
            where += f", ... ({len(lines)} lines)"
        parts.append(f"{where} in {codec}")
    return f"mixed encoding: {encoding}, " + "; ".join(parts)


def file_line(row: dict, status: str) -> str:
    """The console line for one finished file."""
    if status == "skipped":
        return f"{row['input']}: up to date, skipped"
    what = f"{plural(sum(row['applied'].values()), 'repair')} applied, {sum(row['marked'].values())} marked"
    holes = sum(row.get("missing_chars_in_applied", {}).values())
    if holes:
        what += f", {plural(holes, 'lost character')} marked inside repairs"
    if status == "timed_out":
        what += " (timed out: exact repairs only; run again with a larger --max-seconds-per-file)"
    return f"{row['input']}: {encoding_text(row['encoding'], row.get('encoding_segments', []))}, {what}"


def summary_line(summary: dict) -> str:
    """The one line a finished batch ends with.

    >>> summary_line({"files": [{"status": "repaired", "applied": {"escape": 3}, "marked": {"junk": 1}},
    ...                         {"status": "skipped", "applied": {}, "marked": {}}],
    ...               "errors": [], "failed": 0, "repaired": 1, "skipped": 1, "seconds": 2.345})
    'done: 2 files, 3 repairs applied, 1 marked, 0 failed, 1 up to date (skipped), 2.3 s'
    """
    files = len(summary["files"]) + len(summary.get("errors", ()))
    applied = sum(sum(f.get("applied", {}).values()) for f in summary["files"])
    marked = sum(sum(f.get("marked", {}).values()) for f in summary["files"])
    parts = [
        plural(files, "file"),
        plural(applied, "repair") + " applied",
        f"{marked} marked",
        f"{summary['failed']} failed",
    ]
    if summary.get("timed_out"):
        parts.append(f"{summary['timed_out']} timed out (exact repairs only)")
    if summary.get("skipped"):
        parts.append(f"{summary['skipped']} up to date (skipped)")
    return "done: " + ", ".join(parts) + f", {summary['seconds']:.1f} s"


def _prepare_folders(folders: list[tuple[Path | None, str]]) -> str:
    """Create the output and report folders and check they take files; on failure an error
    message, and the folders this call created are removed again (a refused run writes nothing)."""
    import os
    import tempfile

    created: list[Path] = []
    try:
        for folder, what in folders:
            if folder is None:
                continue
            missing = []
            p = folder
            while not p.exists() and p != p.parent:
                missing.append(p)
                p = p.parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                return f"cannot create {what} folder: {err.strerror or err}: {err.filename}"
            created += reversed(missing)
            try:
                fd, probe = tempfile.mkstemp(prefix=".repair-probe.", suffix=".tmp", dir=folder)
                os.close(fd)
                os.unlink(probe)
            except OSError as err:
                return f"{folder}: cannot write {what}s here: {err.strerror or err}"
        created = []
        return ""
    finally:
        for p in reversed(created):
            try:
                p.rmdir()
            except OSError:
                pass


def _clean_stream(repairer: Repairer, report_dir: Path | None, *, as_json: bool = False) -> int:
    data = sys.stdin.buffer.read()
    try:
        result = repairer.repair_bytes(data)
    except RepairError as err:
        _fail(f"stdin: {err}")
        return 1
    report = None
    if report_dir is not None or as_json:
        report = build_report(result, input_path=None, output_path=None, input_bytes=data, settings=_settings(repairer))
    if report_dir is not None:
        try:
            write_atomic(report_dir / "stdin.report.json", dumps(report).encode("utf-8"), what="report")
        except UnwritableOutputError as err:
            _fail(str(err))
            return 1
    if as_json:
        click.echo(json.dumps({"text": result.text, "report": report}, ensure_ascii=False))
        return 0
    sys.stdout.buffer.write(result.text.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-r", "--recursive", is_flag=True, help="Look into directories, recursively.")
@click.option(
    "--report-dir", type=click.Path(file_okay=False, path_type=Path), help="Also write one JSON report per file here."
)
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON lines instead of text.")
def detect(paths, recursive, report_dir, as_json) -> None:
    """Report the damage in PATHS without changing anything ("-": read stdin)."""
    from repair.batch import Job, name_clashes

    if "-" in paths and paths != ("-",):
        raise click.UsageError('"-" (stdin) cannot be mixed with file paths')
    repairer = Repairer()
    if paths == ("-",):
        jobs, errors = [Job(Path("-"), Path("stdin"))], []
    else:
        jobs, errors = collect_inputs(paths, recursive)
        clashes = name_clashes(jobs) if report_dir is not None else []
        if clashes:
            for c in clashes:
                _fail(c)
            sys.exit(2)
    for e in errors:
        _fail(e)
    failed = len(errors)
    for job in jobs:
        stdin = job.source == Path("-")
        name = "stdin" if stdin else str(job.source)
        if not stdin and stream.is_large(job.source):
            try:
                _detect_streamed(repairer, job, report_dir, as_json)
            except RepairError as err:
                _fail(f"{name}: {err}" if not str(err).startswith(name) else str(err))
                failed += 1
            continue
        try:
            data = sys.stdin.buffer.read() if stdin else read_input(job.source)
            result = repairer.repair_bytes(data)
            report = build_report(
                result,
                input_path=None if stdin else name,
                output_path=None,
                input_bytes=data,
                settings=_settings(repairer),
            )
            if report_dir is not None:
                write_atomic(
                    report_dir / job.relative.with_name(job.relative.name + ".report.json"),
                    dumps(report).encode("utf-8"),
                    what="report",
                )
        except RepairError as err:
            _fail(f"{name}: {err}" if not str(err).startswith(name) else str(err))
            failed += 1
            continue
        if as_json:
            click.echo(json.dumps(report, ensure_ascii=False))
            continue
        detected = report["summary"]["detected"]
        encoding = encoding_text(result.encoding, report["input"].get("encoding_segments", []))
        click.echo(detected_line(name, encoding, detected))
        for e in report["edits"]:
            click.echo(edit_line(e))
    sys.exit(1 if failed else 0)


def detected_line(name: str, encoding: str, detected: dict) -> str:
    """The first line ``repair detect`` prints for a file."""
    return f"{name}: {encoding}, " + (", ".join(f"{k} {v}" for k, v in detected.items()) or "no damage found")


def edit_line(e: dict) -> str:
    """One edit of ``repair detect``'s listing."""
    fix = f" -> {e['after']!r}" if e["applied"] else ""
    return f"  {e['line']}:{e['column']} {e['kind']} {e['before']!r}{fix} ({e['confidence']:.2f})"


def _detect_streamed(repairer: Repairer, job, report_dir: Path | None, as_json: bool) -> None:
    """``detect`` for a file above ``repair.stream.STREAM_BYTES``, read and reported a chunk at a
    time: what it prints waits in a temporary file until the counts it starts with are known."""
    import tempfile

    name = str(job.source)
    path = None if report_dir is None else report_dir / job.relative.with_name(job.relative.name + ".report.json")
    report = None if path is None else AtomicFile(path, what="report")
    with tempfile.TemporaryFile("w+", encoding="utf-8") as listing:

        def keep(items: list[dict]) -> None:
            for e in items:
                if not as_json:
                    listing.write(edit_line(e) + "\n")
                else:  # the edits of one JSON line, as json.dumps separates them
                    listing.write((", " if listing.tell() else "") + json.dumps(e, ensure_ascii=False))

        try:
            made = stream.repair_file(
                job.source,
                repairer,
                None,
                report,
                input_path=name,
                output_path=None,
                settings=_settings(repairer),
                spool_dir=None if path is None else path.parent,
                on_edits=keep,
            )
            if report is not None:
                report.commit()
        except BaseException:
            if report is not None:
                report.discard()
            raise
        listing.seek(0)
        if as_json:
            head = json.dumps({**made.report, "edits": []}, ensure_ascii=False)
            click.echo(head[: -len("]}")], nl=False)
        else:
            inp = made.report["input"]
            encoding = encoding_text(inp["encoding"], inp["encoding_segments"])
            click.echo(detected_line(name, encoding, made.report["summary"]["detected"]))
        for block in iter(lambda: listing.read(1 << 16), ""):
            click.echo(block, nl=False)
        if as_json:
            click.echo("]}")


@main.group()
def glyphs() -> None:
    """Home-made glyph tables: learn one from a batch, to apply with clean --glyph-table."""


@glyphs.command("learn")
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Table (TSV).")
@click.option("-r", "--recursive", is_flag=True, help="Read the files of directories, recursively.")
@click.option(
    "--reference",
    "references",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="A text (or a folder of texts) whose passages may witness what the codes stand for (repeatable).",
)
def glyphs_learn(paths, output, recursive, references) -> None:
    """Learn what each private-use code and stand-in symbol of PATHS stands for."""
    from repair.fill.glyphs import GlyphTable

    jobs, errors = collect_inputs(paths, recursive)
    for e in errors:
        _fail(e)
    try:
        texts = load_references(references)
        repairer = Repairer(min_confidence=1.0, references=texts)
        if len(jobs) > 1 and repairer.lm is not None:
            # The files witness each other, as in `repair clean` over the same batch.
            from repair.pipeline.decode import decode_bytes

            decoded = [decode_bytes(read_input(job.source)).text for job in jobs]
            repairer.with_batch_witnesses(lambda: iter(decoded))
        results = [repairer.repair_bytes(read_input(job.source)) for job in jobs]
        table = GlyphTable.learn(results)
        table.save(output)
    except RepairError as err:
        _fail(str(err))
        sys.exit(1)
    click.echo(f"{output}: {len(table)} codes from {len(results)} files", err=True)
    sys.exit(1 if errors else 0)


@main.command("train-lm")
@click.argument("corpus", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Model file (.arpa or binary).",
)
@click.option("--order", type=click.IntRange(2, 6), default=4, show_default=True)
@click.option(
    "--prune",
    default="0,0,1,1",
    show_default=True,
    help="Count thresholds per order: n-grams seen at most this often are dropped (0 keeps all).",
)
@click.option(
    "--script",
    type=click.Choice(["traditional", "simplified", "as-is"]),
    default="as-is",
    show_default=True,
    help="Convert the text to this script with OpenCC first (the shipped model: as-is, traditional corpus).",
)
@click.option("--skip-held-out", is_flag=True, help="Leave out the held-out 5% split used for evaluation.")
@click.option("-r", "--recursive", is_flag=True, help="Read the .txt files of directories.")
def train_lm(corpus, output, order, prune, script, skip_held_out, recursive) -> None:
    """Build a character n-gram model from plain-text CORPUS files (needs KenLM's lmplz)."""
    from repair.lm.train import train

    try:
        thresholds = tuple(int(x) for x in prune.replace(" ", ",").split(",") if x)
    except ValueError:
        raise click.BadParameter("--prune takes numbers like 0,0,1,2,2") from None
    files: list[Path] = []
    for p in corpus:
        if p.is_dir():
            if not recursive:
                _fail(f"{p}: is a directory (use -r)")
                sys.exit(1)
            files += sorted(x for x in p.rglob("*.txt") if x.is_file())
        elif p.is_file():
            files.append(p)
        else:
            _fail(f"{p}: no such file or directory")
            sys.exit(1)
    try:
        report = train(files, output, order=order, prune=thresholds, script=script, skip_held_out=skip_held_out)
    except RepairError as err:
        _fail(str(err))
        sys.exit(1)
    click.echo(
        f"{report.output}: order {report.order}, prune {','.join(map(str, report.prune))}, "
        f"{report.tokens} tokens in {report.lines} lines, {report.bytes / 2**20:.1f} MB",
        err=True,
    )


if __name__ == "__main__":
    main()
