"""One entry of the processed tables' column dictionary (engbench.tables.columns): a column's name,
unit, counter (where its figure comes from), denominator and description."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    name: str
    unit: str
    counter: str
    denominator: str
    description: str


def column(name, unit="", counter="", denominator="", description="") -> Column:
    """A Column, with every part but the name blank unless given."""
    return Column(name, unit, counter, denominator, description)


# the key of every table of runs: the column that names the run
RUN_ID = column("run_id", "", "manifest", "", "the run directory's name (data/raw/<run_id>)")
