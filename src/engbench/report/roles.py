"""Configurations named by their role in the comparison, not by their raw knobs:
"WT B-tree, small cache (16 MiB = 0.29× index), direct IO" instead of
"wiredtiger (cache_size=16777216 direct_io=true)". The raw knobs stay in the supplement's
configuration tables and in tables/runs.csv.

label(engine, runs, varying, keys): one name per distinct set of the varying knobs (keys: run index →
that set, canonical JSON). The name is ROLE[engine] and, per varying knob, a phrase:

  a cache size (CACHE_KNOBS)   "small/medium/large cache (X MiB = r× index)": the words by rank among
                               the configurations' sizes (two: small, large; three: small, medium,
                               large; more: the size alone), r = cache ÷ the configuration's median
                               runs.index_bytes (left out when the runs record no index bytes)
  direct IO (direct_io, direct_reads)            "direct IO" / "buffered IO"
  compression (block_compressor, compression)    its value, "none" as "uncompressed"
  the journal (log, wal)                         "journal on" / "journal off"
  read_once                                      "read_once on" / "read_once off"
  any other knob                                 "name=value"

Only the knobs that tell the configurations apart are named (_telling): one that follows from another
(RocksDB's compression_per_level from its compression) is left out.

Two sets of knobs that would get the same name (a knob phrased the same at two values cannot happen;
two cache sizes that round to one MiB can) get their raw knobs appended, so no two configurations
share a row."""

from __future__ import annotations

import json

import pandas as pd

ROLE = {"wiredtiger": "WT B-tree", "wiredtiger-lsm": "WT LSM", "rocksdb": "RocksDB LSM", "lmdb": "LMDB mmap",
        "sqlite": "SQLite B-tree", "mariadb-innodb": "InnoDB B-tree", "mariadb-myrocks": "MyRocks LSM",
        "mongodb": "MongoDB"}
CACHE_KNOBS = ("cache_size", "block_cache_size")
SIZE_WORDS = {2: ("small", "large"), 3: ("small", "medium", "large")}


def role(engine: str) -> str:
    """The engine's role name (ROLE), the engine itself when it has none."""
    return ROLE.get(engine, engine)


def engine_of(label: str, engines=()) -> str:
    """The engine a row label names: an engine of `engines` (or of ROLE) whose name or role name the
    label is or starts (the longest such), else the label up to " (" (engine (knob=…) labels)."""
    names = {**{e: e for e in engines}, **{role(e): e for e in list(ROLE) + list(engines)}}
    hits = [n for n in names if label == n or label.startswith(n + ",") or label.startswith(n + " (")]
    return names[max(hits, key=len)] if hits else label.split(" (")[0]


def _mib(x: float) -> str:
    return f"{x / 2**30:g} GiB" if x >= 2**30 else (f"{x / 2**20:.0f} MiB" if x >= 2**20 else f"{x / 2**10:.0f} KiB")


def _phrase(knob: str, value, rank_word: str | None, index_ratio: float | None) -> str:
    name = knob.split(".", 2)[-1]
    if name in CACHE_KNOBS and isinstance(value, (int, float)):
        size = _mib(float(value)) + (f" = {index_ratio:.2f}× index" if index_ratio is not None else "")
        return f"{rank_word} cache ({size})" if rank_word else f"cache {size}"
    if name in ("direct_io", "direct_reads") and isinstance(value, bool):
        return "direct IO" if value else "buffered IO"
    if name in ("block_compressor", "compression"):
        return "uncompressed" if value in ("none", None) else str(value)
    if name in ("log", "wal") and isinstance(value, bool):
        return "journal on" if value else "journal off"
    if name == "read_once" and isinstance(value, bool):
        return f"read_once {'on' if value else 'off'}"
    return f"{name}={value}"


KNOWN = CACHE_KNOBS + ("direct_io", "direct_reads", "block_compressor", "compression", "log", "wal", "read_once")


def _value(v):
    """A knob as the runs table gives it, booleans written as text read as booleans."""
    return {"true": True, "false": False}.get(v.lower(), v) if isinstance(v, str) else v


def _telling(varying: list, sets: dict) -> list:
    """The KNOWN varying knobs, and of the others those that tell the configurations apart further: one
    whose value follows from those already taken (RocksDB's compression_per_level from its compression)
    is left out."""
    order = sorted(range(len(varying)), key=lambda i: (varying[i].split(".", 2)[-1] not in KNOWN, i))
    taken = []
    for i in order:
        before = len({tuple(json.dumps(v[j]) for j in taken) for v in sets.values()})
        after = len({tuple(json.dumps(v[j]) for j in taken + [i]) for v in sets.values()})
        if after > before or varying[i].split(".", 2)[-1] in KNOWN:
            taken.append(i)
    return [varying[i] for i in sorted(taken)]


def label(engine: str, runs: pd.DataFrame, varying: list, keys: pd.Series) -> dict:
    """key → role name of each distinct set of varying knobs (module docstring)."""
    sets = {k: json.loads(k) for k in dict.fromkeys(keys)}
    ranks = {}
    for i, col in enumerate(varying):
        if col.split(".", 2)[-1] in CACHE_KNOBS:
            sizes = sorted({_value(v[i]) for v in sets.values() if isinstance(_value(v[i]), (int, float))})
            words = SIZE_WORDS.get(len(sizes))
            ranks[col] = {s: (words[j] if words else None) for j, s in enumerate(sizes)}
    shown = _telling(varying, sets)
    out = {}
    for k, values in sets.items():
        mine = runs.loc[keys[keys == k].index]
        idx = pd.to_numeric(mine.get("index_bytes", pd.Series(dtype=float)), errors="coerce").median()
        parts = []
        for col, v in zip(varying, values):
            if col not in shown:
                continue
            v = _value(v)
            ratio = (float(v) / idx) if col in ranks and isinstance(v, (int, float)) and idx == idx and idx > 0 else None
            parts.append(_phrase(col, v, ranks.get(col, {}).get(v), ratio))
        out[k] = ", ".join([role(engine)] + parts)
    seen = pd.Series(list(out.values()))
    for k in out:
        if (seen == out[k]).sum() > 1:
            out[k] += " (" + " ".join(f"{c.split('.', 2)[-1]}={v}" for c, v in zip(varying, sets[k])) + ")"
    return out
