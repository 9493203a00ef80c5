"""Processing every run directory into the tables of data/processed: each workload run read
(read.read_run) and its rows computed (rows.run_rows), calibration runs made the devices table
(devices), then the tables assembled, ordered and written with deterministic bytes."""

import json
from pathlib import Path

import pandas as pd

from ..registry import units
from . import columns, datapackage
from .devices import DEVICE_COLS, calibration_row, device_use, step_device_use
from .read import RunError, read_calibration, read_manifest, read_run, read_trial
from .rows import (EXTRA_TABLES, INCOMPLETE, INTERVAL_COLS, LATENCY_COLS, METRICS, RUNS_HEAD, RUNS_TAIL,
                   partial_rows, run_rows)

CALIBRATE = "calibrate"  # engbench calibrate's runs: the devices table, not workload runs


def run_tables(run_dir) -> dict:
    """One workload run directory → {"runs": row dict, "latency": frame, "intervals": frame, and
    the workload-specific frames}: read.read_run, then rows.run_rows."""
    return run_rows(read_run(run_dir))


def _uniform(col: pd.Series) -> pd.Series:
    """A param/knob column parquet can store: numeric when every value is a number, else text."""
    vals = col.dropna()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return pd.to_numeric(col)
    return col.map(lambda v: None if v is None or v != v else v if isinstance(v, str) else json.dumps(v))


def build_tables(run_dirs, include_incomplete=False, log=None) -> dict:
    """Run directories → {"runs", "latency", "intervals", "steps", "loads", "cache_pollution",
    "engine_stats", "disk_files"} frames, deterministically ordered.
    Runs with status failed/interrupted/running are skipped (and said so via ``log``) unless
    ``include_incomplete``; then they are kept with incomplete=True. Calibrations with such a status
    are always skipped (said so via ``log``): their fio results are cut short."""
    rows, lat, ivl, cals = [], [], [], []
    extra = {name: [] for name in EXTRA_TABLES}
    for d in sorted(Path(p) for p in run_dirs):
        man = read_manifest(d)
        status = man.get("status")
        if man.get("workload") == CALIBRATE:
            if status in INCOMPLETE:  # its fio results are cut short (or fio's own text): no device figures
                if log:
                    log(f"skipped {d.name}: calibration with status {status} (an incomplete calibration "
                        "calibrates nothing; run engbench calibrate again)")
                continue
            cals.append(calibration_row(d, *read_calibration(d)))
            continue
        if status in INCOMPLETE and not include_incomplete:
            if log:
                why = f" ({man['error']})" if status == "abandoned" and man.get("error") else ""
                log(f"skipped {d.name}: status {status}{why} (use --include-incomplete)")
            continue
        try:
            got = run_tables(d)
        except RunError as exc:
            if status not in INCOMPLETE:
                raise
            got = partial_rows(d, man, read_trial(d), exc)
            if log:
                log(f"{d.name}: status {status}, captures incomplete ({exc}): a row with what the manifest says")
        rows.append(got["runs"])
        lat.append(got["latency"])
        ivl.append(got["intervals"])
        for name in EXTRA_TABLES:
            if len(got[name]):
                extra[name].append(got[name])
    per_cols = [f"{k}_{suffix}" for suffix, _ in units.BASES.values() for k in METRICS]
    runs = pd.DataFrame(rows)
    pk = sorted(c for c in runs.columns if c.startswith(("param.", "knob.")))
    runs = runs.reindex(columns=RUNS_HEAD + per_cols + RUNS_TAIL + pk)
    for c in pk:
        runs[c] = _uniform(runs[c])
    runs = runs.sort_values("run_id", kind="stable").reset_index(drop=True)
    devices = pd.DataFrame(cals, columns=DEVICE_COLS).sort_values("run_id", kind="stable").reset_index(drop=True)
    runs = device_use(runs, devices)
    extra["steps"] = [step_device_use(f, runs, devices) for f in extra["steps"]]
    latency = (pd.concat(lat, ignore_index=True) if lat else pd.DataFrame(columns=LATENCY_COLS))
    latency = latency.sort_values(["run_id", "op"], kind="stable").reset_index(drop=True)
    intervals = (pd.concat(ivl, ignore_index=True) if ivl else pd.DataFrame(columns=INTERVAL_COLS))
    intervals = intervals.sort_values(["run_id", "interval", "op"], kind="stable").reset_index(drop=True)
    out = {"runs": runs, "latency": latency, "intervals": intervals, "devices": devices}
    for name, (cols, key) in EXTRA_TABLES.items():
        frame = pd.concat(extra[name], ignore_index=True) if extra[name] else pd.DataFrame(columns=cols)
        out[name] = frame.sort_values(key, kind="stable").reset_index(drop=True)
    return out


def write_tables(tables: dict, out_dir) -> list[Path]:
    """Each table as <name>.parquet and <name>.csv (floats as %.10g), then datapackage.json describing
    every CSV (tables.datapackage). Deterministic bytes. A table or column the column dictionary
    (tables.columns) does not describe is refused before anything is written (DatapackageError)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    datapackage.refuse_missing({f"{k}.csv": v for k, v in columns.missing(tables).items()}, "engbench.tables.columns")
    datapackage.refuse_missing({f"{k}.csv": ["(the whole table)"] for k in tables if k not in columns.TABLES},
                               "engbench.tables.columns")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(tables):
        frame = tables[name]
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, out / f"{name}.parquet", compression="zstd", write_statistics=True)
        frame.to_csv(out / f"{name}.csv", index=False, float_format="%.10g", lineterminator="\n")
        written += [out / f"{name}.parquet", out / f"{name}.csv"]
    written.append(datapackage.write_processed(out))
    return written
