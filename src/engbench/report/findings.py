"""The paper's Findings section: the findings table (engbench.findings) as printed, and one chart
per finding (each repetition a dot, the mean a tick, per compared configuration)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .. import findings as fnd
from .tables import Table

SUMMARY_HEADERS = ["claim", "source", "the document's words", "measured here", "verdict"]


def summary_table(frame: pd.DataFrame) -> Table:
    """One row per claim: id, source document, its words, what was measured, the verdict."""
    printed = pd.DataFrame({"claim": frame["id"], "source": frame["source"].str[:3],
                            "the document's words": "“" + frame["words"] + "”",
                            "measured here": frame["metric"] + ", " + frame["subject"],
                            "verdict": frame["verdict"]}, columns=SUMMARY_HEADERS)
    return Table(name="findings", title="Findings: the source documents' claims, measured here",
                 caption="Each claim's rule, values and reason follow below; the verdicts are computed "
                         "from data/processed by engbench.findings (rules in its docstring).",
                 printed=printed.reset_index(drop=True), means=pd.DataFrame())


def chart(values: pd.DataFrame, finding, unit: str):
    """Dots: one per run (repetition); tick: the mean; one column per configuration compared."""
    data = values[values["id"] == finding.id]
    if data.empty:
        return None
    order = [p.label for p in finding.picks]
    x = alt.X("label:N", title=None, sort=order, axis=alt.Axis(labelAngle=-30, labelLimit=260))
    y = alt.Y("value:Q", title=unit or "value", scale=alt.Scale(zero=True))
    dots = alt.Chart(data).mark_point(filled=True, size=60, opacity=0.7).encode(
        x=x, y=y, tooltip=["label", "repetition", "run_id", "value"])
    means = alt.Chart(data).mark_tick(thickness=2, size=28, color="black").encode(x=x, y="mean(value):Q")
    return (dots + means).properties(width=max(160, 70 * len(order)), height=200,
                                     title=f"{finding.id}: {finding.metric}")


def build(proc: dict, fig_dir, save, png: bool) -> tuple[pd.DataFrame, list[dict], Table | None]:
    """(findings frame, one dict per finding for the template, the summary table or None when no
    finding could be tested: the reproduction runs are not among the processed runs)."""
    frame = fnd.table(proc)
    if not fnd.tested(frame):
        return frame, [], None
    values = fnd.values(proc)
    items = []
    for f, row in zip(fnd.claims.FINDINGS, frame.to_dict("records")):
        c = chart(values, f, f.chart_unit)
        fig = None
        if c is not None:
            save(c, fig_dir / f"finding.{f.id}", png=png)
            fig = f"figures/finding.{f.id}.svg"
        items.append({**row, "figure": fig})
    return frame, items, summary_table(frame)
