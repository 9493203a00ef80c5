"""The paper's methods section, from the run manifests (machine, kernel, device, versions,
parameters, seeds, git commit, capture commands) and the formulas of engbench.normalize (their
docstrings, so the paper states exactly what the code computes)."""

from __future__ import annotations

import inspect
import json

import pandas as pd

from .. import normalize as nz
from .. import registry
from .. import tables
from ..normalize import device as dev
from ..normalize import sizes
from ..normalize import workloads as wl
from .comparison_tables import Table
from .data import decoded, param_defaults


def formula_functions() -> list:
    """(label, function) of every formula the Methods section prints, the workload folders' own
    among the shared ones (read at call time: engbench.registry)."""
    return [
        ("q (ips, tps)", nz.rate),
        ("x per operation (r/op, wKB/op, cs/op)", nz.rate_per_op),
        ("Mcpu/op", nz.mcpu_per_op),
        ("CPU µs/op", nz.cpu_us_per_op),
        ("per 200k / per request", nz.per_n),
        ("size, rss (GB)", nz.gib),
        ("read amplification, device (read_amp_device)", nz.read_amp_device),
        ("read amplification, cgroup (read_amp_cgroup)", nz.read_amp_cgroup),
        ("read amplification, process (read_amp_process)", nz.read_amp_process),
        ("write amplification, device (write_amp_device)", nz.write_amp_device),
        ("write amplification, process (write_amp_process)", nz.write_amp_process),
        ("write amplification of a load (loads.write_amp_*)", nz.load_write_amp),
        ("space amplification (space_amp)", nz.space_amp),
        ("latency percentiles", nz.latency_percentiles),
        ("insert-rate percentiles", nz.throughput_percentiles),
        ("measured window", nz.trim_to_window),
        ("capture gaps (runs.warnings)", nz.missed_seconds),
        ("amplification not computed (runs.amp_notes)", nz.why_no_ratio),
        ("partial intervals", nz.partial_intervals),
        ("costs over a window (steps, load)", nz.window_costs),
        *registry.formulas(),  # the workload folders' own rows (workloads/<name>/normalize.py)
        ("load phase", wl.load_row),
        ("log slot joins that waited (log_slot_wait_fraction)", wl.log_slot_figures),
        ("sizes by kind (data, index, table, log)", sizes.sizes),
        ("what a data-directory file holds", sizes.kind),
        ("run limits (runs.limits, limit.*)", dev.limit_fields),
        ("run limits label", dev.limits_label),
        ("a run's own device I/O (cg_*_per_op)", dev.cgroup_per_op),
        ("cgroup counter over the window", dev.counter_increase),
        ("clients of a run", dev.clients),
        ("calibrated read IOPS a run is compared with", dev.calibrated_read_iops),
        ("use of a calibrated limit", dev.use),
        ("MB/s from iostat's kB/s", dev.mb_per_s),
        ("read-bound rate (dashed line on the rate charts)", dev.ops_ceiling),
        ("the calibration a run is compared with", tables.device_use),
        # the steps table's device use, labelled by the workloads whose folders give steps
        *((f"device use per {m.WORKLOAD.name} step", tables.step_device_use)
          for m in registry.modules("normalize") if hasattr(m, "step_rows")),
    ]


def _distinct(values):
    out = []
    for v in values:
        if v is not None and v not in out:
            out.append(v)
    return out


def _get(doc, dotted):
    for part in dotted.split("."):
        doc = (doc or {}).get(part) if isinstance(doc, dict) else None
    return doc


def _fmt_bytes(n):
    return f"{n / 2**30:.1f} GiB" if isinstance(n, (int, float)) else "unknown"


def facts(manifests: dict, runs) -> list[tuple[str, str]]:
    """(what, value) rows for the methods table; values distinct over the runs, "; "-joined."""
    mans = [manifests.get(r) or {} for r in runs["run_id"]]

    def one(dotted, fmt=str):
        vals = _distinct(_get(m, dotted) for m in mans)
        return "; ".join(fmt(v) for v in vals) if vals else "not recorded"

    def device(m):
        d = _get(m, "hardware.data_device") or {}
        if not d:
            return None
        rot = {True: "rotational", False: "non-rotational"}.get(d.get("rotational"), "rotational?")
        return f"{d.get('name')} ({d.get('model') or 'model?'}, scheduler {d.get('scheduler') or '?'}, {rot})"

    def fs(m):
        f = _get(m, "hardware.filesystem") or {}
        return f"{f.get('fstype')} on {f.get('mount_point')} ({f.get('options')})" if f else None

    def commit(m):
        g = m.get("git") or {}
        if not g.get("commit"):
            return None
        return g["commit"][:12] + (" (uncommitted changes)" if g.get("dirty") else "")

    engines = []
    for m in mans:
        s = m.get("software") or {}
        if m.get("engine"):
            engines.append(f"{m['engine']}: {s.get('engine_library') or '?'} {s.get('engine_version') or ''}".strip())
    return [
        ("CPU", one("hardware.cpu_model")),
        ("CPUs", one("hardware.ncpu")),
        ("memory", one("hardware.memory_bytes", _fmt_bytes)),
        ("data device", "; ".join(_distinct(device(m) for m in mans)) or "not recorded"),
        ("filesystem", "; ".join(_distinct(fs(m) for m in mans)) or "not recorded"),
        ("kernel", one("software.kernel")),
        ("OS", one("software.os")),
        ("driver", one("software.driver_version")),
        ("engines", "; ".join(_distinct(engines)) or "not recorded"),
        ("sysstat", one("software.sysstat")),
        ("procps", one("software.procps")),
        ("python", one("software.python")),
        ("engbench (at run time)", one("software.engbench")),
        ("git commit of the runs", "; ".join(_distinct(commit(m) for m in mans)) or "not recorded"),
        ("iostat", one("capture.iostat.argv", " ".join)),
        ("vmstat", one("capture.vmstat.argv", " ".join)),
        ("machines (engbench.importer.machine_key)", ", ".join(str(k) for k in _distinct(runs["machine"].tolist()))
         if "machine" in runs else "not recorded"),
        ("run limits", "; ".join(str(k) for k in _distinct(runs["limits"].tolist())) if "limits" in runs else "none"),
        ("seeds", ", ".join(str(s) for s in sorted(_distinct(runs["seed"].tolist()), key=str))),
    ]


def run_rows(exps, manifests) -> list[dict]:
    """One row per run: experiment, row label, run id, machine, run limits, seed, knobs, start time, and its warnings
    (runs.warnings: the driver's and capture gaps; "—" when none)."""
    rows = []
    for e in exps:
        for r in e.runs.itertuples(index=False):
            m = manifests.get(r.run_id) or {}
            knobs = m.get("knobs") or {}
            rows.append({"experiment": e.key, "engine": r.config, "run_id": r.run_id,
                         "machine": e.machine, "limits": e.limits,
                         "seed": r.seed, "started": m.get("started_utc") or "?",
                         "knobs": ", ".join(f"{k}={v}" for k, v in sorted(knobs.items())) or "defaults",
                         "warnings": w if isinstance(w := getattr(r, "warnings", None), str) and w else "—"})
    return rows


RUNS_SHOWN = ["experiment", "configuration", "run", "seed", "started (UTC)", "warnings"]


class RunsTable(Table):
    """The run list: the page shows RUNS_SHOWN, its CSV every column (knobs, machine, limits too)."""

    def __init__(self, full: pd.DataFrame):
        super().__init__("runs", "Runs", "Experiment, configuration, run directory, seed, start and warnings of "
                         "every run; each configuration's knobs are in its experiment's configuration table, "
                         "every run's knobs, machine and limits in tables/runs.csv.",
                         full[RUNS_SHOWN].reset_index(drop=True), pd.DataFrame(), left=3)
        self.full = full

    def csv(self) -> str:
        return self.full.to_csv(index=False, lineterminator="\n")


def runs_table(exps, manifests) -> RunsTable:
    """run_rows as a table that fits the page (the knobs summarised by configuration), the full list in
    its CSV."""
    rows = run_rows(exps, manifests)
    full = pd.DataFrame([{"experiment": r["experiment"], "configuration": r["engine"], "run": r["run_id"],
                          "seed": str(r["seed"]), "started (UTC)": str(r["started"])[:16].replace("T", " "), "warnings": r["warnings"],
                          "machine": r["machine"], "run limits": r["limits"], "knobs": r["knobs"]} for r in rows],
                        columns=RUNS_SHOWN + ["machine", "run limits", "knobs"])
    return RunsTable(full)


def formulas() -> list[tuple[str, str]]:
    return [(name, inspect.getdoc(fn)) for name, fn in formula_functions()]


def processing_notes() -> str:
    return inspect.getdoc(tables)


def _show(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def experiment_rows(exps, manifests, defaults_of=None) -> list[dict]:
    """Per experiment: every parameter (with the driver's default beside it), and per engine
    configuration its knobs as resolved, engine library and version, seeds and runs."""
    defaults_of = defaults_of or param_defaults
    out = []
    for e in exps:
        defaults = defaults_of(e.workload) or {}
        params = [{"name": k, "value": _show(decoded(v)),
                   "default": _show(defaults[k]) if k in defaults else "—"}
                  for k, v in sorted(e.params.items())]
        configs = []
        for cfg in e.configs:
            g = e.runs[e.runs["config"] == cfg]
            mans = [manifests.get(r) or {} for r in g["run_id"]]
            knobs = _distinct(", ".join(f"{k}={_show(v)}" for k, v in sorted((m.get("knobs") or {}).items()))
                              for m in mans)
            soft = _distinct(f"{_get(m, 'software.engine_library') or '?'} {_get(m, 'software.engine_version') or '?'}"
                             for m in mans)
            names = _distinct(m.get("experiment") for m in mans)
            configs.append({"config": cfg, "knobs": "; ".join(knobs) or "not recorded",
                            "engine": "; ".join(soft) or "not recorded",
                            "seeds": ", ".join(str(s) for s in sorted(_distinct(g["seed"].tolist()), key=str)),
                            "runs": str(len(g)), "names": "; ".join(names) or "—"})
        out.append({"key": e.key, "title": e.title, "workload": e.workload, "params": params,
                    "configs": configs})
    return out
