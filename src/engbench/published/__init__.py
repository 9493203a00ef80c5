"""Check the arithmetic of numbers others published about storage engines.

`check_paths()` loads published tables (CSV, values as printed) and checks every value that a
relation in `relations.RELATIONS` determines from other values, with interval arithmetic that
honours printed precision (`values`). See notebooks/check_published.ipynb for a tour.

`claims.check_claims()` / `claims.check_all()` check the documents' own sentences (a trend, a
"best", a "no change", a label) against their tables, by the rules in `claims_in_text.csv`;
`superlatives.check()` reads every "best", "worst", "most", "least", "similar" of those sentences
again, against every row of the table it describes. `shipped.checks_table()` is all of it as the
processed table data/processed/published_checks.csv (engbench process) and the paper's section
"Numbers the source documents print, checked". Verdicts: engbench.verdicts.
"""

from ..verdicts import FAILS, HOLDS, HOLDS_OTHERWISE, NOT_TESTABLE, QUOTE_MISSING
from .check import (FIELDS, NOTHING, Finding, check_paths, check_tables, default_published_dir, exit_status,
                    findings_frame, load)
from .claims import check_all as check_claims_frame
from .claims import check_claims
from .relations import RELATIONS, Ref, Relation, ref
from .printed_tables import PublishedInputError, load_table
from .values import Interval, Printed, parse_printed



def __getattr__(name):
    """checks_table and CHECK_COLUMNS (shipped.py, which needs pandas) load on first use: `engbench
    check-published` and `engbench --help` import this package and stay light (tests/test_cli.py)."""
    if name in ("CHECK_COLUMNS", "checks_table"):
        from . import shipped  # local: pandas loads on first use (the docstring above)
        return getattr(shipped, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHECK_COLUMNS", "FAILS", "FIELDS", "HOLDS", "HOLDS_OTHERWISE", "NOTHING", "NOT_TESTABLE", "QUOTE_MISSING",
    "Finding", "Interval", "Printed", "PublishedInputError", "RELATIONS", "Ref", "Relation", "check_claims",
    "check_claims_frame", "check_paths", "check_tables", "checks_table", "default_published_dir", "exit_status",
    "findings_frame", "load", "load_table", "parse_printed", "ref",
]
