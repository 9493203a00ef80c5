"""What a workload's folder states about it (its registry entry): a Workload."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .units import Unit


@dataclass(frozen=True)
class Workload:
    name: str
    unit: Unit
    main_op: str | None      # the op whose counts are the operations (None: every op)
    op_name: str             # one operation in words: "insert", "update", "hot read"
    bases: tuple             # keys of BASES this workload reports (the others are NaN)
    totals_of: tuple | None  # the ops whose totals are the run's (None: every op); the others repeat them
    tables: tuple            # table kinds of engbench.report.comparison_tables.KINDS, in order
    intro: str = ""          # the paper's section introduction
    notebook: str | None = None   # notebooks/<file> (a jupytext pair with notebooks/<stem>.py)
    point_read_op: str | None = None  # the op whose requests are point reads (reads_per_point_read)
    cite: tuple = ()         # what its section cites: keys of references.bib (paper/references.csv,
                             # report.citation.SOURCE_KEY)
    written: Callable | None = None  # (params, summary) → {collection or table: the least it must hold
                                     # after a run (None: more than 0)}: run.readback reads them back
    engine_stats: tuple = ()  # engine statistics its runs keep beyond the cache's: "read" (the engine's
                              # read counters), "log" (WiredTiger's log slots): normalize.workloads
    load_sums: tuple = ()    # what its load inserted: the sum of these counts of the summary's load
                             # (empty: its rows, documents, docs or records, the first given)
    inserting_ops: tuple | None = None  # the run phase's ops that insert: a run without any of them
                                        # stored the load's logical bytes (None: not told)
    reproduction: tuple | None = None   # its group of `engbench reproduce`: (group name, the source
                                        # document's number or an alias, the experiment files' prefix
                                        # under notebooks/params/); None: no reproduction group
    seconds_per_run: int | None = None  # reproduce's estimate of one run's wall time before a run of
                                        # the same trial exists (None: 60)
    column_families: Callable | None = None  # params → the tables it writes as the driver makes them (one
                                             # per table and one per index, driver/src/core/collection.cc):
                                             # RocksDB's column families, whose memtables run.experiments.
                                             # caching_memory counts (None: not known, refused there)
    ycsb_format: bool = False    # its runs also get YCSB's own output formats (run.ycsb_output: the run
                                 # directory's ycsb/), for the tools that read YCSB's
    main_job: str | None = None  # `engbench main` (the README's first command) runs its notebook with
                                 # these parameters (notebooks/params/<file>); one workload has them
    renamed: tuple = ()  # its parameters renamed after runs recorded them, oldest first: (old name, new
                         # name) for a parameter, (name, old value, new value) for a choice. Raw
                         # captures keep the old; readers see the new (params_now), a trial's
                         # fingerprint also matches the old (params_then), a request with an old
                         # name is refused (renamed_in)

    @property
    def op_label(self) -> str:
        """"insert (document)", "update (transaction)": chart titles and table titles."""
        return f"{self.op_name} ({self.unit.name})"

    @property
    def rate_title(self) -> str:
        """The rate chart's title: "Inserts per second", "Updates per second"."""
        return f"{self.op_name.capitalize()}s per second"


def op_items(totals: dict, op: str) -> int:
    """The items of ``op`` in a driver summary's totals (0 when the op did not run)."""
    return int((totals.get(op) or {}).get("items") or 0)


def params_now(w: Workload, params: dict) -> dict:
    """A run's recorded parameters under today's names and choices (w.renamed applied in order)."""
    out = dict(params)
    for r in w.renamed:
        if len(r) == 2 and r[0] in out:
            out[r[1]] = out.pop(r[0])
        elif len(r) == 3 and out.get(r[0]) == r[1]:
            out[r[0]] = r[2]
    return out


def params_then(w: Workload, params: dict) -> dict:
    """Today's parameters under the names and choices runs recorded before every rename of
    w.renamed (its inverse, newest first): what a trial's fingerprint was computed from then."""
    out = dict(params)
    for r in reversed(w.renamed):
        if len(r) == 2 and r[1] in out:
            out[r[0]] = out.pop(r[1])
        elif len(r) == 3 and out.get(r[0]) == r[2]:
            out[r[0]] = r[1]
    return out


def renamed_in(w: Workload, params: dict) -> list[str]:
    """One sentence per old name or choice among ``params`` (a request's): what it is called now."""
    now = {r[0]: r[1] for r in w.renamed if len(r) == 2}
    out = [f"parameter {old!r} of {w.name} is now called {new!r}" for old, new in now.items() if old in params]
    out += [f"{r[0]}={r[1]!r} of {w.name} is now {r[0]}={r[2]!r}" for r in w.renamed
            if len(r) == 3 and params.get(r[0]) == r[1]]
    return out
