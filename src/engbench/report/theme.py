"""The one look of every engbench chart: registered as the altair theme "engbench" (enabled when
engbench.report.charts is imported), plus a fixed color per engine so that an engine keeps its
color across every figure of the paper (B-tree engines blue, LSM engines orange/red, mmap green)."""

import altair as alt

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
FAMILY = {"wiredtiger": "B-tree", "sqlite": "B-tree", "innodb": "B-tree", "mariadb-innodb": "B-tree",
          "wiredtiger-lsm": "LSM", "rocksdb": "LSM", "myrocks": "LSM", "mariadb-myrocks": "LSM",
          "lmdb": "mmap B+tree", "mmapv1": "mmap", "null": "none"}
COLORS = {"wiredtiger": "#1f5fa8", "sqlite": "#6aaed6", "innodb": "#08306b",
          "mariadb-innodb": "#08306b", "wiredtiger-lsm": "#f28e2b", "rocksdb": "#c9392b",
          "myrocks": "#8c2d04", "mariadb-myrocks": "#8c2d04", "lmdb": "#2f9e44", "mmapv1": "#74c476",
          "null": "#999999"}
FALLBACK = ["#7b4fa3", "#b07aa1", "#9c755f", "#e15759", "#76b7b2", "#edc948", "#555555"]


@alt.theme.register("engbench", enable=True)
def engbench_theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "font": FONT,
            "background": "white",
            "view": {"continuousWidth": 360, "continuousHeight": 220, "stroke": "#bbbbbb"},
            "title": {"fontSize": 15, "subtitleFontSize": 11, "subtitleColor": "#555555",
                      "anchor": "start", "offset": 10},
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "gridColor": "#e6e6e6",
                     "titleFontWeight": "normal"},
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "orient": "right"},
            "header": {"labelFontSize": 12, "titleFontSize": 12},
            "line": {"strokeWidth": 2},
            "point": {"filled": True, "size": 60},
        }
    }


def engine_scale(labels) -> alt.Scale:
    """A color scale whose domain is the row labels (engine, or "engine (knob=…)") in order and
    whose colors are the engine's fixed color (the first label of an engine) or a fallback."""
    labels = list(dict.fromkeys(labels))
    used, rng, spare = set(), [], iter(FALLBACK * 4)
    for lab in labels:
        engine = lab.split(" (")[0]
        color = COLORS.get(engine)
        if color is None or color in used:
            color = next(spare)
        used.add(color)
        rng.append(color)
    return alt.Scale(domain=labels, range=rng)


def family(engine: str) -> str:
    return FAMILY.get(engine, "?")
