"""Check the arithmetic of numbers others published about storage engines.

`check_paths()` loads published tables (CSV, values as printed) and checks every value that a
relation in `relations.RELATIONS` determines from other values, with interval arithmetic that
honours printed precision (`values`). See notebooks/check_published.ipynb for a tour.

`claims.check_claims()` / `claims.check_all()` check the documents' own sentences (a trend, a
"best", a "no change", a label) against their tables, by the rules in `claims_in_text.csv`.
"""

from .check import (AMBIGUOUS, CONSISTENT, FIELDS, INCONSISTENT, NOTHING, Finding, check_paths,
                    check_tables, default_published_dir, exit_status, findings_frame, load)
from .claims import check_all as check_claims_frame
from .claims import check_claims
from .relations import RELATIONS, Ref, Relation, ref
from .tables import PublishedInputError, load_table
from .values import Interval, Printed, parse_printed

__all__ = [
    "AMBIGUOUS", "CONSISTENT", "FIELDS", "INCONSISTENT", "NOTHING", "Finding", "Interval", "Printed",
    "PublishedInputError", "RELATIONS", "Ref", "Relation", "check_claims", "check_claims_frame",
    "check_paths", "check_tables",
    "default_published_dir", "exit_status", "findings_frame", "load", "load_table",
    "parse_printed", "ref",
]
