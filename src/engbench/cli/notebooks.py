"""`engbench notebooks`: the notebooks' own upkeep.

  --refresh [NAME ...]   re-execute the shipped-data notebooks in place (their committed outputs show
                         the shipped data: run it after the data change), deterministically
  --check                every notebook against the rules (engbench.notebooks.rules); exit 1 on any
  --list KIND            the shipped-data or run-side notebooks, one path a line (scripts/go.sh)
  --export-shipped DIR   git HEAD's data/raw and data/processed under DIR (what the strict check reads)"""

import sys
from pathlib import Path

from engbench import paths


def register(sub):
    p = sub.add_parser("notebooks", help="refresh the shipped-data notebooks' outputs; check every notebook",
                       description=__doc__.split("\n\n", 1)[0])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--refresh", nargs="*", metavar="NAME",
                      help="re-execute these shipped-data notebooks (default: all of them) and save them in place")
    what.add_argument("--check", action="store_true", help="check every notebook against the rules")
    what.add_argument("--list", choices=("shipped-data", "run-side"), help="print the notebooks of one kind")
    what.add_argument("--export-shipped", type=Path, metavar="DIR",
                      help="extract HEAD's data/raw and data/processed into DIR")
    p.add_argument("--raw", type=Path, default=None, help="run directories the refreshed notebooks read "
                   "(default $ENGBENCH_RAW_DIR or data/raw)")
    p.add_argument("--processed", type=Path, default=None, help="processed tables they read "
                   "(default $ENGBENCH_PROCESSED_DIR or data/processed)")
    p.add_argument("--committed", action="store_true",
                   help="--refresh from git HEAD's data/raw and data/processed (what `go.sh test` checks against)")
    p.add_argument("--folder", type=Path, default=None, help="the notebooks' folder (default notebooks/)")
    p.set_defaults(func=run)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def run(args) -> int:
    import tempfile

    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.notebooks import files, refresh, rules

    if args.list:
        kind = files.shipped_data if args.list == "shipped-data" else files.run_side
        for path in kind(args.folder):
            print(_shown(path))
        return 0
    if args.export_shipped:
        print(refresh.export_shipped(args.export_shipped))
        return 0
    if args.check:
        found = [p for nb in files.all_notebooks(args.folder) for p in rules.problems(nb)]
        for line in found:
            print(line)
        print(f"engbench notebooks: {len(files.all_notebooks(args.folder))} notebooks, "
              f"{len(found)} problem(s)", file=sys.stderr)
        return 1 if found else 0
    with tempfile.TemporaryDirectory(prefix="engbench-shipped-") as tmp:
        raw, processed = args.raw, args.processed
        if args.committed:
            root = refresh.export_shipped(Path(tmp), paths.REPO)
            raw, processed = root / "data" / "raw", root / "data" / "processed"
        try:
            written = refresh.refresh(args.refresh, args.folder, raw, processed)
        except (ValueError, refresh.RefreshError) as exc:
            print(f"engbench notebooks: {exc}", file=sys.stderr)
            return 2
    for path in written:
        print(_shown(path))
    return 0
