"""What the per-operation figures divide by: the operation units and the bases.

An *operation* is what q (ops/s) counts and what every "per op" figure divides by:

  document     a document inserted: the items of the main op's requests (iibench, fillseq,
               bulk-insert); the source documents' "per insert" (ips, wKB/i, Mcpu/i)
  transaction  a request of the main op, one transaction each (a sysbench update by primary key,
               a LinkBench request); the source documents' "per transaction" (tps, r/t, wKB/t)
  request      a request of the main op that is not a transaction of the workload's own
               (cache-pollution's hot point reads, a YCSB operation); "per request" (rps,
               r/req, wKB/req)"""

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
