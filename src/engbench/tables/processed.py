"""Reading data/processed back: the tables `engbench process` wrote (build.write_tables), as the
report, the findings and the notebooks read them, refused with the cause where they are not one
`engbench process` output."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

TABLES = ("runs", "latency", "intervals")
OPTIONAL = ("steps", "loads", "cache_pollution", "engine_stats", "devices", "disk_files")  # empty when not processed


class ProcessedError(ValueError):
    """Processed tables that cannot be read as engbench process writes them (a row that names no
    run of the runs table, an incomplete flag that is not a boolean, a manifest that is not
    JSON): the report refuses them with the cause rather than leaving rows out."""


def load_processed(processed_dir) -> dict:
    """{"runs", "latency", "intervals", and the OPTIONAL tables} from <dir>/<name>.parquet. Complete
    runs only (runs.incomplete False): the incomplete runs' rows are left out of every table, and a
    warning (warnings.warn) names them. A row of another table whose run_id is no run of the runs
    table, or an incomplete flag that is not True or False, is a ProcessedError: nothing is left
    out silently. out["left_out"]: the incomplete runs' ids."""
    d = Path(processed_dir)
    out = {}
    for name in TABLES:
        path = d / f"{name}.parquet"
        if not path.exists():
            raise FileNotFoundError(f"{path}: missing (run `engbench process` first)")
        out[name] = pd.read_parquet(path)
    runs = out["runs"]
    old = [c for c in ("target", "param.workload") if c in runs]  # issue 29's renames: trial, param.letter
    if old:
        raise ProcessedError(f"{d / 'runs.parquet'}: made before columns were renamed ({', '.join(old)}): "
                             "reprocess with `engbench process`")
    left_out = []
    if "incomplete" in runs:
        flag = runs["incomplete"]
        bad = runs.loc[~flag.map(lambda v: isinstance(v, (bool, np.bool_))), "run_id"].tolist()
        if bad:
            raise ProcessedError(f"{d / 'runs.parquet'}: incomplete is neither True nor False for "
                                 f"{len(bad)} run(s): {', '.join(map(str, bad[:5]))} (reprocess with `engbench process`)")
        left_out = runs.loc[flag.astype(bool), "run_id"].tolist()
        runs = runs[~flag.astype(bool)]
    out["runs"] = runs.sort_values("run_id", kind="stable").reset_index(drop=True)
    for name in OPTIONAL:
        path = d / f"{name}.parquet"
        out[name] = pd.read_parquet(path) if path.exists() else pd.DataFrame(columns=["run_id"])
    known = set(out["runs"]["run_id"]) | set(left_out)
    for name in ("latency", "intervals") + OPTIONAL:
        if name == "devices":  # calibration runs are rows of their own, not of the runs table
            continue
        orphans = sorted(set(out[name]["run_id"]) - known)
        if orphans:
            raise ProcessedError(f"{d / (name + '.parquet')}: {len(orphans)} run(s) in no row of runs.parquet: "
                                 f"{', '.join(map(str, orphans[:5]))} (the tables are not one `engbench process` "
                                 "output; reprocess)")
        out[name] = out[name][~out[name]["run_id"].isin(left_out)].reset_index(drop=True)
    if left_out:
        warnings.warn(f"{len(left_out)} incomplete run(s) left out of the report: {', '.join(left_out)}",
                      stacklevel=2)
    out["left_out"] = left_out
    return out
