"""What each workload is, stated once: its operation unit, the op whose requests or items are
its operations, the per-operation bases it reports, its table shapes, chart titles, section
introduction and notebook. Read by engbench.tables (op_unit, ops, bases), engbench.normalize.views,
the report (tables, charts, paper, prose) and the notebooks (notebooks/, tests/test_layout.py).

An *operation* is what q (ops/s) counts and what every "per op" figure divides by:

  document     a document inserted: the items of the main op's requests (iibench, fillseq,
               bulk-insert); the source documents' "per insert" (ips, wKB/i, Mcpu/i)
  transaction  a request of the main op, one transaction each (a sysbench update by primary key,
               a LinkBench request); the source documents' "per transaction" (tps, r/t, wKB/t)
  request      a request of the main op that is not a transaction of the workload's own
               (cache-pollution's hot point reads, a YCSB operation); "per request" (rps,
               r/req, wKB/req)

A workload the registry does not know counts the requests of all its ops (unit request)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    name: str        # document | transaction | request: the processed op_unit column
    counts: str      # "items" or "requests": which count of the main op the operations are
    plural: str      # in prose: "documents", "transactions", "requests"
    rate: str        # the header of q: ips, tps, rps
    rate_unit: str   # its unit: inserts/s, txn/s, requests/s
    short: str       # the suffix of per-op headers: wKB/i, r/t, r/req
    per: str         # one op in a unit: KB/insert, reads/txn, KB/request


DOCUMENT = Unit("document", "items", "documents", "ips", "inserts/s", "i", "insert")
TRANSACTION = Unit("transaction", "requests", "transactions", "tps", "txn/s", "t", "txn")
REQUEST = Unit("request", "requests", "requests", "rps", "requests/s", "req", "request")
UNITS = {u.name: u for u in (DOCUMENT, TRANSACTION, REQUEST)}

PER_N = 200_000  # "per 200k inserts" (the iibench tables' basis)
# basis → (column suffix, what it is); which bases a workload reports is Workload.bases
BASES = {"op": ("per_op", "per operation"), "200k": ("per_200k", "per 200k operations"),
         "batch": ("per_batch", "per request of params.batch operations")}


@dataclass(frozen=True)
class Workload:
    name: str
    unit: Unit
    main_op: str | None      # the op whose counts are the operations (None: every op)
    op_name: str             # one operation in words: "insert", "update", "hot read"
    bases: tuple             # keys of BASES this workload reports (the others are NaN)
    totals_of: tuple | None  # the ops whose totals are the run's (None: every op); the others repeat them
    tables: tuple            # table kinds of engbench.report.tables.KINDS, in order
    intro: str = ""          # the paper's section introduction
    notebook: str | None = None   # notebooks/<file> (a jupytext pair with notebooks/<stem>.py)
    point_read_op: str | None = None  # the op whose requests are point reads (reads_per_point_read)

    @property
    def op_label(self) -> str:
        """"insert (document)", "update (transaction)": chart titles and table titles."""
        return f"{self.op_name} ({self.unit.name})"

    @property
    def rate_title(self) -> str:
        """The rate chart's title: "Inserts per second", "Updates per second"."""
        return f"{self.op_name.capitalize()}s per second"


WORKLOADS = {w.name: w for w in (
    Workload("iibench", DOCUMENT, "insert", "insert", ("op", "200k", "batch"), None,
             ("per_insert", "per_200k", "rum"),
             "The insert benchmark (iibench) inserts documents with secondary indexes whose keys "
             "arrive in random order: a B-tree reads and writes a random leaf per index entry once "
             "its indexes outgrow the cache, an LSM tree defers that work to merges.",
             "iibench.ipynb"),
    Workload("fillseq", DOCUMENT, None, "insert", ("op", "200k", "batch"), None,
             ("per_insert", "per_200k", "rum"),
             "fillseq inserts keys in ascending order: the cheapest case for every engine.",
             "fillseq.ipynb"),
    # update.c<N> repeat the updates of "update" per step; linkbench's per-type ops repeat "request"
    Workload("sysbench-update", TRANSACTION, "update", "update", ("op",), ("update",), ("per_txn", "rum"),
             "sysbench update_non_index/update_index updates rows picked at random by primary key, "
             "at a rising number of clients (one step per client count); disk reads per update is "
             "iostat r/s over a step's window divided by its updates per second.",
             "sysbench_update.ipynb"),
    Workload("bulk-insert", DOCUMENT, "insert", "insert", ("op", "batch"), None, ("per_insert", "rum"),
             "Bulk insert loads small documents in unordered batches; the journal (log/WAL) and "
             "block compression knobs change how many bytes each document costs on disk.",
             "bulk_insert.ipynb"),
    # the per-transaction table of linkbench is its query table (report.workload_tables), which
    # adds the p99 of four operations to the per_txn columns
    Workload("linkbench", TRANSACTION, "request", "request", ("op",), ("request",), ("rum",),
             "LinkBench runs a social-graph mix of node and link reads and writes; one request is "
             "one transaction, and the p99 columns are update_node (un), get_node (gn), update_link "
             "(ul) and get_links_list (gll).",
             "linkbench.ipynb"),
    Workload("cache-pollution", REQUEST, "get", "hot read", ("op",), None, ("per_request", "rum"),
             "Cache pollution: a hot collection is read at random while a cold collection is passed "
             "once (a scan or an index build); read_once asks the engine not to keep the cold pages. "
             "The hot reads per second before, during and after the cold pass, the engine's cache "
             "statistics and the time of a full hot scan afterwards show how much of the hot set "
             "the cold pass pushed out.",
             "cache_pollution.ipynb"),
    # read, update, insert, scan, read_modify_write repeat "request" (one per YCSB operation)
    Workload("ycsb", REQUEST, "request", "operation", ("op",), ("request",), ("per_request", "rum"),
             "YCSB's core workloads A–F load usertable (records of ten 100-byte fields under hashed "
             "keys), then run a mix of point reads, updates, inserts, short range scans and "
             "read-modify-writes over zipfian, latest or uniform keys. Read amplification is device "
             "KB read per logical KB the reads and scans returned; reads per point read is device "
             "reads per YCSB read.",
             "ycsb.ipynb", point_read_op="read"),
)}
ORDER = ["iibench", "fillseq", "sysbench-update", "bulk-insert", "linkbench", "cache-pollution", "ycsb"]


def get(name: str) -> Workload:
    """The registry entry of ``name``; an unknown workload counts the requests of all its ops."""
    w = WORKLOADS.get(name)
    if w is not None:
        return w
    return Workload(str(name), REQUEST, None, "operation", ("op",), None, ("per_request", "rum"))


def count_ops(workload: str, totals: dict) -> int:
    """The operations of a run from its summary totals ({op: {requests, items, ...}}):

        ops = totals[main_op][unit.counts]      (main_op None: the sum over every op)

    e.g. iibench: items of insert (documents); sysbench-update: requests of update (one per
    update, also on the null engine, whose updates find no row: items 0)."""
    w = get(workload)
    if w.main_op is None:
        return sum(int(t.get(w.unit.counts, 0)) for t in totals.values())
    return int((totals.get(w.main_op) or {}).get(w.unit.counts, 0))


TOTALS = ("requests", "items", "logical_bytes_read", "logical_bytes_written")


def run_totals(workload: str, totals: dict) -> dict:
    """{requests, items, logical_bytes_read, logical_bytes_written} of a run from its summary
    totals: the sum over the ops of ``totals_of`` (every op when None), so that ops repeating
    others (sysbench's update.c<N>, linkbench's per-type ops beside "request") count once:

        x = Σ_{op in totals_of} totals[op][x]"""
    w = get(workload)
    ops = totals if w.totals_of is None else {op: totals.get(op) or {} for op in w.totals_of}
    return {k: sum(int(t.get(k, 0)) for t in ops.values()) for k in TOTALS}


def reads_per_point_read(runs, latency):
    """Device reads per point read of each run whose workload names a ``point_read_op`` (YCSB's
    read), from the processed tables:

        reads_per_point_read = r_per_op × ops / requests of point_read_op
                             = (iostat r/s × seconds) / point reads in the measured window

    (``latency.count`` of the op is its requests in the measured window). A Series indexed by
    run_id; NaN where the run has no point reads or no iostat."""
    import pandas as pd

    counts = latency.set_index(["run_id", "op"])["count"]
    out = {}
    for _, r in runs.iterrows():
        op = get(r["workload"]).point_read_op
        n = counts.get((r["run_id"], op), 0) if op else 0
        out[r["run_id"]] = float(r["r_per_op"]) * float(r["ops"]) / n if n else float("nan")
    return pd.Series(out, name="reads_per_point_read", dtype=float)
