"""The Ray Data adapter: the same repairs as the library, row by row, on a local Ray.

Ray is an optional extra (``pip install -e .[ray]``): without it these tests
are skipped, unless REPAIR_REQUIRE_RAY=1 (as in CI), where a missing Ray is a
failure.  The Ray tests share one local instance (2 CPUs, no dashboard, no
usage reporting, node address 127.0.0.1), shut down after the module.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from repair.api import Repairer
from repair.errors import RepairError
from repair.integrations import ray as adapter
from repair.report import counts

TRAD = "子曰學而時習之不亦說乎有朋自遠方來不亦樂乎"
TRAD_2 = "天命之謂性率性之謂道脩道之謂教"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"

# (id, cell): damaged text of several kinds, a clean line, bytes, junk, a null.
ROWS = [
    (10, "子曰\\u5b78而時習之，不亦說乎？"),  # a \u escape
    (11, "魚&amp;熊掌，&#x5B78;而時習之"),  # HTML references
    (12, "前言：" + TRAD_2.encode("big5").decode("gb18030") + "。"),  # Big5 read as GBK
    (13, "有朋自遠方來，不亦樂乎？"),  # clean: must not change
    (14, TRAD.encode("gbk")),  # GBK bytes
    (15, PNG),  # binary junk: an error row, not a failed job
    (16, "子曰學而時??之，不亦說乎"),  # question marks: left marked
    (17, None),
]
ENV = {"RAY_USAGE_STATS_ENABLED": "0"}
# Ray's own DataContext warns about its deprecated settings when it is shipped to workers.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")


def require_ray():
    try:
        import ray
        import ray.data
    except ImportError as err:
        if os.environ.get("REPAIR_REQUIRE_RAY") == "1":
            pytest.fail(f"Ray is required here (REPAIR_REQUIRE_RAY=1): {err}")
        pytest.skip(f"Ray is not installed ({err}): make setup installs it, or .venv/bin/pip install -e '.[test,ray]'")
    return ray


@pytest.fixture(scope="module")
def ray_local():
    ray = require_ray()
    saved = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    ctx = ray.data.DataContext.get_current()
    saved_ctx = (ctx.execution_options.preserve_order, ctx.enable_progress_bars)
    ctx.execution_options.preserve_order = True  # Ray Data may reorder rows otherwise
    ctx.enable_progress_bars = False
    try:
        yield ray
    finally:
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = saved_ctx
        if started:
            ray.shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def local(repairer: Repairer, cell):
    """What the library gives for a cell: (text, applied, marked, encoding, error)."""
    if cell is None:
        return None, None, None, None, None
    try:
        result = repairer.repair_bytes(cell) if isinstance(cell, bytes) else repairer.repair_text(cell)
    except RepairError as err:
        return None, None, None, None, f"{type(err).__name__}: {err}"
    s = counts(result)
    return result.text, sum(s["applied"].values()), sum(s["marked"].values()), result.encoding, None


def mixed_dataset(ray):
    """str and bytes in one column: pandas blocks keep each cell's type (Arrow would not)."""
    import pandas as pd

    frame = pd.DataFrame({"id": [i for i, _ in ROWS], "text": pd.Series([c for _, c in ROWS], dtype=object)})
    return ray.data.from_pandas([frame.iloc[i : i + 2] for i in range(0, len(frame), 2)])


def test_same_repairs_as_the_library(ray_local):
    out = adapter.repair_dataset(mixed_dataset(ray_local), concurrency=2, batch_size=2, report=True)
    rows = out.take_all()
    assert [r["id"] for r in rows] == [i for i, _ in ROWS]  # every row, in order
    repairer = Repairer()
    for (rid, cell), row in zip(ROWS, rows, strict=True):
        want = local(repairer, cell)
        got = (row["repaired"], row["applied"], row["marked"], row["encoding"], row["error"])
        assert got == want, rid
        if row["repaired"] is not None:
            report = json.loads(row["report"])
            assert report["output"]["chars"] == len(row["repaired"])
            assert sum(report["summary"]["applied"].values()) == row["applied"]
            assert report["input"]["encoding"] == row["encoding"]
        else:
            assert row["report"] is None
    by_id = {r["id"]: r for r in rows}
    assert by_id[10]["repaired"] == "子曰學而時習之，不亦說乎？" and by_id[10]["applied"] == 1
    # &amp; stays (an escape of a markup character); &#x5B78; is decoded.
    assert by_id[11]["repaired"] == "魚&amp;熊掌，學而時習之" and by_id[11]["applied"] == 1
    assert by_id[12]["repaired"] == "前言：" + TRAD_2 + "。"
    assert (by_id[13]["repaired"], by_id[13]["applied"], by_id[13]["marked"]) == (ROWS[3][1], 0, 0)
    assert by_id[14]["repaired"] == TRAD and by_id[14]["encoding"] == "gb18030"
    assert by_id[15]["repaired"] is None and by_id[15]["error"].startswith("BinaryInputError: ")
    assert by_id[16]["marked"] >= 1
    assert by_id[17]["repaired"] is None and by_id[17]["error"] is None


def test_repairer_settings_reach_the_actors(ray_local):
    texts = ["子曰學而時??之，不亦說乎", "魚&amp;熊掌", "有朋自遠方來", "子曰\\u5b78而"] * 3
    ds = ray_local.data.from_items([{"text": t} for t in texts], override_num_blocks=4)
    repairer = Repairer(min_confidence=0.95, placeholder="□")
    rows = adapter.repair_dataset(ds, output_column="text", repairer=repairer, concurrency=(1, 2), batch_size=3)
    rows = rows.take_all()
    assert [r["text"] for r in rows] == [repairer.repair_text(t).text for t in texts]
    # The same settings given as keywords.
    rows = adapter.repair_dataset(ds, min_confidence=0.95, placeholder="□", concurrency=2, batch_size=3).take_all()
    assert [r["repaired"] for r in rows] == [repairer.repair_text(t).text for t in texts]


# Without a Ray instance.


def test_arguments_are_checked_before_anything_runs():
    require_ray()
    with pytest.raises(TypeError, match="not both"):
        adapter.repair_dataset(object(), repairer=Repairer(model=None), placeholder="□")
    with pytest.raises(ValueError, match="placeholder"):
        adapter.repair_dataset(object(), placeholder="??")
    with pytest.raises(ValueError, match="concurrency"):
        adapter.repair_dataset(object(), concurrency=(3, 1))
    with pytest.raises(TypeError, match="concurrency"):
        adapter.repair_dataset(object(), concurrency="2")


def test_batch_formats():
    require_ray()
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    batcher = adapter.RepairBatch(adapter.repairer_state(Repairer()))
    cells = ["子曰\\u5b78而", "有朋", None]
    want = ["子曰學而", "有朋", None]
    table = batcher(pa.table({"text": cells}))
    assert table.column("repaired").to_pylist() == want
    assert table.schema.field("applied").type == pa.int64()
    frame = batcher(pd.DataFrame({"text": pd.Series(cells, dtype=object)}))
    assert frame["repaired"].tolist()[:2] == want[:2] and frame["repaired"].isna().tolist()[2]
    batch = batcher({"text": np.array(cells, dtype=object)})
    assert batch["repaired"].tolist() == want and batch["applied"].tolist() == [1, 0, None]
    assert batcher.repair_cells([3])["error"] == ["TypeError: cell holds int, not str or bytes"]


def test_batch_column_checks():
    require_ray()
    import pyarrow as pa

    batcher = adapter.RepairBatch(adapter.repairer_state(Repairer(model=None)))
    with pytest.raises(KeyError, match="no column 'text'"):
        batcher(pa.table({"body": ["a"]}))
    batcher = adapter.RepairBatch(adapter.repairer_state(Repairer(model=None)))
    with pytest.raises(ValueError, match="error"):
        batcher(pa.table({"text": ["a"], "error": ["x"]}))


def test_a_worker_without_the_model_fails(monkeypatch, tmp_path):
    state = {"model": "default", "_require_model": True}
    monkeypatch.setenv("REPAIR_MODEL", str(tmp_path / "absent.binary"))
    with pytest.raises(RepairError, match="REPAIR_MODEL"):
        adapter.build_repairer(state)
    assert adapter.build_repairer({"model": "default"}).lm is None  # the driver had none either


def test_missing_ray_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install -e \.\[ray\]"):
        adapter.repair_dataset(object())
