"""`engbench report`: data/processed (+ the run manifests in data/raw) → paper/build/ (tables,
figures, numbers.json, references.bib, paper.md, paper.pdf and a self-contained paper.html).
Never runs a workload."""

import argparse
import sys
import warnings
from pathlib import Path

from engbench import paths
from ._inputs import out_dir_problem


def register(sub):
    p = sub.add_parser("report", help="build the paper (tables, figures, numbers) from processed tables")
    p.add_argument("--processed", type=Path, default=None,
                   help="processed tables (default $ENGBENCH_PROCESSED_DIR or data/processed)")
    p.add_argument("--raw", type=Path, default=None,
                   help="run directories, for the manifests (default $ENGBENCH_RAW_DIR or data/raw)")
    p.add_argument("--out", type=Path, default=paths.REPO / "paper",
                   help="paper folder; writes OUT/build/ (default paper/)")
    p.add_argument("--baseline", default="wiredtiger",
                   help="engine the relative tables divide by (default wiredtiger; 'none': no relative tables)")
    p.add_argument("--png", action=argparse.BooleanOptionalAction, default=False,
                   help="also a PNG copy of every figure (the HTML inlines the SVG; the shipped paper has none); "
                        "--no-png: figures as SVG only (the default)")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.report import paper
    from engbench.report.manuscript import ManuscriptError
    from engbench.tables.processed import ProcessedError

    problem = out_dir_problem(args.out)
    if problem:
        print(f"engbench report: refused, nothing written: {problem}", file=sys.stderr)
        return 2
    baseline = None if args.baseline.lower() == "none" else args.baseline
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            html = paper.build(args.processed, args.raw, args.out, baseline=baseline, png=args.png)
        except (FileNotFoundError, ProcessedError, ManuscriptError) as exc:
            print(f"engbench report: {exc}", file=sys.stderr)
            return 2
    for w in dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, UserWarning)):
        print(f"engbench report: warning: {w}", file=sys.stderr)
    print(f"engbench report: wrote {html.parent}", file=sys.stderr)
    print(html)
    return 0
