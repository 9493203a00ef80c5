"""`engbench import PATH|TARBALL [--raw DIR] [--skip-refused]`: run directories from another machine
(a run, a directory of runs, or a tar archive of either) → data/raw, each verified first (manifest
`ok`, sealed, every checksum) and never overwriting, all or nothing (staged beside data/raw, then
moved). Exit status: 0 all imported, 1 a run refused (nothing imported unless --skip-refused), 2 the
source is unusable or the import failed (the message names what, if anything, was imported)."""

import sys
from pathlib import Path

from engbench import paths


def register(sub):
    p = sub.add_parser("import", help="verify run directories from another machine and copy them into data/raw")
    p.add_argument("source", type=Path, metavar="PATH|TARBALL",
                   help="a run directory, a directory of runs, or a .tar/.tar.gz/.tgz/.tar.xz of either")
    p.add_argument("--raw", type=Path, default=None,
                   help="destination (default data/raw, or ENGBENCH_RAW_DIR)")
    p.add_argument("--skip-refused", action="store_true",
                   help="import the runs that pass even when others are refused")
    p.set_defaults(func=run)


def run(args) -> int:
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench import importer

    raw = args.raw or paths.raw_dir()
    try:
        report = importer.import_runs(args.source, raw, skip_refused=args.skip_refused)
    except importer.SourceError as exc:
        print(f"engbench import: {exc}", file=sys.stderr)
        return 2
    for name, reason in report.refused:
        print(f"engbench import: refused {name}: {reason}", file=sys.stderr)
    if report.refused and not report.imported:
        print(f"engbench import: nothing imported into {raw}", file=sys.stderr)
    for name, machine in report.imported:
        print(f"{raw / name}\tmachine {machine}")
    return 0 if report.ok else 1
