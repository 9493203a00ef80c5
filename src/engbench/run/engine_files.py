"""The engine's own records of a run, kept in the run directory before its data directory is
removed (runs.recording, before the seal): what the engine says it was configured with and did,
in its own words, for a reviewer who reads RocksDB's files rather than the manifest's knobs.

    engine/<file>   RocksDB: every OPTIONS-<number> (the options files RocksDB writes on open and on
                    SetOptions; it keeps the latest two), LOG (the info log: options at open, flushes,
                    compactions, stall and statistics dumps) and LOG.old.* (earlier opens' logs, e.g.
                    before run.reopen_after_load) — copied as they are when the engine has closed.

Other engines keep nothing here (their settings are the manifest's knobs). A server target's
files are not in the run's data directory (its server/ holds what it keeps)."""

from __future__ import annotations

import shutil
from pathlib import Path

DIR = "engine"
KEEP = {"rocksdb": ("OPTIONS-*", "LOG", "LOG.old.*")}


def keep(engine: str, data_dir, run_dir) -> list[Path]:
    """Copy the engine's KEEP files from `data_dir` into <run_dir>/engine/; the copies, sorted
    ([] for an engine with nothing to keep, or a data directory that is gone)."""
    data_dir = Path(data_dir)
    found = sorted({p for pattern in KEEP.get(engine, ()) for p in data_dir.glob(pattern) if p.is_file()})
    if not found:
        return []
    out = Path(run_dir) / DIR
    out.mkdir(exist_ok=True)
    return [Path(shutil.copy2(p, out / p.name)) for p in found]
