"""The quantities cache-pollution's regime gates read (its findings.py's GATES), from its runs'
cache_pollution table (normalize.py's phase_row): the hot collection's fill of the cache before the
cold pass, the cold collection against the cache, the pass's duration, the hot pages it evicted
and the share of the hot collection's cached bytes it took out of the cache (what the source measured:
its "bytes currently in the cache" before and right after the build). engbench.rulebook.regime takes them into its quantities() through engbench.registry
(engbench.workloads.middle lists this module)."""

from __future__ import annotations

import math

from ...rulebook.quantity import Quantity


def _cp(column, scale=1.0):
    """A column of the run's cache_pollution row (normalize.phase_row: its phases and the regime of its
    cold pass)."""
    def f(t, run):
        cp = t.get("cache_pollution")
        if cp is None or column not in cp:
            return [math.nan]
        v = cp.loc[cp["run_id"] == run["run_id"], column]
        return [float(v.iloc[0]) * scale] if len(v) and v.iloc[0] == v.iloc[0] else [math.nan]
    return f


QUANTITIES = [
    Quantity("hot_fill_start", "× cache", "bytes of the hot collection in WiredTiger's cache right before the cold "
             "pass ÷ the cache (cache_pollution.hot_fill_start)", _cp("hot_fill_start")),
    Quantity("cold_per_cache", "× cache", "the cold collection's logical bytes ÷ the cache "
             "(cache_pollution.cold_logical_over_cache)", _cp("cold_logical_over_cache")),
    Quantity("cold_pass_s", "s", "the cold pass's duration (cache_pollution.cold_pass_ms / 1000)",
             _cp("cold_pass_ms", 1e-3)),
    Quantity("hot_evicted_fraction", "× hot pages", "hot pages evicted over the cold pass ÷ hot pages in the cache "
             "before it (cache_pollution.hot_evicted_fraction: a page evicted twice counts twice)",
             _cp("hot_evicted_fraction")),
    Quantity("hot_bytes_lost", "× hot bytes", "the share of the hot collection's bytes in the cache that the cold "
             "pass took out: 1 − hot bytes in the cache right after the pass ÷ right before it "
             "(cache_pollution.hot_bytes_lost_fraction; a page evicted and read back counts as kept)",
             _cp("hot_bytes_lost_fraction")),
]
