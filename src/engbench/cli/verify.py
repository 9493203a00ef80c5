"""`engbench verify`: the reviewer's path from the committed paper back to the raw captures —
check every run directory's SHA256SUMS, reprocess the raw captures into a temporary directory,
rebuild the paper's and its supplement's tables, figures and numbers, and name every difference from
paper/build/.
Exit status 0 iff everything matched."""

import sys
from pathlib import Path

from engbench import paths


def register(sub):
    p = sub.add_parser("verify", help="check the run directories and that the committed paper and its supplement recompute")
    p.add_argument("--raw", type=Path, default=None,
                   help="run directories (default $ENGBENCH_RAW_DIR or data/raw)")
    p.add_argument("--paper", type=Path, default=paths.REPO / "paper",
                   help="paper folder holding the committed build/ (default paper/)")
    p.add_argument("--ignore-png", action="store_true",
                   help="do not compare PNG figures (their rasterization may differ across platforms)")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.verify import verify

    res = verify(args.raw, args.paper, ignore_png=args.ignore_png)
    for line in res.lines():
        print(line)
    verdict = "OK" if res.ok else f"{len(res.lines())} difference(s)"
    print(f"engbench verify: {res.runs_checked} run directories, {res.files_compared} paper files "
          f"compared: {verdict}", file=sys.stderr)
    return 0 if res.ok else 1
