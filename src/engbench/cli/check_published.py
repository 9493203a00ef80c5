"""`engbench check-published`: check the arithmetic of published benchmark tables, and the
documents' own sentences against those tables (claims_in_text.csv)."""

from __future__ import annotations

import csv
import os
import sys

from engbench import verdicts as V
from engbench.published import FIELDS, PublishedInputError, check_paths, default_published_dir, exit_status
from engbench.published import claims as claims_mod
from engbench.published import superlatives

DESCRIPTION = """\
Recompute every published value that other published values determine (derived columns, totals,
ratios, percent changes, per-operation rates, unit conversions, CPU utilisation implied by per-op
CPU figures) with interval arithmetic that honours the precision each value was printed with, and
say for each whether it holds; a value that does not hold as stated but does under another
definition (an average per operation rather than a total, truncated rather than rounded) says which.
Then check the source documents' own sentences against their tables (claims_in_text.csv: a trend in
words, a "best", a "no change", a label that differs between a list and a table), one line per
claim, and every superlative of them against every row of its table. Verdicts (engbench.verdicts):
holds, holds under another definition, does not hold, not testable (the numbers are only in a graph
the document does not reproduce), quote not in source. Exit status: 0 nothing does not hold, 1 some
value or claim does not hold (or its quote is not in its source), 2 bad input."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check-published", help="check the arithmetic of published tables",
        description=DESCRIPTION)
    p.add_argument("tables", nargs="*", metavar="TABLE",
                   help="table files to check (default: every table CSV in the published directory)")
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
                   help="write the findings as CSV on stdout (" + ",".join(FIELDS) + ")")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        findings = check_paths(args.tables or None, args.published_dir)
        # claims are about the whole directory: checked when no single tables were asked for
        whole = args.claims and not args.tables
        claims = claims_mod.check_claims(args.published_dir, args.sources_dir) if whole else []
        sups = superlatives.check(args.published_dir or default_published_dir()) if whole else []
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
        for x in sups:
            w.writerow({"table": x.table, "row": f"claim {x.id}", "column": x.column, "stated": x.word,
                        "recomputed": x.detail, "verdict": x.verdict, "relation": f"superlative:{x.word}",
                        "why": x.reading, "benign_definition": x.benign_definition})
    else:
        for f in findings:
            print(f)
        for c in claims:
            print(c)
        for x in sups:
            print(f"superlative {x.id} | {x.table}: {x.column} | {x.word} | {x.verdict} | {x.reading}; {x.detail}"
                  + (f" | read as {x.benign_definition}" if x.benign_definition else ""))
    out = sys.stderr if args.as_csv else sys.stdout
    judged = [f for f in findings if f.verdict != "nothing checkable"]
    tables = len({f.table for f in findings})
    print(f"{len(judged)} values checked in {tables} tables: " + _tally([f.verdict for f in judged]), file=out)
    if claims:
        documents = len({c.source for c in claims})
        print(f"{len(claims)} claims in the prose of {documents} documents checked: "
              + _tally([c.verdict for c in claims])
              + ("" if args.sources_dir else "; quotes not looked up (no --sources)"), file=out)
    if sups:
        print(f"{len(sups)} superlatives read against every row of their tables: " + _tally([x.verdict for x in sups]),
              file=out)
    status = max(exit_status(findings), claims_mod.exit_status(claims))
    return max(status, 1 if any(x.verdict in V.FAILING for x in sups) else 0)


def _tally(verdicts: list) -> str:
    """"N holds, M does not hold, ..." in engbench.verdicts' order (holds always, the rest when present)."""
    return ", ".join(f"{verdicts.count(v)} {v}" for v in V.VERDICTS if verdicts.count(v) or v == V.HOLDS)
