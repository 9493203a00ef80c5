"""engbench report: tables in the source documents' shapes, charts, the paper; on run directories
generated from the real burst captures (tests/test_process.py's make_run) with per-engine numbers
that make the expected values easy to state."""

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from engbench.run import rundir
from engbench.tables import build_tables, runs_in, write_tables
from engbench.tables.processed import load_processed
from test_process import T0, make_run

# engine → (items/s factor against make_run's, latency factor, allocated bytes)
ENGINES = {"wiredtiger": (1.0, 1, 3 * 2**28), "rocksdb": (2.0, 2, 2**28), "lmdb": (0.5, 4, 4 * 2**28)}
MACHINE = {"cpu_model": "Test CPU @ 2.0GHz", "ncpu": 2, "memory_bytes": 2**32,
           "data_device": {"name": "vda", "model": "virtio", "scheduler": "none", "rotational": False},
           "filesystem": {"mount_point": "/", "fstype": "ext4", "options": "rw"}}


TABLE_FILE = {"rocksdb": "000001.sst", "lmdb": "data.mdb", "sqlite": "engbench.sqlite"}


def _patch_json(path: Path, fn):
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc))


def make_engine_run(root, engine, factor=1.0, lat=1, allocated=3 * 2**28, seed=7, when=0,
                    params=None, knobs=None, workload="iibench", seal=True):
    """make_run's iibench run re-labelled as `engine`: `factor` × the documents per second (and so
    1/factor × every per-insert cost), `lat` × the latency buckets, `allocated` bytes on disk."""
    name = f"20261121T{54532 + when:06d}Z_{workload}_{engine}_vm"
    d = make_run(root, name=name)
    items = round(262144 * factor)
    extra_params = params or {}
    kn = knobs if knobs is not None else {f"{engine}.cache_size": "64MB"}

    def man(m):
        m.update(engine=engine, seed=seed, workload=workload, knobs=kn)
        m["params"].update(extra_params)
        m["hardware"] = MACHINE
        m["software"] = {"kernel": "6.1.0-test", "os": "Debian 12", "python": "3.11.2",
                         "driver_version": "0.1.0", "engine_library": engine,
                         "engine_version": "1.0", "sysstat": "12.6.1", "engbench": "0.1.0"}
        m["git"] = {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": False}
        m["started_utc"], m["ended_utc"] = "2026-11-21T05:45:32.000Z", "2026-11-21T05:45:44.000Z"

    def summ(s):
        s.update(engine=engine, seed=seed, workload=workload, knobs=kn)
        s["params"].update(extra_params)
        t = s["totals"]["insert"]
        t.update(items=items, requests=round(256 * factor), logical_bytes_written=items * 1024)
        s["logical_bytes_stored"] = items * 1024
        s["disk"]["allocated_bytes"] = allocated
        # all of it in one table file of the engine's (no log: space = allocated here; normalize.sizes)
        s["disk"]["files"] = [{"path": TABLE_FILE.get(engine, "coll.wt"), "allocated_bytes": allocated}]

    _patch_json(d / "manifest.json", man)
    _patch_json(d / "driver" / "summary.json", summ)
    ivl = pd.read_csv(d / "driver" / "intervals.csv")
    ivl["items"] = (ivl["items"] * factor).round().astype(int)
    ivl["latency_us_max"] = ivl["latency_us_max"] * lat
    ivl.to_csv(d / "driver" / "intervals.csv", index=False, lineterminator="\n")
    hist = pd.read_csv(d / "driver" / "histograms.csv")
    hist[["lo_us", "hi_us"]] = hist[["lo_us", "hi_us"]] * lat
    hist.to_csv(d / "driver" / "histograms.csv", index=False, lineterminator="\n")
    if seal:
        rundir.seal(d)
    return d


def make_runs(root, repeats=1, engines=ENGINES, sweep=None):
    """One iibench experiment on every engine of `engines`, `repeats` runs each (the repeats
    differ by seed and by ±10 % in speed). `sweep`: {param: [values]} adds one experiment per
    value."""
    dirs, when = [], 0
    values = [(None, None)] + [(k, v) for k, vs in (sweep or {}).items() for v in vs]
    for key, val in values:
        for engine, (factor, lat, alloc) in engines.items():
            for r in range(repeats):
                f = factor * (1 + 0.1 * r) * (1 if key is None else 1 + 0.5 * values.index((key, val)))
                params = {key: val} if key else None
                dirs.append(make_engine_run(root, engine, f, lat, alloc, seed=7 + r, when=when,
                                            params=params))
                when += 1
    return dirs


@pytest.fixture
def processed(tmp_path):
    raw = tmp_path / "raw"
    make_runs(raw, repeats=1)
    tables = build_tables(runs_in(raw))
    write_tables(tables, tmp_path / "processed")
    return tmp_path


def _build(tmp_path, out="paper", **kw):
    from engbench.report import paper
    return paper.build(tmp_path / "processed", tmp_path / "raw", tmp_path / out, **kw)


def _exp(tmp_path):
    from engbench.report import data
    proc = load_processed(tmp_path / "processed")
    return proc, data.comparisons(proc["runs"], engine_order=data.ENGINE_ORDER)[0]


def test_tables_equal_processed_values_rounded_as_published(processed):
    from engbench.report import comparison_tables as tables
    proc, exp = _exp(processed)
    assert exp.configs == ["wiredtiger", "rocksdb", "lmdb"] and exp.workload == "iibench"
    tabs = {t.name.split(".", 1)[1]: t for t in tables.all_tables([exp], proc["latency"], "wiredtiger")}
    assert set(tabs) == {"per_insert", "per_insert.rel", "per_200k", "per_200k.rel", "rum", "rum.rel",
                         "p99", "p99.rel"}
    runs = proc["runs"].set_index("engine")
    ins = tabs["per_insert"].printed.set_index("engine")
    assert list(ins.columns) == ["n", "ips (inserts/s)", "wKB/i (KB/insert)", "Mcpu/i ((us+sy)·1e6/ips)",
                                 "size (GB)", "rss (GB)"]
    for e in exp.configs:
        r = runs.loc[e]
        assert ins.at[e, "ips (inserts/s)"] == f"{r['q']:.0f}"
        assert ins.at[e, "wKB/i (KB/insert)"] == f"{r['wkb_per_op']:.2f}"
        assert ins.at[e, "Mcpu/i ((us+sy)·1e6/ips)"] == f"{r['mcpu_per_op']:.0f}"
        assert ins.at[e, "size (GB)"] == f"{r['size_gb']:.1f}" and ins.at[e, "rss (GB)"] == f"{r['rss_gb']:.2f}"
    # make_run: q = 262144 / 10 s for wiredtiger; rocksdb twice as fast; size 0.75 GiB → "0.8"
    assert ins.at["wiredtiger", "ips (inserts/s)"] == "26214" and ins.at["rocksdb", "ips (inserts/s)"] == "52429"
    assert ins.at["wiredtiger", "size (GB)"] == "0.8" and ins.at["wiredtiger", "n"] == "1"
    k200 = tabs["per_200k"].printed.set_index("engine")
    assert k200.at["wiredtiger", "io.kBw (KB/200k)"] == f"{262596 / 262144 * 200000:.0f}"
    assert k200.at["wiredtiger", "io.r (reads/200k)"] == f"{37 / 262144 * 2e5:.2f}"
    rum = tabs["rum"].printed.set_index("engine")
    # space amp = allocated / stored: 3·2^28 / 2^28; lmdb 4·2^28 / (2^27)
    assert rum.at["lmdb", "space amp (×)"] == "8.00"
    assert rum.at["wiredtiger", "space amp (×)"] == "3.00" and rum.at["wiredtiger", "device read amp (×)"] == "NA"
    # one column per counter: no run limits, so no cgroup; the process's samples wrote nothing
    assert rum.at["wiredtiger", "cgroup read amp (×)"] == "NA" and rum.at["wiredtiger", "process write amp (×)"] == "0.00"
    p99 = tabs["p99"].printed.set_index("engine")
    # p99 buckets capped at the measured intervals' exact max (wiredtiger 4010 µs → "4", lmdb → "16")
    assert p99.at["wiredtiger", "p99 insert (ms)"] == "4" and p99.at["lmdb", "p99 insert (ms)"] == "16"
    assert "| wiredtiger | 1 | 26214 |" in tabs["per_insert"].markdown()
    assert "<td>26214</td>" in tabs["per_insert"].html()


def test_relative_table_ratios(processed):
    from engbench.report import comparison_tables as tables
    proc, exp = _exp(processed)
    rel = {t.name.split(".", 1)[1]: t for t in tables.all_tables([exp], proc["latency"], "wiredtiger")}
    ins = rel["per_insert.rel"].printed.set_index("engine")
    assert ins.at["rocksdb", "ips (× wiredtiger)"] == "2.00" and ins.at["lmdb", "ips (× wiredtiger)"] == "0.50"
    assert ins.at["rocksdb", "wKB/i (× wiredtiger)"] == "0.50" and ins.at["wiredtiger", "rss (× wiredtiger)"] == "1.00"
    r = rel["rum.rel"].printed.set_index("engine")
    assert r.at["lmdb", "space amp (× wiredtiger)"] == f"{8 / 3:.2f}" and r.at["lmdb", "device read amp (× wiredtiger)"] == "NA"
    assert tables.ratio(0, 0) == 1 and tables.ratio(3, 0) == float("inf")
    assert tables.ratio(float("nan"), 2) != tables.ratio(float("nan"), 2) and tables.ratio(1, 4) == 0.25
    assert tables.relative(rel["per_insert"], "no-such-engine") is None


def test_rounding_rules():
    from engbench.report.comparison_tables import fmt
    assert fmt(8198.4, 0) == "8198" and fmt(1.835, 2) in ("1.83", "1.84") and fmt(13.04, 1) == "13.0"
    assert fmt(179.04, "2|1") == "179.0" and fmt(0.494, "2|1") == "0.49"
    assert fmt(0.84, "ms") == "0.8" and fmt(13.4, "ms") == "13"
    assert fmt(0.0123, 1) == "0.012"  # non-zero values are never printed as 0
    assert fmt(0.0, 1) == "0.0" and fmt(float("nan"), 2) == "NA" and fmt(float("inf"), 2) == "inf"


def test_repeated_runs_show_mean_range_and_n(tmp_path):
    from engbench.report import comparison_tables as tables, data
    make_runs(tmp_path / "raw", repeats=2)
    write_tables(build_tables(runs_in(tmp_path / "raw")), tmp_path / "processed")
    proc, exp = _exp(tmp_path)
    t = tables.experiment_tables(exp, proc["latency"])[0].printed.set_index("engine")
    q = proc["runs"].groupby("engine")["q"]
    lo, hi, mean = q.min()["wiredtiger"], q.max()["wiredtiger"], q.mean()["wiredtiger"]
    assert t.at["wiredtiger", "n"] == "2"
    assert t.at["wiredtiger", "ips (inserts/s)"] == f"{mean:.0f} ({lo:.0f}–{hi:.0f})"


def test_charts_name_workload_machine_and_runs(processed):
    from engbench.report import charts, data
    proc, exp = _exp(processed)
    machine = data.machine_label(data.load_manifests(processed / "raw", exp.run_ids), exp.runs)
    assert machine == "Test CPU @ 2.0GHz, 2 CPUs"
    specs = {"rate": charts.insert_rate(exp, proc["intervals"], machine),
             "costs": charts.per_op_costs(exp, machine),
             "latency": charts.latency(exp, proc["latency"], machine),
             "rum": charts.rum(exp, machine)}
    for name, chart in specs.items():
        d = chart.to_dict()
        title = d["title"]
        assert "iibench" in title["text"], name
        assert "Test CPU @ 2.0GHz, 2 CPUs" in title["subtitle"][0] and "3 runs" in title["subtitle"][0], name
        assert d["config"]["font"].startswith("DejaVu")  # the engbench theme
    rate = specs["rate"].to_dict()
    assert rate["mark"]["type"] == "line" and rate["encoding"]["y"]["field"] == "rate"
    assert rate["encoding"]["x"]["field"] == "t" and rate["encoding"]["color"]["field"] == "config"
    assert rate["encoding"]["color"]["scale"]["domain"] == ["wiredtiger", "rocksdb", "lmdb"]
    costs = specs["costs"].to_dict()
    assert costs["facet"]["column"]["field"] == "metric" and costs["resolve"]["scale"]["y"] == "independent"
    values = next(iter(costs["datasets"].values()))
    assert {v["metric"] for v in values} == {"KB written / insert", "KB read / insert", "CPU µs / insert",
                                             "context switches / insert"}
    assert costs["title"]["text"] == "Cost per insert (document): iibench"
    lat = specs["latency"].to_dict()
    assert lat["spec"]["encoding"]["y"]["scale"]["type"] == "log" and lat["facet"]["column"]["field"] == "op"
    rum = specs["rum"].to_dict()
    enc = rum["layer"][1]["encoding"]
    assert enc["x"]["field"] == "amplification" and enc["xOffset"]["field"] == "config"
    assert any("> 1" in s for s in rum["title"]["subtitle"])
    rows = next(v for k, v in rum["datasets"].items() if any("amplification" in r for r in v))
    assert {(r["amplification"], r["config"]): r["value"] for r in rows}[("space, allocated", "wiredtiger")] == 3.0


def test_sweep_only_when_the_data_varies(tmp_path):
    from engbench.report import charts
    make_runs(tmp_path / "raw", engines={"wiredtiger": ENGINES["wiredtiger"]}, sweep={"loader_threads": [2, 4]})
    runs = build_tables(runs_in(tmp_path / "raw"))["runs"]
    assert charts.sweep_columns(runs) == ["param.loader_threads"]
    d = charts.sweep(runs, "param.loader_threads", "iibench", "m").to_dict()
    assert d["spec"]["layer"][0]["encoding"]["x"]["field"] == "x" and "loader_threads" in d["title"]["text"]
    assert charts.sweep_columns(runs[runs["param.loader_threads"] == 1]) == []


def test_paper_is_deterministic_and_quotes_every_number(processed):
    html = _build(processed, "a", png=True)
    _build(processed, "b", png=True)
    a, b = processed / "a" / "build", processed / "b" / "build"
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    assert {"paper.md", "paper.html", "paper.pdf", "supplement.md", "supplement.html", "supplement.pdf",
            "references.bib", "numbers.json", "build.json"} <= {f.name for f in files}
    assert any(f.suffix == ".svg" for f in files) and any(f.suffix == ".png" for f in files)
    md = (a / "paper.md").read_text() + (a / "supplement.md").read_text()
    assert 'src="figures/' not in html.read_text()  # the paper self-contained too
    text = (a / "supplement.html").read_text()
    numbers = json.loads((a / "numbers.json").read_text())
    assert numbers["runs"] == "3" and numbers[next(k for k in numbers if k.endswith(".q.max"))] == "52429"
    for name, value in numbers.items():
        assert value in md, name
    # self-contained: figures inline, no external references
    assert "data:image/svg+xml;base64," in text and 'src="figures/' not in text and "<style>" in text
    assert "Test CPU @ 2.0GHz" in text and "6.1.0-test" in text and "wKB/op = mean(wkB/s)/q" in text


def test_cli_report_and_missing_processed(processed, capsys):
    from engbench.cli import main
    assert main(["report", "--processed", str(processed / "processed"), "--raw", str(processed / "raw"),
                 "--out", str(processed / "p"), "--no-png", "--baseline", "rocksdb"]) == 0
    assert capsys.readouterr().out.strip().endswith("paper.html")
    assert not list((processed / "p" / "build").rglob("*.png"))
    assert (processed / "p" / "build" / "tables").glob("*.rel.csv")
    assert "× rocksdb" in next((processed / "p" / "build" / "tables").glob("*per_insert.rel.md")).read_text()
    assert main(["report", "--processed", str(processed / "nothing"), "--out", str(processed / "q")]) == 2
    assert "missing" in capsys.readouterr().err


def test_main_job_ends_with_process_and_paper(scratch, monkeypatch, capsys):
    from engbench.cli import main_job
    from engbench.report import paper
    dirs = make_runs(scratch / "raw", engines={"rocksdb": ENGINES["rocksdb"]})
    orig = paper.build
    monkeypatch.setattr(paper, "build", lambda p, r, out: orig(p, r, scratch / "paper", png=False))
    assert main_job._process_and_report(dirs) == 0
    out = capsys.readouterr().out
    assert f"paper: {scratch / 'paper' / 'build' / 'paper.html'}" in out
    assert (scratch / "processed" / "runs.parquet").exists()


def _mixed(tmp_path):
    """iibench on three engines plus a sysbench-update sweep on two (test_process's hand-made
    steps; rocksdb 2 × wiredtiger's tps), sealed and processed."""
    from test_process import make_sysbench_run
    raw = tmp_path / "raw"
    make_runs(raw)
    for engine, f in (("wiredtiger", 1.0), ("rocksdb", 2.0)):
        d = make_sysbench_run(raw, name=f"20261121T070000Z_sysbench-update_{engine}_vm", engine=engine, factor=f)
        _patch_json(d / "manifest.json", lambda m: m.update(hardware=MACHINE))
        rundir.seal(d)
    write_tables(build_tables(runs_in(raw)), tmp_path / "processed")
    return tmp_path


def test_steps_tables_equal_processed_steps_rounded(tmp_path):
    from engbench.report import data
    from engbench.workloads.sysbench_update import report as sysbench_report
    from engbench.report.comparison_tables import fmt
    _mixed(tmp_path)
    proc = load_processed(tmp_path / "processed")
    exp = next(e for e in data.comparisons(proc["runs"], engine_order=["wiredtiger"]) if e.workload == "sysbench-update")
    assert exp.title == "sysbench sweep"  # the params file's description
    tabs = {t.name.split(".", 1)[1]: t for t in sysbench_report.steps_tables(exp, proc["steps"])}
    assert set(tabs) == {"tps", "iostat_r", "r_per_t", "steps"}
    steps = proc["steps"].merge(proc["runs"][["run_id", "engine"]]).set_index(["engine", "clients"])
    tps, rt, rs = (tabs[k].printed.set_index("engine") for k in ("tps", "r_per_t", "iostat_r"))
    assert list(tps.columns) == ["1 client", "2 clients"]  # the c4 step did not run
    for engine in ("wiredtiger", "rocksdb"):
        for c, col in ((1, "1 client"), (2, "2 clients")):
            s = steps.loc[(engine, c)]
            # rounded as published; a non-zero value is never printed as 0 (tables.fmt)
            assert tps.at[engine, col] == fmt(s["q"], 0) and rt.at[engine, col] == fmt(s["r_per_op"], 2)
            assert rs.at[engine, col] == fmt(s["r_per_s"], 0)
    # by hand (test_process): c1 r/s 6.25 at 500 and 1000 tps; c2 r/s 2 at 1000 and 2000 tps
    assert rt.at["wiredtiger", "1 client"] == "0.01" and rt.at["rocksdb", "1 client"] == "0.01"  # 0.0125, 0.00625
    assert rt.at["wiredtiger", "2 clients"] == "0.0020" and rt.at["rocksdb", "2 clients"] == "0.0010"
    assert tps.at["rocksdb", "2 clients"] == "2000" and rs.at["wiredtiger", "1 client"] == "6"
    long = tabs["steps"].printed
    row = long[(long["engine"] == "wiredtiger") & (long["clients"] == "1")].iloc[0]
    assert row["Mcpu/t"] == "25500" and row["coverage"] == "1.00"


def test_paper_has_a_section_per_workload_present_and_is_deterministic(tmp_path):
    _mixed(tmp_path)
    _build(tmp_path, "a")
    _build(tmp_path, "b")
    a, b = tmp_path / "a" / "build", tmp_path / "b" / "build"
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    paper_md, md = (a / "paper.md").read_text(), (a / "supplement.md").read_text()
    heads = [re.sub(r" \{#[^}]+\}$", "", line) for line in md.splitlines() if line.startswith("## ")]
    assert heads == ["## Numbers the source documents print, checked", "## What is compared", "## iibench",
                     "## sysbench-update", "## Device", "## Methods"]
    heads = [re.sub(r" \{#[^}]+\}$", "", line) for line in paper_md.splitlines() if line.startswith("## ")]
    assert heads[:2] == ["## Introduction", "## Method"] and heads[-3:] == [
        "## Published numbers checked", "## Threats to validity", "## Conclusion"]
    assert [h[3:6] for h in heads[2:-3]] == ["000", "001", "002", "003", "004"]  # one per source document
    # the published checks are shown whatever runs there are: every flag, every sentence not holding
    assert (a / "tables" / "published_checks.flags.csv").is_file() and "ratio_index" in md
    assert "001-08: “I tested these configurations:”" in md
    assert "**No calibration run exists**" in md  # said plainly, not left out
    for absent in ("linkbench", "bulk-insert", "cache-pollution", "fillseq"):
        assert f"## {absent}" not in md
    assert "### sysbench sweep" in md and "figures/" in md
    assert any(f.name.endswith(".steps.svg") for f in files)
    assert any(f.name.endswith(".r_per_t.csv") for f in files)
    numbers = json.loads((a / "numbers.json").read_text())
    for name, value in numbers.items():
        assert value in md + paper_md, name
    key = next(k for k in numbers if ".steps.c2.tps.rocksdb" in k)
    assert numbers[key] == "2000" and "updates per second: wiredtiger 1000, rocksdb 2000" in md
    # methods: every parameter of the experiment with the driver's default beside it
    assert "| clients | [1, 2, 4] |" in md and "| max_rows | 262144 |" in md


def test_titles_name_the_experiment_or_the_params_that_differ_from_the_defaults(processed):
    from engbench.report import data
    proc, _ = _exp(processed)
    runs = proc["runs"].copy()
    defaults = {"max_rows": 100000000, "batch": 1000, "loader_threads": 1}
    e = data.comparisons(runs, defaults_of=lambda w: defaults)[0]
    assert e.title == "iibench (batch=1024, max_rows=262144)"  # loader_threads=1 is the default
    assert data.comparisons(runs, defaults_of=lambda w: None)[0].title == \
        "iibench (batch=1024, loader_threads=1, max_rows=262144)"  # no driver: every param
    runs["experiment"] = "iibench, 3 secondary indexes, small caches"
    assert data.comparisons(runs, defaults_of=lambda w: defaults)[0].title == runs["experiment"].iloc[0]


def test_chart_subtitles_stay_short():
    from engbench.report import charts
    long = "iibench (" + ", ".join(f"param_{i}=value_{i}" for i in range(30)) + ")"
    lines = charts.wrap(long)
    assert all(len(x) <= charts.SUBTITLE_CHARS for x in lines) and " ".join(lines) == long
    assert charts.wrap("x" * 200)[0].endswith("…")


def test_warnings_and_na_reasons_are_shown_next_to_the_numbers(tmp_path):
    from engbench.report import comparison_tables as tables, data
    raw = tmp_path / "raw"
    dirs = make_runs(raw, engines={k: ENGINES[k] for k in ("wiredtiger", "rocksdb")})
    d = dirs[1]  # rocksdb: the driver warned
    for f in (d / "driver" / "summary.json", d / "manifest.json", d / "driver", d):
        f.chmod(0o755 if f.is_dir() else 0o644)
    _patch_json(d / "driver" / "summary.json", lambda s: s.update(warnings=["load window not recorded"]))
    write_tables(build_tables(runs_in(raw)), tmp_path / "processed")
    proc = load_processed(tmp_path / "processed")
    exp = data.comparisons(proc["runs"], defaults_of=lambda w: None)[0]
    tabs = {t.name.split(".", 1)[1]: t for t in tables.experiment_tables(exp, proc["latency"])}
    assert tabs["per_insert"].caption.endswith(" Warnings — rocksdb: driver: load window not recorded.")
    assert "Warnings" not in tabs["p99"].caption  # said once per experiment's per-op tables, not on p99
    # iibench here reads nothing: read amp is NA in every row, and the RUM table says why
    assert tabs["rum"].printed["device read amp (×)"].tolist() == ["NA", "NA"]
    assert tabs["rum"].caption.endswith(" NA — every configuration: read amp: no logical bytes read "
                                        "(nothing to divide by).")


def test_paper_is_a_manuscript(processed):
    """Front matter from the data (not the build's clock), every table and figure labelled and
    numbered, cross-references from the text, a reference list; the PDF and the HTML say so."""
    from engbench.report import citation, manuscript
    _build(processed, "m")
    build = processed / "m" / "build"
    html = build / "supplement.html"   # the paper's own sections: test_paper_sections.py
    md = (build / "supplement.md").read_text()
    front = md.split("---\n")[1]
    # the newest run's end (make_engine_run: 2026-11-21T05:45:44Z), the commit it recorded
    assert 'date: \'2026-11-21\'' in front and "data-commit: 0123456789ab\n" in front
    assert f"engbench-version: {citation.version()}" in front and "licence-paper: CC-BY-4.0" in front
    from engbench.report import citation
    authors = citation.authors()  # CITATION.cff's (tests/test_paper_front_matter.py: without one, "engbench contributors")
    assert "author:\n" + "".join(f"- {a}\n" for a in authors) in front and "bibliography: references.bib" in front
    # every table the build wrote has its numbered caption and label in paper.md, every figure too
    tables = sorted(p.name[:-4] for p in (build / "tables").glob("*.csv"))
    both = md + (build / "paper.md").read_text()
    labels = re.findall(r"\{#(tab-[^}]+)\}", both)
    assert {f"tab-{re.sub(r'[^A-Za-z0-9_-]+', '-', t)}" for t in tables} <= set(labels)
    figs = {f.stem for f in (build / "figures").glob("*.svg")}
    assert figs and {f"fig-{re.sub(r'[^A-Za-z0-9_-]+', '-', f)}" for f in figs} <= set(re.findall(r"\{#(fig-[^}]+)\}", both))
    # the text refers to them: the experiment's tables, charts, per-insert and RUM tables, Methods
    key = next(t for t in tables if t.endswith(".per_insert")).split(".")[0]
    assert f"Its numbers are in [@tab-{key}-per_insert] to " in md and ", its charts in [@fig-" in md
    assert f"per second, [@tab-{key}-per_insert])" in md and f"([@tab-{key}-rum])" in md
    assert f"[@sec-methods-{key}]" in md and "{#sec-methods-" + key + "}" in md
    assert "[@sec-device]" in md and "[@sec-methods]" in md and "[@iibench; @source-003]" in md
    # every cross-reference has its label, every citation its entry
    refs = set(re.findall(r"@((?:tab|fig|sec)-[A-Za-z0-9_-]+)", md))
    assert refs and refs <= set(re.findall(r"\{#((?:tab|fig|sec)-[^}]+)\}", md))
    bib = (build / "references.bib").read_text()
    keys = set(re.findall(r"^@\w+\{([^,]+),", bib, re.M))
    cites = set(re.findall(r"@((?:source-\d{3})|[a-z]+)\b", md)) - {"tab", "fig", "sec"}
    assert {"wiredtiger", "rocksdb", "lmdb", "sqlite", "iibench", "linkbench"} <= cites <= keys
    assert "version = {1.0}" in bib   # the engine version the test manifests recorded
    # typeset: numbered captions and the reference list in the PDF and in the HTML
    text = " ".join(manuscript.pdf_text(build / "supplement.pdf").split())
    assert manuscript.pdf_pages(build / "supplement.pdf") > 1
    assert "Table 1:" in text and "Figure 1:" in text and "References" in text
    assert re.search(r"Its numbers are in Table \d+ to Table \d+, its charts in Figure 1 to Figure \d+", text)
    page = html.read_text()
    assert '<figure id="tab-' in page and re.search(r"<figcaption>Table\s1:", page) and 'href="#sec-methods"' in page
    assert 'role="doc-bibliography"' in page and "Timothy G. Armstrong" in page


def test_a_label_pandoc_cannot_attach_is_refused(tmp_path):
    """A table caption with "{_" before its label loses the label in pandoc: the build says so
    instead of leaving a cross-reference to nothing."""
    from engbench.report import manuscript
    md = ("---\ntitle: t\n---\n\nSee [@tab-a].\n\n: Caption about {_id} documents. {#tab-a}\n\n"
          "| a | b |\n|---|---:|\n| x | 1 |\n")
    with pytest.raises(manuscript.ManuscriptError, match="labels pandoc did not attach.*tab-a"):
        manuscript.to_typst(md, manuscript.template_path())
    assert "<tab-a>" in manuscript.to_typst(md.replace("{_id}", "`{_id}`"), manuscript.template_path())


def test_a_heading_pandoc_reads_as_text_is_refused():
    """A heading right under a paragraph (no blank line) is text to pandoc: refused, not lost."""
    from engbench.report import manuscript
    md = "---\ntitle: t\n---\n\n## One\n\nSome text.\n### Two\n\nMore.\n"
    with pytest.raises(manuscript.ManuscriptError, match="2 headings in paper.md, 1 in the typeset paper"):
        manuscript.to_typst(md, manuscript.template_path())
    assert manuscript.to_typst(md.replace("text.\n###", "text.\n\n###"), manuscript.template_path())


def test_verify_recomputes_the_paper_and_its_supplement(processed, capsys):
    """engbench verify rebuilds both documents: a changed sentence of supplement.md and a supplement.pdf
    that is not the one supplement.md gives are each named (issue 45: the supplement is its own PDF)."""
    from engbench.cli import main
    out = processed / "paper"
    assert main(["report", "--processed", str(processed / "processed"), "--raw", str(processed / "raw"),
                 "--out", str(out)]) == 0
    build = out / "build"
    assert {"paper.pdf", "paper.html", "supplement.pdf", "supplement.html"} <= {p.name for p in build.iterdir()}
    capsys.readouterr()
    assert main(["verify", "--raw", str(processed / "raw"), "--paper", str(out)]) == 0, capsys.readouterr().out
    md = build / "supplement.md"
    md.write_text(md.read_text().replace("Every run directory the tables come from", "Some run directories"))
    shutil.copy(build / "paper.pdf", build / "supplement.pdf")
    assert main(["verify", "--raw", str(processed / "raw"), "--paper", str(out)]) == 1
    said = capsys.readouterr().out
    assert "supplement.md: changed" in said and "supplement.pdf: not the one the recomputed supplement.md gives" in said
