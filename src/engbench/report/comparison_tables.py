"""Tables in the source documents' shapes — per insert, per 200k inserts, per transaction, p99
per operation — one per experiment, engines as rows; and the same relative to a baseline engine.

Rounding follows the published tables (data/published/*.csv): rates and Mcpu as integers,
KB per operation with 2 decimals, size with 1 and rss with 2 decimals, per-200k counts as integers
and per-200k reads / KB read with 2 decimals below 100 and 1 above, p99 in ms with 1 decimal below
1 ms and none above. One addition: a non-zero value that this would print as 0 is printed with 2
significant digits instead (small runs have MB-sized databases, which "0.0 GB" would hide).

Repeated runs of one configuration: the cell is "mean (min–max)" and the `n` column says how many
runs. Relative tables divide each configuration's mean by the baseline engine's mean (the source documents'
author's sum_met convention: 1 when both are 0, inf when only the baseline is 0, NA propagates)."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import pandas as pd

from .. import registry
from ..normalize import views
from ..registry import units

# printed header → (unit, decimals rule); the runs column comes from normalize.views
UNITS = {"ips": ("inserts/s", 0), "wKB/i": ("KB/insert", 2), "Mcpu/i": ("(us+sy)·1e6/ips", 0),
         "size": ("GB", 1), "rss": ("GB", 2), "vm.cs": ("cs/200k", 0),
         "vm.us+sy": ("(us+sy)·1e6/ips", 0), "io.kBw": ("KB/200k", 0), "io.kBr": ("KB/200k", "2|1"),
         "io.r": ("reads/200k", "2|1"),
         "device read amp": ("×", 2), "cgroup read amp": ("×", 2), "process read amp": ("×", 2),
         "device write amp": ("×", 2), "process write amp": ("×", 2), "space amp": ("×", 2)}
for _u in (units.TRANSACTION, units.REQUEST):  # tps (txn/s), r/t (reads/txn), ...; rps, r/req ...
    UNITS.update({_u.rate: (_u.rate_unit, 0), f"r/{_u.short}": (f"reads/{_u.per}", 2),
                  f"rKB/{_u.short}": (f"KB/{_u.per}", 2), f"wKB/{_u.short}": (f"KB/{_u.per}", 2),
                  f"Mcpu/{_u.short}": (f"(us+sy)·1e6/{_u.rate}", 0)})
# one column per counter (engbench.normalize.amplification): device = iostat, the whole disk;
# cgroup = the run's own cgroup (runs with run limits); process = the engine process's task I/O
RUM = [("device read amp", "read_amp_device"), ("cgroup read amp", "read_amp_cgroup"),
       ("process read amp", "read_amp_process"), ("device write amp", "write_amp_device"),
       ("process write amp", "write_amp_process"), ("space amp", "space_amp")]
RUM_NOTE = (" Amplification = bytes moved ÷ logical bytes, one column per counter: device = iostat's "
            "bytes over the measured window (the whole disk, every user of it); cgroup = the run's own "
            "cgroup's device bytes (runs with run limits only); process = the engine process's own task "
            "I/O (embedded engines); space = allocated bytes (du) ÷ logical bytes stored.")
# kind → (title, columns): the per-operation views of normalize.views, and RUM; which kinds a
# workload gets is its registry entry's `tables` (engbench.registry)
KINDS = {kind: (title, cols) for kind, (title, cols) in views.KINDS.items()}
KINDS["rum"] = ("RUM amplification", RUM)
# kind → the runs column whose notes its caption carries (per-operation tables: runs.warnings)
NOTES = {"rum": "amp_notes", "query": "warnings", "p99": ""}


def fmt(x, rule) -> str:
    """One number as the source documents print it (see the module docstring)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NA"
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if rule == "2|1":
        d = 2 if abs(x) < 100 else 1
    elif rule == "ms":
        d = 1 if abs(x) < 1 else 0
    else:
        d = int(rule)
    s = f"{x:.{d}f}"
    if x != 0 and float(s) == 0:
        s = f"{x:#.2g}"
        if "e" in s:
            s = f"{x:.{max(2, 1 - math.floor(math.log10(abs(x))))}f}"
    return "0" if s in ("-0", "-0.0", "-0.00") else s


def ratio(x, base) -> float:
    """x / base: 1 if both are 0, inf if only base is 0, NaN if either is NaN."""
    if x is None or base is None or x != x or base != base:
        return float("nan")
    if base == 0:
        return 1.0 if x == 0 else math.inf
    return float(x) / float(base)


@dataclass
class Table:
    name: str          # file stem: <experiment key>.<kind>[.rel]
    title: str
    caption: str
    printed: pd.DataFrame   # every cell as printed (strings), first column the row label
    means: pd.DataFrame     # config → numeric mean per printed header
    left: int = 1           # how many leading columns are text (left-aligned); the rest are numbers
    text: tuple = ()        # other columns (by position) that are text

    def markdown(self) -> str:
        cols = list(self.printed.columns)
        esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
        dashes = [self._width(i) for i in range(len(cols))]
        lines = ["| " + " | ".join(esc(c) for c in cols) + " |",
                 "|" + "|".join("-" * d + ("" if i < self.left or i in self.text else ":")
                                for i, d in enumerate(dashes)) + "|"]
        for row in self.printed.itertuples(index=False):
            lines.append("| " + " | ".join(esc(v) for v in row) + " |")
        return "\n".join(lines) + "\n"

    def _width(self, i: int) -> int:
        """The dashes under header i: pandoc sizes a wide table's columns by them, so a column gets room
        as its content needs (the 90th percentile of its cells' lengths, at least its header's longest
        word, 3 to 40)."""
        cells = self.printed.iloc[:, i].astype(str).str.len() if len(self.printed) else pd.Series([3])
        word = max((len(w) for w in str(self.printed.columns[i]).split()), default=3)
        return int(min(40, max(3, word, cells.quantile(0.9))))

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in self.printed.columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>\n"
                       for row in self.printed.itertuples(index=False))
        return (f'<table class="eb">\n<caption>{html.escape(self.title)}</caption>\n'
                f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n")

    def csv(self) -> str:
        return self.printed.to_csv(index=False, lineterminator="\n")


def _header(head, rule_unit=None) -> str:
    unit = rule_unit or UNITS[head][0]
    return f"{head} ({unit})"


def _stats(exp, cols):
    """config → {header: (n, mean, min, max)}; NaN values are left out of the statistics."""
    out = {}
    for cfg in exp.configs:
        g = exp.runs[exp.runs["config"] == cfg]
        out[cfg] = {}
        for head, col in cols:
            s = pd.to_numeric(g[col], errors="coerce") if col in g else pd.Series(dtype=float)
            v = s.dropna()
            out[cfg][head] = (len(g), float(v.mean()) if len(v) else float("nan"),
                              float(v.min()) if len(v) else float("nan"),
                              float(v.max()) if len(v) else float("nan"))
    return out


def cell(stat, rule) -> str:
    n, mean, lo, hi = stat
    if n > 1 and lo == lo and lo != hi:
        return f"{fmt(mean, rule)} ({fmt(lo, rule)}–{fmt(hi, rule)})"
    return fmt(mean, rule)


def build(exp, kind, title, cols, rules, units) -> Table:
    stats = _stats(exp, cols)
    rows, means = [], []
    for cfg in exp.configs:
        st = stats[cfg]
        n = next(iter(st.values()))[0] if st else 0
        rows.append([cfg, str(n)] + [cell(st[h], rules[h]) for h, _ in cols])
        means.append([cfg] + [st[h][1] for h, _ in cols])
    headers = ["engine", "n"] + [f"{h} ({units[h]})" for h, _ in cols]
    printed = pd.DataFrame(rows, columns=headers)
    mean_frame = pd.DataFrame(means, columns=["engine"] + [h for h, _ in cols]).set_index("engine")
    spread = any(int(r[1]) > 1 for r in rows)
    caption = (f"{len(exp.runs)} run(s); units in the headers."
               + (" Repeated runs: mean (min–max) of n runs." if spread else "")
               + (RUM_NOTE if kind == "rum" else "")
               + run_notes(exp, NOTES.get(kind, "warnings" if kind in views.KINDS else "")))
    return Table(f"{exp.key}.{kind}", f"{exp.title} — {title}", caption, printed, mean_frame)


def run_notes(exp, column: str) -> str:
    """The runs' notes in ``column`` (runs.warnings: the driver's warnings and capture gaps;
    runs.amp_notes: why an amplification is NA), per configuration, for a table's caption; ""
    when no run has any. Identical notes are said once: per configuration, or for all of them."""
    if not column or column not in exp.runs:
        return ""
    by_cfg = {}
    for cfg in exp.configs:
        notes = [str(v) for v in exp.runs.loc[exp.runs["config"] == cfg, column]
                 if isinstance(v, str) and v]
        if notes:
            by_cfg[cfg] = "; ".join(dict.fromkeys(notes))
    if not by_cfg:
        return ""
    head = "Warnings" if column == "warnings" else "NA"
    same = set(by_cfg.values())
    if len(by_cfg) == len(exp.configs) > 1 and len(same) == 1:
        return f" {head} — every configuration: {same.pop()}."
    return f" {head} — " + " | ".join(f"{cfg}: {n}" for cfg, n in by_cfg.items()) + "."


# beside space amplification: what the engine stores besides data and index (runs.log_bytes, meta_bytes:
# space_amp counts data + index only), in MiB, when the runs record it
BESIDE_SPACE = [("log", "log_bytes"), ("metadata", "meta_bytes")]
UNITS.update({"log": ("MiB", 1), "metadata": ("MiB", 1)})


def kind_table(exp, kind: str) -> Table:
    """One table of KINDS for one experiment (the paper's, and notebook.rum_summary's); the RUM table
    with the log and metadata bytes beside space amplification when the runs record them."""
    title, cols = KINDS[kind]
    if kind == "rum":
        extra = [(h, c) for h, c in BESIDE_SPACE if c in exp.runs and pd.to_numeric(exp.runs[c], errors="coerce").notna().any()]
        if extra:
            runs = exp.runs.assign(**{f"{c}.mib": pd.to_numeric(exp.runs[c], errors="coerce") / 2**20 for _, c in extra})
            exp = type(exp)(exp.key, exp.workload, exp.params, runs, exp.op_unit, exp.configs, exp.name)
            cols = cols + [(h, f"{c}.mib") for h, c in extra]
    return build(exp, kind, title, cols, {h: UNITS[h][1] for h, _ in cols}, {h: UNITS[h][0] for h, _ in cols})


def experiment_tables(exp, latency: pd.DataFrame) -> list[Table]:
    """The absolute tables of one experiment, in the documents' shapes that apply to it (its
    workload's registry entry: engbench.registry)."""
    out = [kind_table(exp, kind) for kind in registry.get(exp.workload).tables]
    lat = latency[latency["run_id"].isin(exp.run_ids)]
    if len(lat):
        wide = lat.pivot_table(index="run_id", columns="op", values="p99_us", aggfunc="first") / 1000
        ops = sorted(wide.columns)
        runs = exp.runs.merge(wide.add_prefix("p99.").reset_index(), on="run_id", how="left")
        sub = type(exp)(exp.key, exp.workload, exp.params, runs, exp.op_unit, exp.configs, exp.name)
        cols = [(f"p99 {op}", f"p99.{op}") for op in ops]
        out.append(build(sub, "p99", "p99 response time per operation", cols,
                          {h: "ms" for h, _ in cols}, {h: "ms" for h, _ in cols}))
    return out


def relative(table: Table, baseline: str) -> Table | None:
    """`table` as ratios to the row of `baseline` (an engine name or row label); None when the
    experiment has no such row."""
    if baseline not in table.means.index:
        return None
    base = table.means.loc[baseline]
    rows, means = [], []
    for cfg, r in table.means.iterrows():
        vals = [ratio(r[h], base[h]) for h in table.means.columns]
        rows.append([cfg] + [fmt(v, 2) for v in vals])
        means.append([cfg] + vals)
    heads = [c.split(" (")[0] for c in table.printed.columns[2:]]
    printed = pd.DataFrame(rows, columns=["engine"] + [f"{h} (× {baseline})" for h in heads])
    m = pd.DataFrame(means, columns=["engine"] + list(table.means.columns)).set_index("engine")
    caption = (f"Each value divided by {baseline}'s (means of repeated runs): 1 when both are 0, "
               f"inf when only {baseline}'s is 0, NA when either is unknown.")
    return Table(f"{table.name}.rel", f"{table.title}, relative to {baseline}", caption, printed, m)


def all_tables(exps, latency, baseline=None) -> list[Table]:
    """Every table of every experiment, each followed by its relative version when the baseline
    engine ran in that experiment (baseline None: no relative tables)."""
    out = []
    for exp in exps:
        for t in experiment_tables(exp, latency):
            out.append(t)
            rel = relative(t, baseline) if baseline else None
            if rel is not None:
                out.append(rel)
    return out
