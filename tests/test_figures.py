"""Legible figures (issue 45, item 4), read from every rendered SVG of a build directory (the committed
paper/build, or ENGBENCH_PAPER_BUILD: a scratch `engbench report --out DIR` build's DIR/build):

- no text is truncated: Vega cuts a legend entry, an axis label or a header that exceeds its
  labelLimit and ends it with "…" (charts.wrap does the same to a word too long for a subtitle);
- no legend lists more than MAX_SERIES entries (a panel with more series is faceted or split);
- every engine has one hue in every figure: a legend entry that names an engine (or its role name)
  has the engine's colour (theme.COLORS) or one of its shades (theme.shade);
- the palette is Okabe and Ito's (colour-blind safe)."""

import os
import re
from pathlib import Path

import pytest

from engbench import paths

BUILD = Path(os.environ.get("ENGBENCH_PAPER_BUILD", paths.REPO / "paper" / "build"))
MAX_SERIES = 6
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000", "#999999"}


def svgs():
    found = sorted((BUILD / "figures").glob("*.svg"))
    if not found:
        pytest.fail(f"no figures under {BUILD}/figures: run `engbench report` (or set ENGBENCH_PAPER_BUILD)",
                    pytrace=False)
    return found


def texts(svg: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)]


def legends(svg: str) -> list[list[tuple[str, str]]]:
    """Each legend's entries: (label, the colour of its symbol)."""
    out = []
    for part in svg.split('class="mark-group role-legend"')[1:]:
        names = [texts(g)[0] if texts(g) else "" for g in
                 re.findall(r'role-legend-label"[^>]*>(.*?)</g>', part, re.S)]
        colours = []
        for g in re.findall(r'role-legend-symbol"[^>]*>(.*?)</g>', part, re.S):
            m = re.search(r'fill="(#[0-9a-fA-F]{6})"', g) or re.search(r'stroke="(#[0-9a-fA-F]{6})"', g)
            colours.append(m.group(1) if m else "")
        out.append(list(zip(names, colours + [""] * (len(names) - len(colours)))))
    return out


def test_no_truncated_text():
    bad = {f.name: [t for t in texts(f.read_text()) if t.rstrip().endswith("…")] for f in svgs()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


def test_at_most_six_series_per_legend():
    bad = {f.name: [len(lg) for lg in legends(f.read_text()) if len(lg) > MAX_SERIES] for f in svgs()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


def test_one_hue_per_engine_and_a_colour_blind_safe_palette():
    from engbench.report import roles, theme
    assert {c.upper() for c in theme.COLORS.values()} <= OKABE_ITO
    bad = []
    for f in svgs():
        for legend in legends(f.read_text()):
            for name, colour in legend:
                engine = roles.engine_of(name, theme.COLORS)
                if engine not in theme.COLORS or not colour:
                    continue
                base = theme.COLORS[engine]
                shades = {theme.shade(base, k, n).lower() for n in range(1, 8) for k in range(n)}
                if colour.lower() not in shades:
                    bad.append(f"{f.name}: {name!r} in {colour}, not {engine}'s {base}")
    assert not bad, bad[:20]
