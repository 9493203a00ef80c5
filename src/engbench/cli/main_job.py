"""`engbench main`: the README's first command. Runs the iibench notebook (through papermill)
on every available embedded engine at a size that finishes in a few minutes here, and lists the
run directories it wrote."""

import sys
from pathlib import Path

from .. import experiments, notebooks, paths

DEFAULT_PARAMS = paths.REPO / "notebooks" / "params" / "iibench_main.yaml"


def register(sub):
    p = sub.add_parser("main", help="the main job: iibench on every available engine")
    p.add_argument("--params", type=Path, default=DEFAULT_PARAMS,
                   help=f"experiment YAML (default {DEFAULT_PARAMS.relative_to(paths.REPO)})")
    p.add_argument("--engines", help="comma-separated subset of engines (default: all available)")
    p.set_defaults(func=run)


def run(args) -> int:
    engines = args.engines.split(",") if args.engines else experiments.available_engines()
    print(f"engbench main: iibench on {', '.join(engines)} ({args.params})", file=sys.stderr)
    run_dirs, error = notebooks.execute(notebooks.NOTEBOOKS / "iibench.ipynb", args.params,
                                        {"engines": engines})
    print("run directories:")
    for d in run_dirs:
        print(f"  {d}")
    if error is not None:
        print(f"engbench main: the notebook failed: {error}", file=sys.stderr)
        return 1
    return 0
