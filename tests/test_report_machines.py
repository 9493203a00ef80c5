"""The report keeps machines and run limits apart (issue 14, issue 10): runs of two machines are two
experiments whose baseline ratios are each within one machine; a read IOPS limit is drawn on the
rate chart where it binds. Run directories from the real burst captures (test_report's helpers)."""

import pytest

from engbench.run import rundir
from engbench.tables import build_tables, runs_in, write_tables
from test_process import T0
from test_report import MACHINE, _build, _patch_json, make_engine_run

OTHER = {**MACHINE, "cpu_model": "Other CPU @ 3.0GHz", "memory_bytes": 2**36}


def _on(d, hardware=None, run_limits=None):
    def man(m):
        if hardware:
            m["hardware"] = hardware
        if run_limits:
            m["run_limits"] = run_limits
    _patch_json(d / "manifest.json", man)
    return d


def test_two_machines_two_experiments_and_ratios_within_each(tmp_path):
    raw = tmp_path / "raw"
    # machine A: rocksdb 2× wiredtiger; machine B: rocksdb 4× wiredtiger
    for when, (engine, factor, hw) in enumerate([("wiredtiger", 1.0, None), ("rocksdb", 2.0, None),
                                                  ("wiredtiger", 1.0, OTHER), ("rocksdb", 4.0, OTHER)]):
        d = make_engine_run(raw, engine, factor, when=when, seal=False)
        rundir.seal(_on(d, hardware=hw))
    write_tables(build_tables(runs_in(raw)), tmp_path / "processed")
    build = _build(tmp_path).parent
    rel = sorted(build.glob("tables/*.per_insert.rel.csv"))
    assert len(rel) == 2  # one experiment per machine, never one averaged over both
    ratios = sorted(line.split(",")[1] for f in rel for line in f.read_text().splitlines()[1:]
                    if line.startswith("rocksdb"))
    assert ratios == ["2.00", "4.00"]
    md = (build / "supplement.md").read_text()  # the experiments: the supplement
    heads = [line for line in md.splitlines() if line.startswith("### iibench")]
    assert len(heads) == 2 and all("— machine " in h for h in heads) and heads[0] != heads[1]
    # every per-experiment table caption names its machine
    assert md.count("Measured on machine 2cpu-4g-") >= 2 and md.count("Measured on machine 2cpu-64g-") >= 2


def test_read_iops_limit_is_a_line_on_the_rate_chart(tmp_path):
    from engbench.report import charts, data
    raw = tmp_path / "raw"
    d = make_engine_run(raw, "wiredtiger", 1.0, seal=False)
    _on(d, run_limits={"read_iops": 100, "memory_limit": None, "cgroup": {"version": 1}})
    # the run's own reads: 262.144 per second → 2621.44 over the 10 s window / 262144 docs = 0.01 r/op
    rows = ["t_unix_s,mem_bytes,mem_file_bytes,mem_anon_bytes,mem_limit_hits,read_ios,write_ios,read_bytes,write_bytes"]
    rows += [f"{T0 + k},0,0,0,0,{262.144 * (k + 2)},0,{4096 * 262.144 * (k + 2)},0" for k in range(-2, 13)]
    (d / "cgroup.csv").write_text("\n".join(rows) + "\n")
    rundir.seal(d)
    proc = build_tables(runs_in(raw))
    run = proc["runs"].iloc[0]
    assert run["limits"] == "read 100 IOPS, cgroup v1" and run["cg_r_per_op"] == pytest.approx(0.01)
    exp = data.comparisons(proc["runs"], defaults_of=lambda w: None)[0]
    ceil = charts.read_ceilings(exp, top_rate=30000.0)
    assert list(ceil["ceiling"]) == [pytest.approx(100 / 0.01)] and list(ceil["source"]) == ["run.read_iops"]
    spec = charts.insert_rate(exp, proc["intervals"], "m").to_dict()
    rules = [lay for lay in spec["layer"] if lay["mark"]["type"] == "rule"]
    assert rules and rules[0]["encoding"]["y"]["field"] == "ceiling"
    # where it does not bind (far above the fastest interval) it is not drawn
    assert charts.read_ceilings(exp, top_rate=1000.0).empty


def _cache_pollution_run(root, when, read_once, hardware=None):
    d = make_engine_run(root, "wiredtiger", 1.0, when=when, workload="cache-pollution", seal=False)
    phases = {"cold_action": "scan", "read_once": read_once, "cold_start_unix_s": T0 + 3,
              "cold_end_unix_s": T0 + 5.5, "readers_end_unix_s": T0 + 9, "gets_before": 300, "gets_during": 50,
              "gets_after": 350, "gets_per_s_before": 100, "gets_per_s_during": 20, "gets_per_s_after": 100}
    _patch_json(d / "driver" / "summary.json", lambda s: s.update(phases=phases, hot_misses=0))
    with open(d / "driver" / "intervals.csv", "a") as f:
        f.write(f"10,{T0 + 9},{T0 + 10},0,scan_hot,1,2000,0,0,1000,1000,{1000 * (when + 1)}\n")
    rundir.seal(_on(d, hardware=hardware))


def test_read_once_comparison_is_per_machine(tmp_path):
    from engbench.report import data
    from engbench.workloads.cache_pollution import report as cache_report
    raw = tmp_path / "raw"
    for when, (ro, hw) in enumerate([(False, None), (True, None), (False, OTHER), (True, OTHER)]):
        _cache_pollution_run(raw, when, ro, hw)
    proc = build_tables(runs_in(raw))
    groups = data.where_groups(proc["runs"])
    assert len(groups) == 2
    tabs = [cache_report.read_once_table(sub, proc["cache_pollution"], proc["engine_stats"], tag)
            for tag, sub in groups]
    assert len({t.name for t in tabs}) == 2
    for t in tabs:  # one run of each read_once per machine, never the two machines' mean
        assert t.printed["n"].tolist() == ["1", "1"]


def test_sysbench_sweep_chart_shows_own_reads_and_the_read_bound_tps(tmp_path):
    from engbench.report import data
    from engbench.workloads.sysbench_update import report as sysbench_report
    from test_process import make_sysbench_run
    d = make_sysbench_run(tmp_path)
    _on(d, run_limits={"read_iops": 100, "cgroup": {"version": 1}})
    (d / "cgroup.csv").write_text(  # 0.5 own reads per update in both steps (see test_process_limits)
        "t_unix_s,mem_bytes,mem_file_bytes,mem_anon_bytes,mem_limit_hits,read_ios,write_ios,read_bytes,write_bytes\n"
        f"{T0},0,0,0,0,0,0,0,0\n{T0 + 4},0,0,0,0,1000,0,0,0\n{T0 + 10},0,0,0,0,4000,0,0,0\n")
    proc = build_tables([d])
    exp = data.comparisons(proc["runs"], defaults_of=lambda w: None)[0]
    spec = sysbench_report.steps(exp, proc["steps"], "m").to_dict()
    rows = next(iter(spec["datasets"].values()))
    ceil = [r for r in rows if r["kind"] == sysbench_report.CEILING]
    assert sorted((r["clients"], r["value"]) for r in ceil) == [(1, 200.0), (2, 200.0)]  # 100 IOPS ÷ 0.5 r/update
    own = [r for r in rows if r["metric"] == sysbench_report.OWN_READS[1]]
    assert sorted((r["clients"], r["value"]) for r in own) == [(1, 0.5), (2, 0.5)]
