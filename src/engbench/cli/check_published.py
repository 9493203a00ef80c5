"""`engbench check-published`: check the arithmetic of published benchmark tables, and the
documents' own sentences against those tables (claims_in_text.csv)."""

from __future__ import annotations

import csv
import os
import sys

from engbench.published import (AMBIGUOUS, CONSISTENT, FIELDS, INCONSISTENT, PublishedInputError,
                                check_paths, default_published_dir, exit_status)
from engbench.published import claims as claims_mod

DESCRIPTION = """\
Recompute every published value that other published values determine (derived columns, totals,
ratios, percent changes, per-operation rates, unit conversions, CPU utilisation implied by per-op
CPU figures) with interval arithmetic that honours the precision each value was printed with, and
say for each whether it is consistent. Then check the source documents' own sentences against
their tables (claims_in_text.csv: a trend in words, a "best", a "no change", a label that differs
between a list and a table), one line per claim: holds, CONTRADICTED, differs, or not checkable (the
numbers are only in a graph the document does not reproduce). Exit status: 0 all
consistent and every claim holds, 1 some inconsistent, contradicted or differing, 2 bad input."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check-published", help="check the arithmetic of published tables",
        description=DESCRIPTION)
    p.add_argument("csv", nargs="*", metavar="CSV",
                   help="tables to check (default: every table CSV in the published directory)")
    p.add_argument("--dir", dest="published_dir", default=None,
                   help="published directory: default tables, and sources.csv / numbers_in_text.csv "
                        f"as context (default: $ENGBENCH_PUBLISHED_DIR or {default_published_dir()})")
    p.add_argument("--sources", "--seeds", dest="sources_dir",
                   default=os.environ.get("ENGBENCH_SOURCES_DIR") or os.environ.get("ENGBENCH_SEEDS_DIR"),
                   help="directory of the source documents (their .txt files): also check that every "
                        "claim's quote is verbatim in its document (default: $ENGBENCH_SOURCES_DIR, "
                        "or $ENGBENCH_SEEDS_DIR as before; a clone has no source documents, so by "
                        "default quotes are not looked up; --seeds is the older spelling)")
    p.add_argument("--no-claims", dest="claims", action="store_false",
                   help="only the arithmetic, not the claims in the documents' prose")
    p.add_argument("--csv", dest="as_csv", action="store_true",
                   help="write the findings as CSV (" + ",".join(FIELDS) + ")")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        findings = check_paths(args.csv or None, args.published_dir)
        # claims are about the whole directory: checked when no single tables were asked for
        claims = (claims_mod.check_claims(args.published_dir, args.sources_dir)
                  if args.claims and not args.csv else [])
    except PublishedInputError as exc:
        print(f"engbench check-published: error: {exc}", file=sys.stderr)
        return 2
    if args.as_csv:
        w = csv.DictWriter(sys.stdout, fieldnames=list(FIELDS), lineterminator="\n")
        w.writeheader()
        for f in findings:
            w.writerow(f.as_dict())
        for c in claims:
            w.writerow(c.as_finding_dict())
    else:
        for f in findings:
            print(f)
        for c in claims:
            print(c)
    out = sys.stderr if args.as_csv else sys.stdout
    count = {v: sum(f.verdict == v for f in findings) for v in (CONSISTENT, INCONSISTENT, AMBIGUOUS)}
    tables = len({f.table for f in findings})
    print(f"{count[CONSISTENT] + count[INCONSISTENT]} values checked in {tables} tables: "
          f"{count[CONSISTENT]} consistent, {count[INCONSISTENT]} inconsistent"
          + (f", {count[AMBIGUOUS]} not checkable (ambiguous inputs)" if count[AMBIGUOUS] else ""),
          file=out)
    if claims:
        verdicts = [c.verdict for c in claims]
        documents = len({c.source for c in claims})
        print(f"{len(claims)} claims in the prose of {documents} documents checked: "
              + ", ".join(f"{verdicts.count(v)} {v}" for v in
                          (claims_mod.HOLDS, claims_mod.CONTRADICTED, claims_mod.DIFFERS,
                           claims_mod.NOT_CHECKABLE, claims_mod.QUOTE_MISSING) if verdicts.count(v) or v == claims_mod.HOLDS)
              + ("" if args.sources_dir else "; quotes not looked up (no --sources)"), file=out)
    return max(exit_status(findings), claims_mod.exit_status(claims))
