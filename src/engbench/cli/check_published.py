"""`engbench check-published`: check the arithmetic of published benchmark tables."""

from __future__ import annotations

import csv
import sys

from engbench.published import (AMBIGUOUS, CONSISTENT, FIELDS, INCONSISTENT, PublishedInputError,
                                check_paths, default_published_dir, exit_status)

DESCRIPTION = """\
Recompute every published value that other published values determine (derived columns, totals,
ratios, percent changes, per-operation rates, unit conversions, CPU utilisation implied by per-op
CPU figures) with interval arithmetic that honours the precision each value was printed with, and
say for each whether it is consistent. Exit status: 0 all consistent, 1 some inconsistent,
2 bad input."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check-published", help="check the arithmetic of published tables",
        description=DESCRIPTION)
    p.add_argument("csv", nargs="*", metavar="CSV",
                   help="tables to check (default: every table CSV in the published directory)")
    p.add_argument("--dir", dest="published_dir", default=None,
                   help="published directory: default tables, and sources.csv / numbers_in_text.csv "
                        f"as context (default: $ENGBENCH_PUBLISHED_DIR or {default_published_dir()})")
    p.add_argument("--csv", dest="as_csv", action="store_true",
                   help="write the findings as CSV (" + ",".join(FIELDS) + ")")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        findings = check_paths(args.csv or None, args.published_dir)
    except PublishedInputError as exc:
        print(f"engbench check-published: error: {exc}", file=sys.stderr)
        return 2
    if args.as_csv:
        w = csv.DictWriter(sys.stdout, fieldnames=list(FIELDS), lineterminator="\n")
        w.writeheader()
        for f in findings:
            w.writerow(f.as_dict())
    else:
        for f in findings:
            print(f)
    count = {v: sum(f.verdict == v for f in findings) for v in (CONSISTENT, INCONSISTENT, AMBIGUOUS)}
    tables = len({f.table for f in findings})
    print(f"{count[CONSISTENT] + count[INCONSISTENT]} values checked in {tables} tables: "
          f"{count[CONSISTENT]} consistent, {count[INCONSISTENT]} inconsistent"
          + (f", {count[AMBIGUOUS]} not checkable (ambiguous inputs)" if count[AMBIGUOUS] else ""),
          file=sys.stderr if args.as_csv else sys.stdout)
    return exit_status(findings)
