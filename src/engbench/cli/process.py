"""`engbench process [RUN_DIR ...]`: run directories → data/processed/<table>.{parquet,csv}
(runs, latency, intervals, and per workload: steps, loads, cache_pollution, engine_stats,
disk_files; then findings and findings_values, engbench.findings, and published_checks, the
published tables' numbers and sentences checked, engbench.published.shipped), then the runs in the
source documents' columns. Every column of every table is in engbench.tables.columns.

A sealed run whose files no longer match its SHA256SUMS is skipped and named, the others processed;
exit status 1 then (0 all processed, 2 bad input)."""

import sys
import warnings
from pathlib import Path

from engbench import paths
from ._inputs import out_dir_problem


def register(sub):
    p = sub.add_parser("process", help="parse and normalize run directories into tidy tables")
    p.add_argument("run_dirs", nargs="*", metavar="RUN_DIR",
                   help="run directories (default: every run under --raw)")
    p.add_argument("--raw", type=Path, default=None,
                   help="where runs are found (default data/raw, or ENGBENCH_RAW_DIR)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default data/processed, or ENGBENCH_PROCESSED_DIR)")
    p.add_argument("--include-incomplete", action="store_true",
                   help="also process failed/interrupted runs (marked incomplete=True)")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.normalize.views import format_view, source_views
    from engbench.parsers import ParseError
    from engbench.tables import RunError, build_tables, runs_in, write_tables

    args.raw = args.raw or paths.raw_dir()
    args.out = args.out or paths.processed_dir()
    log = lambda msg: print(f"engbench process: {msg}", file=sys.stderr)  # noqa: E731
    problem = out_dir_problem(args.out)
    if problem:
        log(f"refused, nothing written: {problem}")
        return 2
    dirs = [Path(d) for d in args.run_dirs] or runs_in(args.raw)
    if not dirs:
        print(f"engbench process: no run directories (looked in {args.raw})", file=sys.stderr)
        return 1
    missing = [d for d in dirs if not (d / "manifest.json").is_file()]
    if missing:
        log(f"{missing[0]}: not a run directory (no manifest.json): give run directories, or --raw for all of one folder")
        return 2
    dirs, tampered = intact(dirs, log)
    if not dirs:
        log("nothing processed: every run was skipped")
        return 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tables = build_tables(dirs, include_incomplete=args.include_incomplete, log=log)
        except (ParseError, RunError, OSError) as exc:
            log(str(exc))
            return 2
    for w in caught:
        log(f"warning: {w.message}")
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench import findings  # the claims of the source documents, judged on these tables
    from engbench.published import shipped  # the numbers the source documents print, checked
    tables = shipped.add_tables(findings.add_tables(tables))
    for path in write_tables(tables, args.out):
        log(f"wrote {path}")
    for title, frame in source_views(tables["runs"]).items():
        print(f"## {title}\n{format_view(frame)}\n")
    if tampered:
        log(f"{len(tampered)} run(s) skipped because their files do not match their SHA256SUMS: "
            + ", ".join(d.name for d in tampered))
        return 1
    return 0


def intact(dirs: list[Path], log) -> tuple[list[Path], list[Path]]:
    """(the runs to process, the runs refused): a sealed run whose files differ from its SHA256SUMS
    (run.rundir.check) is refused and named, so a tampered capture never reaches the tables, and the
    rest are processed. A run without SHA256SUMS was never sealed (running, or written by hand): it is
    processed as it stands."""
    from engbench.run import rundir  # local: loaded when the command runs, so that engbench --help stays light

    keep, bad = [], []
    for d in dirs:
        problems = rundir.check(d) if (d / rundir.SUMS).is_file() else []
        if problems:
            log(f"skipped {d.name}: its files do not match its SHA256SUMS ({'; '.join(problems)}); restore "
                f"the run from its source (engbench verify lists every difference)")
            bad.append(d)
        else:
            keep.append(d)
    return keep, bad
