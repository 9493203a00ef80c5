"""The paper's generated sentences: each states a measured comparison with numbers printed as their
tables print them, and registers every number it quotes in numbers.json (so `engbench verify`
checks the text too). Nothing is written by hand but the wording. A workload's own sentences are
in its folder's report.py (listed by engbench.workloads.upper); these are the helpers they share."""

from __future__ import annotations

import pandas as pd

from .comparison_tables import fmt


def mean_by(frame, col, configs):
    """[(config, mean of ``col`` over its rows)] in the order of ``configs``, those with a number."""
    g = pd.to_numeric(frame[col], errors="coerce").groupby(frame["config"]).mean().dropna()
    return [(c, float(g[c])) for c in configs if c in g.index]


def quote_list(n, key, pairs, rule, unit=""):
    """"cfg value, cfg value" of ``pairs`` printed by ``rule`` (comparison_tables.fmt); each value goes into
    ``n`` as <key>.<cfg>."""
    parts = []
    for cfg, v in pairs:
        n[f"{key}.{cfg}"] = fmt(v, rule)
        parts.append(f"{cfg} {n[f'{key}.{cfg}']}{unit}")
    return ", ".join(parts)
