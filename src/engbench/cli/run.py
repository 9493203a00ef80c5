"""`engbench run WORKLOAD --engine NAME [--set key=value ...] [--params FILE.yaml] [--out DIR]`.

Prints the run directory as its last line. Exit status: 0 ok, 1 failed, 2 refused parameters
(nothing written), 130 interrupted."""

import sys
from pathlib import Path

from ..run import driver, params, runs
from ._inputs import out_dir_problem, seconds


def register(sub):
    p = sub.add_parser("run", help="run one workload on one engine, capturing iostat/vmstat")
    p.add_argument("workload")
    p.add_argument("--engine", help="engine name (see `engbench engines`)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                   help="a workload parameter (max_rows=100000), an engine knob "
                        "(wiredtiger.cache_size=1GB) or seed=N; repeatable")
    p.add_argument("--params", type=Path, help="an experiment YAML (notebooks/params/*.yaml)")
    p.add_argument("--seed", type=int)
    p.add_argument("--out", type=Path, help="parent of the run directory (default data/raw)")
    p.add_argument("--keep-data", action="store_true", help="keep the engine's data files after the run")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--wait-quiet", type=seconds, default=0, metavar="SECONDS",
                   help="first wait (at most SECONDS) for a quiet machine, and record what it saw "
                        "(engbench reproduce passes it; engbench.run.quiet)")
    p.set_defaults(func=run)


def run(args) -> int:
    problem = out_dir_problem(args.out) if args.out else None
    if problem:
        print(f"engbench run: refused, nothing written: {problem}", file=sys.stderr)
        return 2
    try:
        req = params.resolve(args.workload, args.engine, args.sets, args.params, args.seed)
        result = runs.execute(req, out_dir=args.out, argv=sys.argv, keep_data=args.keep_data,
                              show_progress=not args.no_progress,
                              experiment=params.description(args.params), wait_quiet_s=args.wait_quiet)
    except (params.ParamError, driver.InvalidConfig) as exc:
        print(f"engbench run: refused, nothing written:\n{exc}", file=sys.stderr)
        return 2
    except driver.DriverMissing as exc:
        print(f"engbench run: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("engbench run: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the run directory, if any, is finalized as failed
        print(f"engbench run: failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if result.error:
        print(f"engbench run: {result.status}: {result.error}", file=sys.stderr)
    print(f"status: {result.status}", file=sys.stderr)
    print(result.run_dir)
    return {"ok": 0, "interrupted": 130}.get(result.status, 1)
