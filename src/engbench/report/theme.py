"""The one look of every engbench chart: registered as the altair theme "engbench" (enabled when
engbench.report.charts is imported), plus a fixed color per engine so that an engine keeps its
colour across every figure of the paper (B-tree engines blue, LSM engines orange/vermillion, mmap
green: Okabe and Ito's colour-blind-safe palette)."""

import altair as alt

from .roles import engine_of

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
FAMILY = {"wiredtiger": "B-tree", "sqlite": "B-tree", "innodb": "B-tree", "mariadb-innodb": "B-tree",
          "wiredtiger-lsm": "LSM", "rocksdb": "LSM", "myrocks": "LSM", "mariadb-myrocks": "LSM",
          "lmdb": "mmap B+tree", "mmapv1": "mmap", "null": "none"}
# Okabe and Ito's colour-blind-safe palette: one hue per engine, the same in every figure; B-trees
# blue, LSM engines orange/vermillion, mmap green, servers in the remaining hues
COLORS = {"wiredtiger": "#0072B2", "sqlite": "#56B4E9", "innodb": "#56B4E9", "mariadb-innodb": "#56B4E9",
          "wiredtiger-lsm": "#E69F00", "rocksdb": "#D55E00", "myrocks": "#CC79A7", "mariadb-myrocks": "#CC79A7",
          "lmdb": "#009E73", "mmapv1": "#009E73", "mongodb": "#F0E442", "null": "#999999"}
FALLBACK = ["#CC79A7", "#000000", "#999999", "#F0E442"]


def shade(color: str, k: int, n: int) -> str:
    """The k-th of n shades of one engine's colour (its configurations: several caches of one engine
    keep the engine's hue): k = 0 the colour itself, then darker and lighter in turn."""
    if n <= 1 or k == 0:
        return color
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    step = (k + 1) // 2 / ((n + 1) // 2 + 0.5)
    mix = (lambda c: c * (1 - step)) if k % 2 else (lambda c: c + (255 - c) * step)
    return "#" + "".join(f"{int(round(mix(c))):02x}" for c in (r, g, b))


@alt.theme.register("engbench", enable=True)
def engbench_theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "font": FONT,
            "background": "white",
            "view": {"continuousWidth": 360, "continuousHeight": 220, "stroke": "#bbbbbb"},
            "title": {"fontSize": 15, "subtitleFontSize": 11, "subtitleColor": "#555555",
                      "anchor": "start", "offset": 10},
            # labelLimit 0: no label is cut to "…" (Vega's default cuts legend entries at 160 px)
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "gridColor": "#e6e6e6",
                     "titleFontWeight": "normal", "labelLimit": 0},
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "orient": "right", "labelLimit": 0},
            "header": {"labelFontSize": 12, "titleFontSize": 12, "labelLimit": 0},
            "line": {"strokeWidth": 2},
            "point": {"filled": True, "size": 60},
        }
    }


def engine_scale(labels) -> alt.Scale:
    """A colour scale whose domain is the row labels (engine, its role name, or "engine (knob=…)")
    in order: every label of one engine in that engine's hue (shade: its first label the colour
    itself), an engine without a colour of its own a fallback hue."""
    labels = list(dict.fromkeys(labels))
    engines = [engine_of(lab) for lab in labels]
    spare, extra = iter(FALLBACK * 4), {}
    rng = []
    for lab, engine in zip(labels, engines):
        mine = [x for x, e in zip(labels, engines) if e == engine]
        base = COLORS.get(engine) or extra.setdefault(engine, next(spare))
        rng.append(shade(base, mine.index(lab), len(mine)))
    return alt.Scale(domain=labels, range=rng)


def family(engine: str) -> str:
    return FAMILY.get(engine, "?")
