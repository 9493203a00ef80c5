"""The paper's Findings section: the findings table (engbench.findings) as printed, and one chart
per finding (each repetition a dot, the mean a tick, per compared configuration)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .. import findings as fnd
from .. import paths
from ..rulebook import regime, rules
from .comparison_tables import Table

SUMMARY_HEADERS = ["claim", "source", "the document's words", "measured here", "in the source's regime",
                   "effect [interval]", "needs", "verdict"]
HISTORY_HEADERS = ["claim", "version", "changed", "runs then", "why", "old rule", "verdict under the old rule",
                   "verdict now"]


def regime_cell(row) -> str:
    """"yes" when every gate of every compared configuration passed, else the first miss."""
    if row["verdict"] == rules.NOT_IN_REGIME:
        return "no: " + str(row["why"]).split("; ")[0]
    return "yes" if row.get("gate") else "—"


def _num(x: float) -> str:
    """3 significant digits, "inf" / "-inf" as ∞ / −∞."""
    if x != x:
        return ""
    if x in (float("inf"), float("-inf")):
        return "∞" if x > 0 else "−∞"
    return f"{x:.3g}"


def effect_cell(row) -> str:
    """"2.18 [1.22, 3.26] 95 %, n=3": the effect the rule compares, its interval, the interval's level
    and the repetitions per side, and for a verdict "inconclusive here" the repetitions that would
    decide it ("; n=4 would decide"); "—" where the rule compared nothing (not testable)."""
    if row.get("effect") != row.get("effect") or row.get("effect") is None:
        return "—"
    needed = row.get("rounds_needed")
    return (f"{_num(row['effect'])} [{_num(row['low'])}, {_num(row['high'])}] {row['level'] * 100:.0f} %, "
            f"n={int(row['rounds'])}" + (f"; n={int(needed)} would decide" if needed == needed and needed else ""))


def summary_table(frame: pd.DataFrame) -> Table:
    """One row per claim: id, source document, its words, what was measured, whether its runs were in
    the source's regime, the effect with its interval, the threshold, the verdict."""
    records = frame.to_dict("records")
    printed = pd.DataFrame({"claim": frame["id"], "source": frame["source"].str[:3],
                            "the document's words": "“" + frame["words"] + "”",
                            "measured here": frame["metric"] + ", " + frame["subject"],
                            "in the source's regime": [regime_cell(r) for r in records],
                            "effect [interval]": [effect_cell(r) for r in records],
                            "needs": frame["threshold"].fillna("").replace("", "—"),
                            "verdict": frame["verdict"]}, columns=SUMMARY_HEADERS)
    return Table(name="findings", title="Findings: the source documents' claims, measured here",
                 caption="Each claim's gates, values, rule and reason follow below; the verdicts are computed "
                         "from data/processed by engbench.findings: first the regime gates of every compared "
                         "configuration (a miss: \"not in the source's regime\"), then the rule on the effect "
                         "it compares (a ratio of means, or a mean over its target) and its interval "
                         "(engbench.effects: Fieller's; 95 % for a directional claim, 90 % for \"flat\", "
                         "\"about\", \"does not increase\": two one-sided tests at 5 %): the whole interval "
                         "beyond the threshold (\"needs\") holds, wholly short of it does not hold, else "
                         "\"inconclusive here\", with the repetitions that would decide it (\"n=… would decide\").",
                 printed=printed.reset_index(drop=True), means=pd.DataFrame())


def history_table(hist: pd.DataFrame, methods: pd.DataFrame | None = None) -> Table | None:
    """Every rule changed after runs existed: old and new, why, and the verdict under each; then each
    change of the decision method under every rule (history.METHOD_CHANGES), one row per claim whose
    verdict it changed (the caption counts the claims it judged again)."""
    methods = pd.DataFrame() if methods is None else methods
    moved = methods[methods["old_verdict"] != methods["new_verdict"]] if len(methods) else methods
    if hist.empty and moved.empty:
        return None
    printed = pd.DataFrame({"claim": hist["id"], "version": hist["version"].astype(str),
                            "changed": hist["changed"] + " (" + hist["commit"] + ")", "runs then": hist["runs_then"],
                            "why": hist["why"], "old rule": hist["old_rule"],
                            "verdict under the old rule": hist["old_verdict"], "verdict now": hist["new_verdict"]},
                           columns=HISTORY_HEADERS)
    if len(moved):
        change = {(c.old, c.new): c for c in fnd.history.METHOD_CHANGES}
        rows = []
        for r in moved.to_dict("records"):
            c = change[(r["old_method"], r["new_method"])]
            rows.append({"claim": r["id"], "version": f"method {c.new}", "changed": f"{c.changed} ({c.commit})",
                         "runs then": c.runs_then, "why": c.why, "old rule": f"decided by {c.old_text}",
                         "verdict under the old rule": r["old_verdict"], "verdict now": r["new_verdict"]})
        printed = pd.concat([printed, pd.DataFrame(rows, columns=HISTORY_HEADERS)], ignore_index=True)
    judged = methods["id"].nunique() if len(methods) else 0
    return Table(name="findings.history", title="Rules changed after runs existed",
                 caption="engbench.findings.history: each rule changed after runs it judges existed, with the "
                         "verdict the old rule gives on the same runs (the rules are locked: "
                         "findings/rules.lock.json)."
                         + (f" Rows \"method …\": the decision method under every rule changed; all {judged} claims "
                            f"were judged under both, and the {len(moved)} whose verdict it changed are listed."
                            if judged else ""),
                 printed=printed.reset_index(drop=True), means=pd.DataFrame())


def chart(values: pd.DataFrame, finding, unit: str):
    """Dots: one per run (repetition); tick: the mean; one column per configuration compared."""
    data = values[values["id"] == finding.id]
    if data.empty:
        return None
    order = [p.label for p in finding.picks]
    x = alt.X("label:N", title=None, sort=order, axis=alt.Axis(labelAngle=-30, labelLimit=0))
    y = alt.Y("value:Q", title=unit or "value", scale=alt.Scale(zero=True))
    dots = alt.Chart(data).mark_point(filled=True, size=60, opacity=0.7).encode(
        x=x, y=y, tooltip=["label", "repetition", "run_id", "value"])
    means = alt.Chart(data).mark_tick(thickness=2, size=28, color="black").encode(x=x, y="mean(value):Q")
    return (dots + means).properties(width=max(160, 70 * len(order)), height=200,
                                     title=f"{finding.id}: {finding.metric}")


def inventory_table(inv: pd.DataFrame, counts: dict) -> Table | None:
    """Per source document: the measurable claims it makes, how many are tested here, how many not
    and why not (findings.inventory)."""
    if inv.empty:
        return None
    rows = []
    for doc in sorted({k.split(".")[0] for k in counts if "." in k}):
        rows.append({"source": doc, "claims": str(counts[f"{doc}.claims"]),
                     **{s: str(counts[f"{doc}.{s}"]) for s in fnd.inventory.STATUSES}})
    rows.append({"source": "all", "claims": str(counts["claims"]), **{s: str(counts[s]) for s in fnd.inventory.STATUSES}})
    return Table(name="findings.inventory", title="Every measurable claim of the source documents",
                 caption="data/published/claims_inventory.csv: one row per sentence that asserts a measurable "
                         "engine behaviour, quoted; tested (by the findings), not tested here (the reproduction "
                         "runs no experiment for it; the file says which it would need) or not testable here "
                         "(no such engine and no stand-in, another machine; the file says why).",
                 printed=pd.DataFrame(rows, columns=["source", "claims", *fnd.inventory.STATUSES]), means=pd.DataFrame())


def _write(table: Table, tables_dir) -> None:
    for ext, body in (("md", table.markdown()), ("html", table.html()), ("csv", table.csv())):
        (tables_dir / f"{table.name}.{ext}").write_text(body)


def _rho(x: float) -> str:
    """A rank correlation as the paper prints it ("n/a" when too few runs gave one)."""
    return "n/a" if x != x else f"{x:.2f}"


def build(proc: dict, build_dir, save, png: bool, published_dir=None) -> tuple:
    """(findings frame, one dict per finding for the template, the tables it wrote (summary, rule
    history, inventory), the numbers the text quotes). Nothing but the inventory when no finding
    could be tested (the reproduction runs are not among the processed runs)."""
    pub = published_dir or paths.REPO / "data" / "published"
    frame = fnd.table(proc, pub)
    inv = fnd.inventory.load(pub)
    counts = fnd.inventory.counts(inv)
    if not fnd.tested(frame):
        return frame, [], [], {}
    nums = {f"claims.{k.replace(' ', '_')}": str(counts[k]) for k in ("claims", *fnd.inventory.STATUSES)}
    values = fnd.values(proc)
    items = []
    for f, row in zip(fnd.catalog.FINDINGS, frame.to_dict("records")):
        c = chart(values, f, f.chart_unit)
        fig = None
        if c is not None:
            save(c, build_dir / "figures" / f"finding.{f.id}", png=png)
            fig = f"figures/finding.{f.id}.svg"
        items.append({**row, "figure": fig})
    tabs = [t for t in (summary_table(frame), history_table(fnd.history.verdicts(proc, fnd.catalog.FINDINGS),
                                                            fnd.history.method_verdicts(proc, fnd.catalog.FINDINGS)),
                        inventory_table(inv, counts)) if t is not None]
    for t in tabs:
        _write(t, build_dir / "tables")
    verdicts = frame["verdict"].value_counts()
    nums.update({"findings.claims": str(len(frame))} |
                {f"findings.{v.replace(' ', '_').replace(chr(39), '')}": str(int(verdicts.get(v, 0)))
                 for v in (rules.HOLDS, rules.FAILS, rules.INCONCLUSIVE, rules.NOT_TESTED, rules.NOT_TESTABLE,
                           rules.NOT_IN_REGIME)})
    rs = regime.reproduction_summary(proc["runs"])
    if rs:
        nums.update({"repro.runs": str(rs["runs"]), "repro.other_cpu_median": f"{rs['other_cpu_median']:.1f}",
                     "repro.other_cpu_max": f"{rs['other_cpu_max']:.1f}", "repro.busy_runs": str(rs["busy_runs"]),
                     "repro.quiet_bound": f"{regime.QUIET.hi:g}", "repro.configurations": str(rs["configurations"]),
                     "repro.within_spread": str(rs["within"]), "repro.spread_bound": f"{regime.SPREAD * 100:g}",
                     "repro.worst_spread": f"{rs['worst'] * 100:.0f}", "repro.worst_configuration": rs["worst_configuration"]})
        if rs["speed_runs"]:  # the machine-speed probe before each run (run.speed), in runs that have it
            nums.update({"repro.speed_runs": str(rs["speed_runs"]),
                         **{f"repro.speed_cpu_{k}": f"{rs[f'speed_cpu_{k}']:,.0f}" for k in ("min", "median", "max")},
                         **{f"repro.speed_iops_{k}": f"{rs[f'speed_iops_{k}']:,.0f}" for k in ("min", "median", "max")},
                         "repro.speed_q_rho": _rho(rs["speed_q_rho"])})
        if rs["steal_median"] == rs["steal_median"]:  # steal_pct: tables made before it have none
            nums.update({"repro.steal_median": f"{rs['steal_median']:.1f}", "repro.steal_max": f"{rs['steal_max']:.1f}",
                         "repro.steal_q_rho": _rho(rs["steal_q_rho"])})
    return frame, items, tabs, nums
