"""What the notebooks call to show things: charts as static images, a run's driver summary, and
the comparison charts of the notebooks.

`setup()` is the one call that makes every altair chart a notebook displays a PNG image drawn by
vl-convert in the kernel (the renderer "engbench-png": altair's PNG renderer, its image re-deflated
at the highest zlib level, about a quarter of vl-convert's bytes): no JavaScript and no network
(altair's default renderer fetches vega from a CDN, so a chart is blank offline and stripped on
GitHub), and the image is stored in the notebook's outputs, so a git host shows it. It also enables
the paper's look (the altair theme "engbench", engbench.report.theme: one fixed color per engine)
and prints warnings as "Category: message", without the path of the source file that raised them
(it differs per checkout, and would differ in a notebook's committed outputs)."""

from __future__ import annotations

import json
import struct
import warnings
import zlib
from pathlib import Path

PNG_SCALE = 1  # pixels per vega pixel
RENDERER = "engbench-png"


def _deflated(png: bytes) -> bytes:
    """The same PNG (same pixels, same filters, same chunks) with its image data compressed at zlib
    level 9 (vl-convert writes it fast and large)."""
    pos, chunks = 8, []
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunks.append((kind, png[pos + 8:pos + 8 + n]))
        pos += 12 + n
    data = zlib.compress(zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT")), 9)
    out, idat_done = [png[:8]], False
    for kind, body in chunks:
        if kind == b"IDAT":
            if idat_done:
                continue
            kind, body, idat_done = b"IDAT", data, True
        out.append(struct.pack(">I4s", len(body), kind) + body + struct.pack(">I", zlib.crc32(kind + body)))
    return b"".join(out)


def _png_renderer(spec: dict, **metadata):
    from altair.vegalite.v6.display import png_renderer

    bundle = png_renderer(spec, **metadata)
    data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
    return {**data, "image/png": _deflated(data["image/png"])}, meta


def _short_warning(message, category, filename, lineno, line=None) -> str:
    return f"{category.__name__}: {message}\n"


def setup() -> None:
    """Static charts (the "engbench-png" renderer, vl-convert), the engbench theme, and warnings
    without file paths."""
    import altair as alt

    # local: the report (altair) loads when a notebook shows something, not for `engbench notebooks --check`
    from ..report import theme  # noqa: F401  (registers and enables the "engbench" theme)
    alt.theme.enable("engbench")
    if RENDERER not in alt.renderers.names():
        alt.renderers.register(RENDERER, _png_renderer)
    alt.renderers.enable(RENDERER, scale_factor=PNG_SCALE)
    warnings.formatwarning = _short_warning


def summary(run_dir) -> dict:
    """The driver's summary of a run (<run_dir>/driver/summary.json: rates, latency percentiles,
    totals, workload-specific sections; docs/driver.md)."""
    return json.loads((Path(run_dir) / "driver" / "summary.json").read_text())


def _engines(frame, by: str) -> list[str]:
    return list(dict.fromkeys(str(v) for v in frame[by]))


def compare(frame, values, title: str, by: str = "engine"):
    """Bars per engine (the mean of its runs) with a tick per run, one panel per column of
    `values` (a name or a list of names), each on its own scale. `frame` has a row per run
    (experiments.run's table, or one made from the runs' summaries)."""
    import altair as alt
    import pandas as pd

    # local: the report (altair) loads when a notebook shows something, not for `engbench notebooks --check`
    from ..report.theme import engine_scale
    values = [values] if isinstance(values, str) else list(values)
    engines = _engines(frame, by)
    long = pd.DataFrame([{by: str(r[by]), "metric": v, "value": float(r[v])}
                         for r in frame.to_dict("records") for v in values if pd.notna(r.get(v))])
    x = alt.X(f"{by}:N", title=None, sort=engines, axis=alt.Axis(labelAngle=-30))
    base = alt.Chart().encode(x=x)
    bars = base.mark_bar().encode(y=alt.Y("mean(value):Q", title=None),
                                  color=alt.Color(f"{by}:N", scale=engine_scale(engines), sort=engines,
                                                  legend=None))
    ticks = base.mark_tick(color="black", thickness=1.5).encode(y="value:Q")
    subtitle = f"{len(frame)} run{'s' if len(frame) != 1 else ''}; bar: mean of an engine's runs, tick: one run"
    return alt.layer(bars, ticks, data=long).properties(width=max(60, 45 * len(engines)), height=170).facet(
        column=alt.Column("metric:N", title=None, sort=values),
        title=alt.Title(title, subtitle=subtitle)).resolve_scale(y="independent")


def sweep(frame, x: str, y: str, title: str, by: str = "engine", x_title: str | None = None,
          y_title: str | None = None):
    """A line per engine through the mean of its runs at each value of `x` (numbers in order,
    anything else in the order it first appears), a point per run."""
    import altair as alt
    import pandas as pd

    # local: the report (altair) loads when a notebook shows something, not for `engbench notebooks --check`
    from ..report.theme import engine_scale
    engines = _engines(frame, by)
    data = frame[[by, x, y]].dropna().assign(**{by: lambda f: f[by].astype(str)})
    numeric = pd.api.types.is_numeric_dtype(data[x])
    order = sorted(data[x].unique()) if numeric else list(dict.fromkeys(data[x]))
    data[x] = data[x].astype(str)
    xe = alt.X(f"{x}:O", title=x_title or x, sort=[str(v) for v in order], axis=alt.Axis(labelAngle=0))
    color = alt.Color(f"{by}:N", scale=engine_scale(engines), sort=engines, title=by)
    base = alt.Chart(data).encode(x=xe, color=color)
    line = base.mark_line().encode(y=alt.Y(f"mean({y}):Q", title=y_title or y))
    points = base.mark_point(opacity=0.6).encode(y=f"{y}:Q")
    return alt.layer(line, points).properties(
        width=max(200, 70 * len(order)), height=200,
        title=alt.Title(title, subtitle=f"{len(frame)} rows; line: mean of the runs, point: one run"))


def by_experiment(runs):
    """The runs table with `experiment` set to the title of the comparison each run belongs to and
    `engine` to its configuration label (engbench.report.data.comparisons: one workload, one
    parameter set, one machine, one set of run limits; never one mean across them), in the
    paper's order; titled without the driver's defaults (report.rum_tradeoffs.no_defaults), so the same
    with and without the compiled driver."""
    import pandas as pd

    # local: the report (altair) loads when a notebook shows something, not for `engbench notebooks --check`
    from ..report import data
    from ..report.data import ENGINE_ORDER
    from ..report.rum_tradeoffs import no_defaults
    parts = [e.runs.assign(experiment=e.title, engine=e.runs["config"])
             for e in data.comparisons(runs, engine_order=ENGINE_ORDER, defaults_of=no_defaults)]
    return pd.concat(parts, ignore_index=True) if parts else runs.iloc[0:0]


def overview(frame, values, title: str, row: str = "experiment", by: str = "engine", log: bool = True,
             labels: dict | None = None, rule: float | None = None):
    """Many experiments in one image: a row per `row` value, one panel per column of `values`, a dot
    per engine at the mean of its rows (symmetric log scale by default: amplifications and costs
    span orders of magnitude, and 0 stays drawable); `rule` draws a dashed line at that value."""
    import altair as alt
    import pandas as pd

    # local: the report (altair) loads when a notebook shows something, not for `engbench notebooks --check`
    from ..report.theme import engine_scale
    values = [values] if isinstance(values, str) else list(values)
    labels = labels or {}
    engines = sorted(dict.fromkeys(str(v) for v in frame[by]), key=lambda e: (e.split(" (")[0], e))
    rows = list(dict.fromkeys(str(v) for v in frame[row]))
    long = pd.DataFrame([{row: str(r[row]), by: str(r[by]), "metric": labels.get(v, v), "value": float(r[v])}
                         for r in frame.to_dict("records") for v in values if pd.notna(r.get(v))])
    scale = alt.Scale(type="symlog") if log else alt.Scale(zero=True)
    layers = [alt.Chart().mark_point(filled=True, size=70, opacity=0.85).encode(
        x=alt.X("mean(value):Q", title=None, scale=scale),
        y=alt.Y(f"{row}:N", title=None, sort=rows, axis=alt.Axis(labelLimit=640)),
        color=alt.Color(f"{by}:N", scale=engine_scale(engines), sort=engines, title=by,
                        legend=alt.Legend(labelLimit=360)),
        tooltip=[f"{row}:N", f"{by}:N", "metric:N", alt.Tooltip("mean(value):Q", format=".3g")])]
    if rule is not None:
        layers.insert(0, alt.Chart().mark_rule(strokeDash=[4, 3], color="#444").encode(x=alt.datum(rule)))
    return alt.layer(*layers, data=long).properties(width=170, height=alt.Step(16)).facet(
        column=alt.Column("metric:N", title=None, sort=[labels.get(v, v) for v in values]),
        title=alt.Title(title, subtitle=f"{len(rows)} {row}s; a dot per {by}: the mean of its runs"),
    ).resolve_scale(x="independent")


def counts(frame, by: str, color: str, title: str, colors: dict | None = None):
    """Horizontal stacked bars: how many rows of `frame` each value of `by` has, split by `color`
    (`colors`: value → color for the values it names, the others grey)."""
    import altair as alt

    n = frame.groupby([by, color]).size().rename("rows").reset_index()
    order = list(dict.fromkeys(frame[by]))
    kinds = sorted(n[color].unique())
    scale = alt.Scale(domain=kinds, range=[(colors or {}).get(k, "#bbbbbb") for k in kinds]) if colors else alt.Undefined
    return alt.Chart(n).mark_bar().encode(
        y=alt.Y(f"{by}:N", title=None, sort=order, axis=alt.Axis(labelLimit=360)),
        x=alt.X("rows:Q", title="rows"),
        color=alt.Color(f"{color}:N", title=color, sort=kinds, scale=scale),
        tooltip=[f"{by}:N", f"{color}:N", "rows:Q"],
    ).properties(width=320, height=alt.Step(16), title=alt.Title(title, subtitle=f"{len(frame)} rows"))
