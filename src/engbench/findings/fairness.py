"""Two checks that a finding's verdict compares like with like, beside its regime gates (judge.py):

    caching_memory(tables, finding) -> [(experiment, {engine: bytes})]
        the experiments in which the finding compares engines that were given unequal memory for
        caching. The rule (docs/experiments.md "Equal memory for caching"; docs/findings.md): engines compared by one
        claim get the same caching memory — WiredTiger's cache against RocksDB's block cache plus its
        memtables — so a verdict on unequal memory is refused ("not testable") with the figures. Each
        run's figure is engbench.run.experiments.caching_memory of the knobs and parameters the runs
        table recorded (knob.*, param.*, workload), or its engine_cache_bytes where those are not
        recorded. An engine without a cache of its own (LMDB: its cache is the kernel's page cache,
        under the same memory cap) is left out of the comparison of caches.

    decided_without(rule, samples, left_out) -> rules.Verdict | None
        the verdict the configurations inside their gates decide on their own: the rule's verdict
        when it is the same whatever the left-out configurations measure, tried with each of them
        replaced by a value far below, far above, and equal to each measured configuration's
        (None when those substitutes change the verdict: the left-out ones decide it)."""

from __future__ import annotations

import itertools
import math

from ..rulebook import measure, rules
from ..run import experiments

MAX_TRIES = 4096


def caching_memory(tables: dict, finding) -> list:
    """[(experiment, {engine: caching bytes})] where engines compared within one experiment got
    different engine_cache_bytes (their ok runs' values; several values of one engine count as unequal
    too)."""
    by_exp: dict = {}
    for p in finding.picks:
        by_exp.setdefault(p.experiment, set()).add(p.engine)
    out = []
    for exp, engines in by_exp.items():
        if len(engines) < 2:
            continue
        got = {}
        for e in sorted(engines):
            runs = measure.runs_of(tables["runs"], exp, e)
            vals = {v for v in (run_caching_memory(run) for _, run in runs.iterrows()) if v == v}
            if vals and max(vals) > 0:
                got[e] = vals
        if len(got) >= 2 and len({v for vs in got.values() for v in vs}) > 1:
            out.append((exp, {e: sorted(vs) for e, vs in got.items()}))
    return out


def run_caching_memory(run) -> float:
    """One run's memory for caching (module docstring), NaN when it has none that is known."""
    knobs = {k[len("knob."):]: v for k, v in run.items() if k.startswith("knob.") and v == v and v is not None}
    params = {k[len("param."):]: v for k, v in run.items() if k.startswith("param.") and v == v and v is not None}
    if knobs and run.get("workload"):
        try:
            got = experiments.caching_memory(str(run["engine"]), knobs, str(run["workload"]), params)
            return float(got) if got is not None else math.nan
        except ValueError:   # a workload whose column families are not known: the driver's own figure
            pass
    v = run.get("engine_cache_bytes")
    return float(v) if v is not None and v == v else math.nan


def memory_text(unequal: list) -> str:
    def mib(vs):
        return "/".join(f"{v / 2**20:g}" for v in vs) + " MiB"
    return "; ".join(f"{exp}: " + ", ".join(f"{e} {mib(vs)}" for e, vs in got.items()) for exp, got in unequal)


def _jitter(x: float, n: int) -> list:
    return [x * (1 + 1e-3 * (i - (n - 1) / 2)) for i in range(n)]


def decided_without(rule, samples: dict, left_out: list):
    """The rule's verdict when no substitute for the `left_out` labels changes it (module docstring);
    None when one does, when nothing is left to decide it, or the rule is not testable on them."""
    kept = {k: v for k, v in samples.items() if k not in left_out and v}
    if not left_out or not kept:
        return None
    scale = max((abs(x) for v in kept.values() for x in v), default=1.0) or 1.0
    n = max([rules.MIN_REPEATS, *(len(v) for v in kept.values())])
    cands = [_jitter(scale * 1e-9, n), _jitter(scale * 1e9, n)] + [list(v) for v in list(kept.values())[:4]]
    combos = itertools.product(cands, repeat=len(left_out))
    seen = set()
    for i, combo in enumerate(combos):
        if i >= MAX_TRIES:
            return None
        v = rule({**samples, **dict(zip(left_out, combo))})
        seen.add(v.verdict)
        if len(seen) > 1 or v.verdict not in (rules.HOLDS, rules.FAILS):
            return None
    return rules.Verdict(seen.pop(), "") if seen else None


__all__ = ["caching_memory", "memory_text", "decided_without", "math"]
