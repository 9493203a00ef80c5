"""Every claim of the five source documents, tested here or not: data/published/claims_inventory.csv.

One row per sentence (or clause) that asserts a measurable behaviour of an engine or a workload,
quoted verbatim (its README says how rows were chosen). Each row is one of:

    tested            finding_ids names the findings (findings.catalog) that re-measure it
    not testable here testable_here = no: reason_not_testable says why (no such engine and no stand-in,
                      a machine this one is not, a statement with nothing to measure ...)
    not tested here   testable here, but this reproduction runs no experiment for it: not_tested_because
                      says which experiment or knob it would need

The paper's claim count is the inventory's (`counts`), not the findings'."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

FILE = "claims_inventory.csv"
TESTED, NOT_TESTABLE_HERE, NOT_TESTED_HERE = "tested", "not testable here", "not tested here"
STATUSES = (TESTED, NOT_TESTED_HERE, NOT_TESTABLE_HERE)


def load(published_dir: Path) -> pd.DataFrame:
    """The inventory with a `status` column (module docstring); empty when the file is absent."""
    path = Path(published_dir) / FILE
    if not path.is_file():
        return pd.DataFrame(columns=["id", "source_file", "quote", "status"])
    inv = pd.read_csv(path, dtype=str, keep_default_na=False)
    if "not_tested_because" not in inv:
        inv["not_tested_because"] = ""
    inv["status"] = [TESTED if r["finding_ids"] else NOT_TESTABLE_HERE if r["testable_here"] == "no" else NOT_TESTED_HERE
                     for r in inv.to_dict("records")]
    return inv


def finding_ids(inv: pd.DataFrame) -> set:
    return {i for ids in inv.get("finding_ids", []) for i in ids.split(";") if i}


def counts(inv: pd.DataFrame) -> dict:
    """{"claims": n, "tested": n, "not tested here": n, "not testable here": n} and per document
    ("000.tested", ...): what the paper says of the inventory."""
    out = {"claims": len(inv), **{s: int((inv["status"] == s).sum()) for s in STATUSES}}
    for doc, g in inv.groupby(inv["source_file"].str[:3]):
        out[f"{doc}.claims"] = len(g)
        out.update({f"{doc}.{s}": int((g["status"] == s).sum()) for s in STATUSES})
    return out
