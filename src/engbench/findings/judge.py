"""Judging one finding: its published values as printed, its configurations' regime gates and
minimum counts, then its rule on the measured samples (evaluate). The package's table() runs it
over every finding; history.verdicts runs it beside a rule's old form."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..rulebook import measure, regime, rules
from . import catalog


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


def gate_results(tables: dict, finding: catalog.Finding) -> list:
    """[(configuration label, regime.GateResult)] for every experiment × engine the finding compares."""
    seen, out = set(), []
    for p in finding.picks:
        if (p.experiment, p.engine) in seen:
            continue
        seen.add((p.experiment, p.engine))
        out += [(f"{p.engine} ({p.experiment})", r) for r in regime.check(tables, p.experiment, p.engine, catalog.GATES)]
    return out


def needs_results(tables: dict, finding: catalog.Finding) -> list:
    """[(pick label, regime.GateResult)] of the finding's minimum counts (Finding.needs)."""
    return [(pick.label, r) for pick, gate in finding.needs
            for r in regime.check(tables, pick.experiment, pick.engine, catalog.GATES, only=[gate])]


def evaluate(tables: dict, finding: catalog.Finding) -> dict:
    """The verdict of one finding: first its configurations' regime gates (a miss is
    rules.NOT_IN_REGIME with the measured figure), then its rule on the measured samples."""
    got = measure.samples(tables, list(finding.picks)) if finding.picks else {}
    shown = "; ".join(f"{k}: {rules.spread(xs)}" if xs else f"{k}: no run" for k, xs in got.items())
    gates = gate_results(tables, finding)
    missed = [(cfg, r) for cfg, r in gates if not r.passed and r.values]
    v = finding.rule(got)
    ruled = v  # the rule's own effect and interval, shown whatever the gates decide (rules.columns)
    short = [(label, r) for label, r in needs_results(tables, finding) if not r.passed]
    if short and v.verdict != rules.NOT_TESTABLE:
        v = rules.Verdict(rules.NOT_TESTABLE, "; ".join(f"{label}: {r.measured()}, needs {r.gate.bound()}"
                                                       for label, r in short))
    if missed and v.verdict != rules.NOT_TESTABLE:
        v = rules.Verdict(rules.NOT_IN_REGIME, "; ".join(f"{cfg}: {r.measured()}, gate {r.gate.bound()}"
                                                         for cfg, r in missed))
    return {"verdict": v.verdict, "why": v.why, **rules.columns(ruled), "measured": shown,
            "gate": "; ".join(sorted({r.gate.bound() for _, r in gates})),
            "regime": "; ".join(f"{cfg}: {r.measured()}" for cfg, r in gates)}
