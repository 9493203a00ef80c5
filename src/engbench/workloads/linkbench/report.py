"""linkbench in the paper (listed in engbench.workloads.upper, read through engbench.registry.hook): the
query table of 000_linkbench_query_*.csv (tps, r/t, rKB/t, wKB/t, Mcpu/t, size, rss, p99 of
update_node, get_node, update_link, get_links_list) and, when the captures cover the load's
window, the load table of 000_linkbench_load_*.csv; the sentence on get_links_list's p99."""

from __future__ import annotations

from ...normalize import views
from ...report.prose import mean_by, quote_list
from ...report.comparison_tables import UNITS, build, fmt
from ...report.workload_tables import own_table, stat, with_config

LINK_OPS = [("un", "update_node"), ("gn", "get_node"), ("ul", "update_link"), ("gll", "get_links_list")]


def query_tables(exp, latency, loads) -> tuple[list, str | None]:
    """The query table, and the load table or the reason there is none."""
    lat = latency[latency["run_id"].isin(exp.run_ids)]
    wide = lat.pivot_table(index="run_id", columns="op", values="p99_us", aggfunc="first") / 1000
    runs = exp.runs.merge(wide.add_prefix("p99.").reset_index(), on="run_id", how="left")
    sub = type(exp)(exp.key, exp.workload, exp.params, runs, exp.op_unit, exp.configs, exp.name)
    cols = list(views.TXN)  # the per-transaction table, then the p99 of four operations
    rules = {h: UNITS[h][1] for h, _ in cols}
    units = {h: UNITS[h][0] for h, _ in cols}
    for short, op in LINK_OPS:
        cols.append((f"p99 {short}", f"p99.{op}"))
        rules[f"p99 {short}"], units[f"p99 {short}"] = "ms", "ms"
    out = [build(sub, "query", "query (per transaction = one request)", cols, rules, units)]
    ld = with_config(loads, exp)
    if ld.empty:
        return out, "The runs record no load phase."
    usable = ld[ld["window"].astype(bool) & (ld["missed_s"] == 0)]
    if len(usable) < len(ld):
        why = ("the driver's summary gives the load's duration but not its window"
               if not ld["window"].astype(bool).any() else
               "the captures miss part of some load windows beyond their partial edge seconds")
        ips = ", ".join(f"{cfg} {fmt(ld.loc[ld['config'] == cfg, 'q'].mean(), 0)}"
                        for cfg in exp.configs if (ld["config"] == cfg).any())
        return out, (f"No load table (ips, wKB/i, Mcpu/i, size, rss): {why}, so its device and CPU "
                     f"costs cannot be told apart from the rest of the run. Load rate (nodes + "
                     f"links per second, from the summary): {ips}.")
    rows = []
    for cfg in exp.configs:
        g = usable[usable["config"] == cfg]
        rows.append([cfg, str(len(g)), (*stat(g["q"].tolist()), 0), (*stat(g["wkb_per_op"].tolist()), 2),
                     (*stat(g["mcpu_per_op"].tolist()), 0), "NA", (*stat(g["rss_gb"].tolist()), 2)])
    out.append(own_table(f"{exp.key}.load", f"{exp.title} — load", "Over the load window (summary "
                      "load); size at the end of the load is not recorded (NA).",
                      ["engine", "n", "ips (inserts/s)", "wKB/i (KB/insert)", "Mcpu/i ((us+sy)·1e6/ips)",
                       "size (GB)", "rss (GB)"], rows))
    return out, None


def tables(exp, proc) -> tuple[list, str | None]:
    """Its own tables of one experiment (first in its list), and the note on the load table."""
    return query_tables(exp, proc["latency"], proc["loads"])


def sentences(exp, proc, n: dict) -> list[str]:
    """The p99 of get_links_list per engine configuration; adds the numbers quoted to ``n``."""
    lat = proc["latency"]
    gll = with_config(lat[lat["op"] == "get_links_list"].assign(ms=lambda f: f["p99_us"] / 1000), exp)
    if not len(gll):
        return []
    return ["p99 of get_links_list (ms): "
            f"{quote_list(n, f'{exp.key}.p99_gll_ms', mean_by(gll, 'ms', exp.configs), 'ms')}."]
