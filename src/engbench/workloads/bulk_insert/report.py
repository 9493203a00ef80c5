"""bulk-insert in the paper (listed in engbench.workloads.upper, read through engbench.registry.hook):
source 002's comparison (documents/s, bytes on disk per document, size) with the journal and
compression knobs as columns, and the sentence on bytes per document."""

from __future__ import annotations

import json

import pandas as pd

from ...report.prose import mean_by, quote_list
from ...report.workload_tables import NAN, own_table, stat

JOURNAL = {"wiredtiger": "log", "wiredtiger-lsm": "log", "rocksdb": "wal", "sqlite": "journal_mode"}
COMPRESSION = {"wiredtiger": "block_compressor", "wiredtiger-lsm": "block_compressor",
               "rocksdb": "compression"}


def _knob(run, engine, names):
    name = names.get(engine)
    if not name:
        return "—"
    col = f"knob.{engine.split('-')[0]}.{name}"
    v = run.get(col)
    if v is None or v != v:
        return "default"
    v = json.loads(v) if isinstance(v, str) and v in ("true", "false") else v
    return {True: "on", False: "off"}.get(v, str(v)) if isinstance(v, bool) else str(v)


def bulk_tables(exp) -> list:
    rows = []
    for cfg in exp.configs:
        g = exp.runs[exp.runs["config"] == cfg]
        first = g.iloc[0].to_dict()
        engine = str(first["engine"])
        rows.append([cfg, _knob(first, engine, JOURNAL), _knob(first, engine, COMPRESSION), str(len(g)),
                     (*stat(g["q"].tolist()), 0), (*stat(g.get("bytes_per_document", pd.Series([NAN] * len(g))).tolist()), 1),
                     (*stat(g["size_gb"].tolist()), 1)])
    return [own_table(f"{exp.key}.bulk", f"{exp.title} — insert rate and bytes per document",
                   "journal: the engine's log/WAL knob, compression: its block compressor (— when the "
                   "engine has none); bytes per document = allocated bytes of the data directory "
                   "after the engine closed ÷ documents inserted (journal files included).",
                   ["engine", "journal", "compression", "n", "insert rate (docs/s)",
                    "bytes per document (B)", "size (GB)"], rows)]


def tables(exp, proc) -> tuple[list, str | None]:
    """Its own tables of one experiment (first in its list), and no note."""
    return bulk_tables(exp), None


def sentences(exp, proc, n: dict) -> list[str]:
    """Bytes on disk per document per engine configuration; adds the numbers quoted to ``n``."""
    pairs = mean_by(exp.runs, "bytes_per_document", exp.configs) if "bytes_per_document" in exp.runs else []
    return [f"Bytes on disk per document: {quote_list(n, f'{exp.key}.bytes_per_document', pairs, 1)}."] if pairs else []
