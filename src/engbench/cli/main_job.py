"""`engbench main`: the README's first command. Runs the notebook of the registry's main workload
(engbench.registry.main(), its folder's main_job parameters: iibench, through papermill) on every
available embedded engine at a size that finishes in a few minutes here, and lists the run
directories it wrote; then processes every run directory in data/raw (the new ones with the
ones already there) into data/processed and builds the paper from it (paper/build/), and prints
the path of paper.html to open."""

import sys
import warnings
from pathlib import Path

from .. import paths, registry
from ..run import rundir

MAIN = registry.main()  # the workload `engbench main` runs (its folder's main_job parameters)
DEFAULT_PARAMS = paths.REPO / "notebooks" / "params" / MAIN.main_job


def register(sub):
    p = sub.add_parser("main", help=f"the main job: {MAIN.name} on every available engine")
    p.add_argument("--params", type=Path, default=DEFAULT_PARAMS,
                   help=f"experiment YAML (default {DEFAULT_PARAMS.relative_to(paths.REPO)})")
    p.add_argument("--engines", help="comma-separated subset of engines (default: all available)")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from .. import notebooks
    from ..run import experiments, params

    try:
        params.load_file(args.params)  # a missing, empty or malformed file: one sentence, nothing run
    except params.ParamError as exc:
        print(f"engbench main: refused, nothing run: {exc}", file=sys.stderr)
        return 2
    engines = args.engines.split(",") if args.engines else experiments.available_engines()
    print(f"engbench main: {MAIN.name} on {', '.join(engines)} ({args.params})", file=sys.stderr)
    run_dirs, error = notebooks.execute(notebooks.NOTEBOOKS / MAIN.notebook, args.params,
                                        {"engines": engines})
    print("run directories:")
    statuses = {}
    for d in run_dirs:
        statuses[d] = rundir.read_manifest(d).get("status")
        print(f"  {d}  ({statuses[d]})")
    if error is not None:
        print(f"engbench main: the notebook failed: {error}", file=sys.stderr)
        return 1
    rc = _process_and_report(run_dirs)
    bad = [d for d, st in statuses.items() if st != "ok"]
    for d in bad:  # said last, so it is not lost above the paper's path
        print(f"engbench main: {Path(d).name} ended {statuses[d]}: {_first_line(rundir.read_manifest(d))}",
              file=sys.stderr)
    return rc or (1 if bad else 0)


def _first_line(manifest: dict) -> str:
    """The first line of a run's recorded error, or a pointer to its files when it recorded none."""
    lines = (manifest.get("error") or "").strip().splitlines()
    return lines[0] if lines else "no error text recorded (see the run's manifest.json and driver.log)"


def summary_lines(runs, latency, new_ids) -> list[str]:
    """The main job's closing table, one line per new run: engine, documents inserted per second
    (q, the client window's mean rate), KB written to the device per document (wkb_per_op, iostat)
    and the insert latency p99 in ms (latency p99_us / 1000 of MAIN.main_op), as processed — never
    recomputed here."""
    sub = runs[runs["run_id"].isin(new_ids)].sort_values(["engine", "run_id"])
    p99 = {r.run_id: r.p99_us for r in latency.itertuples() if r.op == MAIN.main_op}
    out = [f"{'engine':<16} {'docs/s':>10} {'wKB/i':>8} {'p99 ms':>8}  run"]
    for r in sub.itertuples():
        ms = p99.get(r.run_id)
        out.append(f"{r.engine:<16} {_num(r.q, 0):>10} {_num(r.wkb_per_op, 2):>8} "
                   f"{_num(None if ms is None else ms / 1000, 1):>8}  {r.run_id}")
    return out


def _num(value, decimals: int) -> str:
    if value is None or value != value:  # None or NaN
        return "-"
    return f"{value:,.{decimals}f}"


def _process_and_report(run_dirs) -> int:
    """data/raw (with the new runs) → data/processed → paper/build/; prints paper.html's path."""
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from ..tables import build_tables, runs_in, write_tables
    from ..report import paper

    raw, processed = paths.raw_dir(), paths.processed_dir()
    dirs = sorted(set(runs_in(raw)) | {Path(d) for d in run_dirs})
    log = lambda msg: print(f"engbench main: {msg}", file=sys.stderr)  # noqa: E731
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tables = build_tables(dirs, log=log)
        except Exception as exc:  # ParseError, RunError, OSError: name the run and stop
            log(f"processing failed: {exc}")
            return 2
    for w in caught:
        log(f"warning: {w.message}")
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from .. import findings
    from ..published import shipped
    tables = shipped.add_tables(findings.add_tables(tables))  # as `engbench process` writes them
    write_tables(tables, processed)
    log(f"processed {len(tables['runs'])} runs into {processed}")
    html = paper.build(processed, raw, paths.REPO / "paper")
    print()
    print("\n".join(summary_lines(tables["runs"], tables["latency"], {Path(d).name for d in run_dirs})))
    print()
    print(f"paper: {html}")
    print(f"open it with: xdg-open {html}  (or any browser; it is self-contained)")
    return 0
