"""Repair a text column of a Ray Data dataset, one model per actor.

``repair_dataset`` runs ``Dataset.map_batches`` with a callable class on an
actor pool rather than with a function on tasks.  The reason is the model: the
shipped KenLM model is about 50 MB, and a fresh process pays one to two seconds
before its repairs run at full speed (measured on this checkout: importing the
package 0.5 s, ``Repairer()`` with the model 0.1 s, the first repair 1.6 s
slower than the next ones while the model's pages come in).  A task per batch
would pay that again and again; an actor builds its ``Repairer`` once and
keeps it, warm, for every batch it is given.

The ``Repairer`` travels to the actors as its settings (``Repairer`` pickles as
its settings plus the model path) and each actor rebuilds the model.  A
``Repairer`` that uses the shipped model (``model="default"``) is sent as
``"default"``, so each node loads its own copy (the package checkout's
``models/`` or ``$REPAIR_MODEL``); if the driver's ``Repairer`` had a model, an
actor that finds none fails instead of quietly making only the model-free
repairs.  Settings given as keywords are checked on the driver and the model
is loaded on the actors only.

Columns added to each row (``output_column`` defaults to ``"repaired"``):

* ``repaired``: the repaired text (null when the cell is null or failed);
* ``applied``: how many repairs were applied; ``marked``: how many were left
  marked (not applied), the numbers of the report's summary;
* ``encoding``: the encoding found for a bytes cell (null for a str cell);
* ``error``: why a cell could not be repaired (``"BinaryInputError: ..."``
  for binary data), else null; such a row does not stop the job;
* ``report`` (with ``report=True``): the JSON report of the cell, as the CLI
  writes it (``repair.report.build_report``).

Ray is imported only when ``repair_dataset`` is called; ``RepairBatch`` itself
needs only pyarrow/pandas/numpy, so it can be tried on a batch without Ray.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from repair.api import Repairer
from repair.errors import RepairError
from repair.report import build_report, counts, dumps

if TYPE_CHECKING:  # pragma: no cover
    import ray.data

INSTALL_HINT = "repair.integrations.ray needs Ray Data: pip install -e .[ray]  (or: pip install 'ray[data]')"

# The columns added besides the output column, in order.
STAT_COLUMNS = ("applied", "marked", "encoding", "error")
REPORT_COLUMN = "report"


def _require_ray():
    try:
        import ray
        import ray.data
    except ImportError as err:
        raise ImportError(f"{INSTALL_HINT} ({err})") from err
    return ray


def repairer_state(repairer: Repairer) -> dict[str, Any]:
    """What an actor needs to rebuild ``repairer``: its pickled settings.

    The shipped model is named ``"default"`` (not by the driver's path), so
    every node resolves its own copy; ``_require_model`` makes the actor fail
    if the driver had a model and the node has none.
    """
    state = dict(repairer.__getstate__())
    if isinstance(repairer.model, str) and repairer.model == "default":
        state["model"] = "default"
        state["_require_model"] = repairer.lm is not None
    return state


def build_repairer(state: dict[str, Any] | Repairer) -> Repairer:
    """Rebuild a ``Repairer`` from ``repairer_state`` (or take one as is)."""
    if isinstance(state, Repairer):
        return state
    state = dict(state)
    require_model = state.pop("_require_model", False)
    # The same path as unpickling: the state may carry a witness index too.
    repairer = Repairer.__new__(Repairer)
    repairer.__setstate__(state)
    if require_model and repairer.lm is None:
        raise RepairError(
            "the driver's Repairer used the shipped language model, but this worker found none "
            "(kenlm not installed, or no model file): install the package with its model on every node "
            "or point $REPAIR_MODEL at a model file that every node can read"
        )
    return repairer


def _report_settings(repairer: Repairer) -> dict[str, Any]:
    # The same settings block as the CLI's reports.
    from repair.report import settings_of

    return settings_of(repairer)


def _is_null(cell: object) -> bool:
    """None, NaN or pandas.NA (whose truth value raises)."""
    if cell is None:
        return True
    try:
        return bool(cell != cell)
    except TypeError:
        return True
    except ValueError:  # an array
        return False


class RepairBatch:
    """The ``map_batches`` callable: one ``Repairer`` per instance (per actor).

    ``__call__`` takes a ``pyarrow.Table`` (what ``repair_dataset`` asks for),
    a ``pandas.DataFrame`` or a ``dict`` of numpy arrays, and returns the same
    kind of batch with the columns described in the module docstring added.
    """

    def __init__(
        self,
        repairer_state: dict[str, Any] | Repairer,
        column: str = "text",
        output_column: str = "repaired",
        report: bool = False,
    ) -> None:
        self.repairer = build_repairer(repairer_state)
        self.column = column
        self.output_column = output_column
        self.report = report
        self._settings = _report_settings(self.repairer)
        self._checked = False

    # The per-cell work, independent of the batch format.

    def repair_cells(self, cells: Iterable[object]) -> dict[str, list[Any]]:
        """The added columns (name → values) for a sequence of cells."""
        names = (self.output_column, *STAT_COLUMNS) + ((REPORT_COLUMN,) if self.report else ())
        out: dict[str, list[Any]] = {name: [] for name in names}
        for cell in cells:
            row = self.repair_cell(cell)
            for name in names:
                out[name].append(row.get(name))
        return out

    def repair_cell(self, cell: object) -> dict[str, Any]:
        if not isinstance(cell, (str, bytes, bytearray, memoryview)) and _is_null(cell):
            return {}
        if isinstance(cell, memoryview):
            cell = cell.tobytes()
        try:
            if isinstance(cell, (bytes, bytearray)):
                data: bytes | None = bytes(cell)
                result = self.repairer.repair_bytes(data)
            elif isinstance(cell, str):
                data = None
                result = self.repairer.repair_text(str(cell))
            else:
                return {"error": f"TypeError: cell holds {type(cell).__name__}, not str or bytes"}
        except RepairError as err:
            return {"error": f"{type(err).__name__}: {err}"}
        summary = counts(result)
        row: dict[str, Any] = {
            self.output_column: result.text,
            "applied": sum(summary["applied"].values()),
            "marked": sum(summary["marked"].values()),
            "encoding": result.encoding,
        }
        if self.report:
            report = build_report(result, input_path=None, output_path=None, input_bytes=data, settings=self._settings)
            row[REPORT_COLUMN] = dumps(report)
        return row

    # Batch formats.

    def _check_columns(self, existing: Iterable[str]) -> None:
        if self._checked:
            return
        existing = set(existing)
        if self.column not in existing:
            raise KeyError(f"no column {self.column!r} in the dataset (columns: {sorted(existing)})")
        added = [self.output_column, *STAT_COLUMNS] + ([REPORT_COLUMN] if self.report else [])
        clash = [name for name in added if name in existing and name != self.column]
        if clash:
            raise ValueError(f"the dataset already has column(s) {clash}; rename them or choose another output_column")
        self._checked = True

    def __call__(self, batch):
        if hasattr(batch, "schema") and hasattr(batch, "append_column"):
            return self._arrow(batch)
        if hasattr(batch, "iloc"):
            return self._pandas(batch)
        return self._numpy(batch)

    def _arrow(self, table):
        import pyarrow as pa

        self._check_columns(table.column_names)
        added = self.repair_cells(table.column(self.column).to_pylist())
        types = {"applied": pa.int64(), "marked": pa.int64()}
        for name, values in added.items():
            array = pa.array(values, type=types.get(name, pa.string()))
            if name in table.column_names:
                table = table.set_column(table.column_names.index(name), name, array)
            else:
                table = table.append_column(name, array)
        return table

    def _pandas(self, frame):
        import pandas as pd
        import pyarrow as pa

        self._check_columns(frame.columns)
        added = self.repair_cells(frame[self.column].tolist())
        frame = frame.copy(deep=False)
        for name, values in added.items():
            # Arrow-backed dtypes: the block's schema is the same whether or
            # not a batch happens to have a value (an all-null column).
            kind = pa.int64() if name in ("applied", "marked") else pa.string()
            frame[name] = pd.Series(values, index=frame.index, dtype=pd.ArrowDtype(kind))
        return frame

    def _numpy(self, batch: dict):
        import numpy as np

        self._check_columns(batch)
        added = self.repair_cells(batch[self.column].tolist())
        batch = dict(batch)
        for name, values in added.items():
            array = np.empty(len(values), dtype=object)
            array[:] = values
            batch[name] = array
        return batch


def repair_dataset(
    ds: ray.data.Dataset,
    column: str = "text",
    *,
    output_column: str = "repaired",
    repairer: Repairer | None = None,
    concurrency: int | tuple[int, int] | None = None,
    batch_size: int = 64,
    report: bool = False,
    num_cpus: float = 1,
    **settings: object,
) -> ray.data.Dataset:
    """Repair ``ds[column]`` (str or bytes cells) on an actor pool; lazy, like every Ray Data transform.

    ``repairer``: the ``Repairer`` whose settings to use; or pass its settings
    as keywords (``min_confidence=0.95, placeholder="□"``), not both.
    ``concurrency``: the actor pool, ``n`` actors or ``(min, max)`` for an
    autoscaling pool; None: Ray's default, an autoscaling pool from one actor
    up.  Each actor holds one model (~50 MB, memory-mapped) and reserves
    ``num_cpus`` CPUs for as long as the dataset runs: a fixed pool that takes
    every CPU leaves none for a read stage (``read_text`` then ``concurrency=2``
    on a 2-CPU instance hung with Ray 2.60), so keep ``n`` below the CPU count
    when the dataset is read from files, or use ``(1, n)``.  ``batch_size``:
    rows per call; the repair works row by row, so this trades scheduling
    overhead against the memory of a batch and the balance between actors.
    ``output_column`` may equal ``column`` to replace the text in place.
    Ray Data may reorder rows unless ``DataContext.execution_options.preserve_order``
    is set; carry an id column to join the results back.
    """
    ray = _require_ray()
    if repairer is not None and settings:
        raise TypeError("pass either repairer= or its settings as keywords, not both")
    if repairer is None:
        settings.setdefault("model", "default")
        # Check the settings here, on the driver, without loading a model.
        Repairer(**{**settings, "model": None})  # type: ignore[arg-type]
        state: dict[str, Any] = dict(settings)
    else:
        state = repairer_state(repairer)
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if concurrency is None:
        compute = ray.data.ActorPoolStrategy(min_size=1, max_size=None)
    elif isinstance(concurrency, int) and not isinstance(concurrency, bool):
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        compute = ray.data.ActorPoolStrategy(size=concurrency)
    elif isinstance(concurrency, tuple) and len(concurrency) == 2:
        low, high = concurrency
        if not 1 <= low <= high:
            raise ValueError("concurrency=(min, max) needs 1 <= min <= max")
        compute = ray.data.ActorPoolStrategy(min_size=low, max_size=high)
    else:
        raise TypeError("concurrency must be an int, a (min, max) tuple or None")
    return ds.map_batches(
        RepairBatch,
        fn_constructor_args=(state,),
        fn_constructor_kwargs={"column": column, "output_column": output_column, "report": report},
        batch_size=batch_size,
        batch_format=None,  # the blocks as they are: a pandas block keeps str and bytes cells apart
        compute=compute,
        num_cpus=num_cpus,
    )
