"""The paper's generated sentences per workload: each states a measured comparison with numbers
printed as their tables print them, and registers every number it quotes in numbers.json (so
`engbench verify` checks the text too). Nothing here is written by hand but the wording."""

from __future__ import annotations

import json

import pandas as pd

from .. import workloads as registry
from .tables import fmt
from .workload_tables import pct_change, with_config


def mean_by(frame, col, configs):
    """[(config, mean of ``col`` over its rows)] in the order of ``configs``, those with a number."""
    g = pd.to_numeric(frame[col], errors="coerce").groupby(frame["config"]).mean().dropna()
    return [(c, float(g[c])) for c in configs if c in g.index]


def quote_list(n, key, pairs, rule, unit=""):
    """"cfg value, cfg value" of ``pairs`` printed by ``rule`` (tables.fmt); each value goes into
    ``n`` as <key>.<cfg>."""
    parts = []
    for cfg, v in pairs:
        n[f"{key}.{cfg}"] = fmt(v, rule)
        parts.append(f"{cfg} {n[f'{key}.{cfg}']}{unit}")
    return ", ".join(parts)


def experiment_sentences(exp, proc, n: dict) -> list[str]:
    """Sentences for one experiment; adds the numbers quoted to ``n``."""
    k, out, parts = exp.key, [], registry.get(exp.workload).parts
    if "cache" in parts:
        cp = with_config(proc["cache_pollution"], exp)
        if len(cp):
            cp = cp.assign(drop=[pct_change(d, b) for d, b in zip(cp["gets_per_s_during"], cp["gets_per_s_before"])])
            out.append("Change of the hot read rate during the cold pass against before it (%): "
                       f"{quote_list(n, f'{k}.gets_during_vs_before_pct', mean_by(cp, 'drop', exp.configs), 2)}.")
            out.append("Full hot scan afterwards (ms): "
                       f"{quote_list(n, f'{k}.scan_hot_ms', mean_by(cp, 'scan_hot_ms', exp.configs), 1)}.")
    return out


def read_once_sentences(runs, cp, n: dict, tag: str = "") -> list[str]:
    """read_once true against false on the hot scan time, per engine and cold action, among
    ``runs`` (one machine and one set of run limits; ``tag`` goes into the numbers' keys)."""
    if cp is None or cp.empty:
        return []
    c = cp.merge(runs[["run_id", "engine"]], on="run_id")
    c["ro"] = c["read_once"].map(lambda v: json.loads(v) if isinstance(v, str) else bool(v))
    parts = []
    for (engine, action), g in c.groupby(["engine", "cold_action"], sort=True):
        if g["ro"].nunique() < 2:
            continue
        pct = pct_change(g.loc[g["ro"], "scan_hot_ms"].mean(), g.loc[~g["ro"], "scan_hot_ms"].mean())
        key = f"cache-pollution.read_once{tag}.{engine}.{action}.scan_hot_pct"
        n[key] = fmt(pct, 2)
        parts.append(f"{engine} (cold {action}) {n[key]}%")
    return [f"With read_once true instead of false, the hot scan time changed by: {', '.join(parts)}."] if parts else []
