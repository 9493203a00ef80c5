"""`engbench calibrate [--set run.read_iops=N ...] [--out DIR]`: fio on the filesystem holding the
data directory, under the run limits given (docs/run-format.md "Calibration runs"). Prints the
run directory as its last line. Exit status: 0 ok, 1 failed, 2 refused (nothing written), 130
interrupted."""

import sys
from pathlib import Path
from ._inputs import out_dir_problem


def register(sub):
    p = sub.add_parser("calibrate", help="measure the data device with fio under the run limits")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="run.KEY=VALUE",
                   help="a run limit (run.memory_limit, run.read_iops, run.write_iops, run.read_bps, "
                        "run.write_bps, run.drop_caches); repeatable")
    p.add_argument("--out", type=Path, help="parent of the run directory (default data/raw)")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.run import calibrate, limits


    problem = out_dir_problem(args.out) if args.out else None
    if problem:
        print(f"engbench calibrate: refused, nothing written: {problem}", file=sys.stderr)
        return 2
    try:
        result = calibrate.calibrate(args.sets, out_dir=args.out, argv=sys.argv)
    except limits.LimitError as exc:
        print(f"engbench calibrate: refused, nothing written:\n{exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("engbench calibrate: interrupted", file=sys.stderr)
        return 130
    if result.error:
        print(f"engbench calibrate: {result.status}: {result.error}", file=sys.stderr)
    print(f"status: {result.status}", file=sys.stderr)
    print(result.run_dir)
    return {"ok": 0, "interrupted": 130}.get(result.status, 1)
