"""Judging one finding: its published values as printed, its configurations' regime gates and
minimum counts, then its rule on the measured samples (evaluate). The package's table() runs it
over every finding; history.verdicts runs it beside a rule's old form."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..rulebook import measure, regime, rules
from . import catalog, fairness


def published_text(published_dir: Path, spec: tuple) -> str:
    """The published values a claim rests on, "label: value; …", from data/published/<csv>
    (rows matching the filter), or "" when the document printed none (a claim about a graph)."""
    if not spec:
        return ""
    name, where, column, label = spec
    path = Path(published_dir) / name
    if column is None or not path.is_file():
        return ""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for k, v in where.items():
        frame = frame[frame[k] == v]
    return "; ".join(f"{lab}: {val}" for lab, val in zip(frame[label], frame[column]))


def gates_of(finding: catalog.Finding, experiment: str, engine: str, gates: dict) -> list:
    """The gates that judge one configuration of a finding: its experiment's (regime.gates_for), kept to
    the quantities the finding names (Finding.regime) with the finding's own gates added."""
    every = regime.gates_for(gates, experiment, engine)
    if finding.regime is None:
        return every
    names = {g for g in finding.regime if isinstance(g, str)}   # "*": every gate of the experiment
    own = [g for g in finding.regime if isinstance(g, regime.Gate) and regime.applies(g, engine)]
    return [g for g in every if "*" in names or g.quantity in names] + own


def gate_results(tables: dict, finding: catalog.Finding, gates: dict | None = None) -> list:
    """[(configuration label, regime.GateResult)] for every experiment × engine the finding compares."""
    gates = catalog.GATES if gates is None else gates
    seen, out = set(), []
    for p in finding.picks:
        if (p.experiment, p.engine) in seen:
            continue
        seen.add((p.experiment, p.engine))
        out += [(f"{p.engine} ({p.experiment})", r) for r in
                regime.check(tables, p.experiment, p.engine, gates, only=gates_of(finding, p.experiment, p.engine, gates))]
    return out


def needs_results(tables: dict, finding: catalog.Finding) -> list:
    """[(pick label, regime.GateResult)] of the finding's minimum counts (Finding.needs)."""
    return [(pick.label, r) for pick, gate in finding.needs
            for r in regime.check(tables, pick.experiment, pick.engine, catalog.GATES, only=[gate])]


def _left_out(finding: catalog.Finding, missed: list) -> list:
    """The labels of the picks whose configuration missed a gate."""
    cfgs = {cfg for cfg, _ in missed}
    return [p.label for p in finding.picks if f"{p.engine} ({p.experiment})" in cfgs]


def evaluate(tables: dict, finding: catalog.Finding, gates: dict | None = None, rule=None) -> dict:
    """The verdict of one finding (`rule`: another form of its rule, history.py's old one; `gates`:
    other gates than catalog.GATES, likewise):

    1. its rule on the measured samples (rules.py);
    2. a configuration below a minimum count (Finding.needs): not testable, with the figure;
    3. configurations outside a gate of their regime are left out: the verdict is the one the
       configurations inside their gates decide whatever the left-out ones measure
       (fairness.decided_without), with the left-out ones and their figures named; if the left-out
       ones decide it, rules.NOT_IN_REGIME with the figures;
    4. engines compared with unequal caching memory (fairness.caching_memory): refused, not testable,
       with each engine's figure."""
    rule = finding.rule if rule is None else rule
    got = measure.samples(tables, list(finding.picks)) if finding.picks else {}
    shown = "; ".join(f"{k}: {rules.spread(xs)}" if xs else f"{k}: no run" for k, xs in got.items())
    gates = gate_results(tables, finding, gates)
    missed = [(cfg, r) for cfg, r in gates if not r.passed and r.values]
    v = rule(got)
    ruled = v  # the rule's own effect and interval, shown whatever the gates decide (rules.columns)
    short = [(label, r) for label, r in needs_results(tables, finding) if not r.passed]
    if short and v.verdict not in (rules.NOT_TESTABLE, rules.NOT_TESTED):
        v = rules.Verdict(rules.NOT_TESTABLE, "; ".join(f"{label}: {r.measured()}, needs {r.gate.bound()}"
                                                       for label, r in short))
    if missed and v.verdict not in (rules.NOT_TESTABLE, rules.NOT_TESTED):
        figures = "; ".join(f"{cfg}: {r.measured()}, gate {r.gate.bound()}" for cfg, r in missed)
        decided = fairness.decided_without(rule, got, _left_out(finding, missed))
        if decided is None:
            v = rules.Verdict(rules.NOT_IN_REGIME, figures)
        else:
            v = rules.Verdict(decided.verdict, f"{v.why} — decided by the configurations inside their gates, "
                              f"whatever the ones left out measure (left out: {figures})")
    unequal = fairness.caching_memory(tables, finding)
    if unequal:
        v = rules.Verdict(rules.NOT_TESTABLE, f"refused: the engines compared got unequal caching memory "
                          f"({fairness.memory_text(unequal)}); {v.verdict} on these runs: {v.why}")
    return {"verdict": v.verdict, "why": v.why, **rules.columns(ruled), "measured": shown,
            "gate": "; ".join(sorted({r.gate.bound() for _, r in gates})),
            "regime": "; ".join(f"{cfg}: {r.measured()}" for cfg, r in gates)}
