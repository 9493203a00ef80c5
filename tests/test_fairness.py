"""Every verdict fair (issue 43): how the findings are judged, class by class — samples never
overwritten, 004's gate on what the hot set lost, equal caching memory between compared engines, no
engine exempt from a gate and a claim judged on the configurations inside their gates, rules that can
fail and say what the claim says, a lock that sees gates, rule functions and experiment sizes, and the
claims the inventory marked testable from existing runs."""

import math

import pandas as pd
import pytest

from engbench import findings
from engbench.findings import catalog
from engbench.rulebook import measure, regime, rules
from engbench.rulebook.finding import Finding, Pick
from test_findings import _tables

MIB = 2 ** 20


def _row(t, exp, engine, **cols):
    """Set columns on every run of one configuration of hand-made tables."""
    runs = t["runs"]
    sel = runs["trial"].str.startswith(f"{exp}.{engine}.")
    for k, v in cols.items():
        if k not in runs:
            runs[k] = math.nan
        runs.loc[sel, k] = v if not isinstance(v, list) else pd.Series(v, index=runs.index[sel])


# --- class 1: samples overwritten ----------------------------------------------------------------

def test_two_picks_with_one_label_are_refused_and_no_finding_has_them():
    a = Pick("x", "repro_x", "rocksdb", "q")
    b = Pick("x", "repro_x", "rocksdb", "table_bytes")
    t = _tables({("repro_x", "rocksdb"): [1, 2, 3]})
    with pytest.raises(ValueError, match="'x'"):
        measure.samples(t, [a, b])
    with pytest.raises(ValueError, match="own label"):
        Finding("f", "003", "w", "m", "s", (), (a, b), lambda s: rules.not_testable(""), "r")
    for f in catalog.FINDINGS:
        labels = [p.label for p in f.picks]
        assert len(labels) == len(set(labels)), (f.id, labels)


def test_more_evictions_overall_sums_the_hot_and_the_cold_evictions():
    """004-more-evictions-overall: hot + cold per repetition (before, the cold label replaced the hot)."""
    f = {x.id: x for x in catalog.FINDINGS}["004-more-evictions-overall"]
    s = {}
    for p in f.picks:   # hot 100 each; cold 10 (read_once true) and 1 (false): sums 110 against 101
        s[p.label] = [100.0, 101.0, 102.0] if "hot" in p.label else (
            [10.0, 10.5, 11.0] if "true" in p.label else [1.0, 1.1, 1.2])
    v = f.rule(s)
    assert "1.09" in v.why, v.why   # (100+101+102+10+10.5+11)/(100+101+102+1+1.1+1.2) = 1.089


# --- class 2: 004's gate on what the hot set lost -------------------------------------------------

def test_the_004_gate_is_on_the_hot_bytes_lost_not_on_evictions():
    gates = catalog.GATES["repro_cache_pollution_read_once_false"]
    assert [g.quantity for g in gates if g.quantity.startswith("hot_")] == ["hot_fill_start", "hot_bytes_lost"]
    lost = next(g for g in gates if g.quantity == "hot_bytes_lost")
    assert lost.lo == 0.25 and lost.hi is None
    exp = "repro_cache_pollution_read_once_false"
    t = _tables({(exp, "wiredtiger"): [1, 1, 1]})
    # the shipped runs' case: pages evicted 3x over (read back each time), 1 % of the hot bytes lost
    t["cache_pollution"] = pd.DataFrame({"run_id": t["runs"]["run_id"], "hot_evicted_fraction": [3.1, 3.5, 2.7],
                                         "hot_bytes_lost_fraction": [0.010, 0.009, 0.0045]})
    (r,) = regime.check(t, exp, "wiredtiger", catalog.GATES, only=[lost])
    assert not r.passed and r.measured() == "hot_bytes_lost 0.00450–0.0100 (n=3)"
    t["cache_pollution"]["hot_bytes_lost_fraction"] = [0.57, 0.5, 0.3]   # the source lost 57 %
    (r,) = regime.check(t, exp, "wiredtiger", catalog.GATES, only=[lost])
    assert r.passed


# --- class 4: equal caching memory ------------------------------------------------------------------

def test_a_verdict_on_unequal_caching_memory_is_refused_with_the_figures(monkeypatch):
    monkeypatch.setattr(catalog, "GATES", {})
    exps = {("repro_ycsb_rum_a", "rocksdb"): [1, 1, 1], ("repro_ycsb_rum_a", "wiredtiger"): [1, 1, 1]}
    t = _tables(exps)
    t["runs"]["space_amp"] = [1.1, 1.1, 1.1, 2.0, 2.0, 2.0]
    t["runs"]["loads:write_amp_process"] = math.nan
    _row(t, "repro_ycsb_rum_a", "rocksdb", engine_cache_bytes=24 * MIB)
    _row(t, "repro_ycsb_rum_a", "wiredtiger", engine_cache_bytes=16 * MIB)
    f = {x.id: x for x in catalog.FINDINGS}["000-lsm-better-space-and-write"]
    got = findings.judge.evaluate(t, f)
    assert got["verdict"] == rules.NOT_TESTABLE and "unequal caching memory" in got["why"], got["why"]
    assert "rocksdb 24 MiB" in got["why"] and "wiredtiger 16 MiB" in got["why"]
    _row(t, "repro_ycsb_rum_a", "rocksdb", engine_cache_bytes=16 * MIB)
    assert "unequal" not in findings.judge.evaluate(t, f)["why"]


# --- class 5: gates applied evenly, per configuration, on the quantity and phase compared -----------

def _engines_compared() -> dict:
    out: dict = {}
    for f in catalog.FINDINGS:
        for p in f.picks:
            out.setdefault(p.experiment, set()).add(p.engine)
    return out


def test_no_engine_is_exempt_from_a_gate():
    """Every gate quantity of an experiment judges every engine compared there whose design has it."""
    qs = regime.quantities()
    for exp, gates in catalog.GATES.items():
        for q in {g.quantity for g in gates}:
            for engine in _engines_compared().get(exp, ()):
                if qs[q].engines is not None and engine not in qs[q].engines:
                    continue
                assert any(g.quantity == q for g in regime.gates_for(catalog.GATES, exp, engine)), (exp, q, engine)


def test_a_claim_is_judged_on_the_configurations_inside_their_gates(monkeypatch):
    small, large = "repro_iibench_cache_small", "repro_iibench_cache_large"
    monkeypatch.setattr(catalog, "GATES", {small: (regime.Gate("device_reads_per_op", lo=0.5, source="s"),)})
    t = _tables({(large, "wiredtiger"): [100, 101, 99], (large, "wiredtiger-lsm"): [200, 201, 199],
                 (small, "wiredtiger"): [50, 51, 49], (small, "wiredtiger-lsm"): [100, 99, 101],
                 ("repro_iibench_cache_medium", "wiredtiger-lsm"): [200, 200, 200]})
    _row(t, small, "wiredtiger", cg_r_per_op=1.0)
    _row(t, small, "wiredtiger-lsm", cg_r_per_op=0.01)   # outside its gate
    tab = findings.table(t).set_index("id")
    cross = tab.loc["003-btree-vs-lsm-crossover"]
    # at the large cache, inside every gate, the B-tree is half the LSM: "much better" fails there,
    # whatever the small cache's LSM measures
    assert cross["verdict"] == rules.FAILS, cross["why"]
    assert "left out" in cross["why"] and "wiredtiger-lsm (repro_iibench_cache_small)" in cross["why"]
    flat = tab.loc["003-lsm-rate-flat"]   # the left-out step decides "flat": not in regime
    assert flat["verdict"] == rules.NOT_IN_REGIME and "device_reads_per_op 0.0100" in flat["why"]


def test_each_claims_gate_is_about_its_quantity_and_phase():
    by_id = {f.id: f for f in catalog.FINDINGS}
    assert by_id["003-lsm-many-files"].regime == (), "a file count does not depend on the read regime"
    for f in catalog.FINDINGS:
        if f.picks and all(p.value.startswith("loads:") for p in f.picks):
            kept = f.regime or ()
            assert f.regime is not None and not {"device_reads_per_op", "checkpoints_in_window"} & set(kept), \
                (f.id, "a load claim is not judged under the query phase's gates")


# --- class 6: rules that can fail, and say what the claim says ---------------------------------------

def _f(fid):
    return {x.id: x for x in catalog.FINDINGS}[fid]


def _made_up(f, values: dict) -> dict:
    """Samples for every pick of `f`: values[label] (or the first key that the label contains), ±1 %."""
    out = {}
    for p in f.picks:
        x = values.get(p.label, next((v for k, v in values.items() if k in p.label), None))
        out[p.label] = [x * 0.99, x, x * 1.01]
    return out


def test_comparable_is_not_refuted_by_the_other_engine_being_better():
    f = _f("000-rocks-comparable-rate-iobound")
    rx, wt = (p.label for p in f.picks)
    assert f.rule(_made_up(f, {rx: 166.0, wt: 100.0})).verdict == rules.HOLDS       # RocksDB 1.66x better
    assert f.rule(_made_up(f, {rx: 50.0, wt: 100.0})).verdict == rules.FAILS        # RocksDB 2x worse


def test_a_bit_slower_has_an_upper_bound():
    f = _f("000-load-bit-slower-when-larger")
    assert f.rule(_made_up(f, {"cached": 410.0, "iobound": 100.0})).verdict == rules.FAILS   # 4.1x: much slower
    assert f.rule(_made_up(f, {"cached": 120.0, "iobound": 100.0})).verdict == rules.HOLDS


def test_up_to_80_percent_smaller_fails_without_the_reduction():
    f = _f("002-footprint-at-most-80-pct-smaller")
    none_all, zlib_all, none_d, zlib_d = (p.label for p in f.picks)
    assert f.rule(_made_up(f, {none_all: 100.0, zlib_all: 100.0, none_d: 50.0, zlib_d: 50.0})).verdict == rules.FAILS
    assert f.rule(_made_up(f, {none_all: 100.0, zlib_all: 30.0, none_d: 50.0, zlib_d: 10.0})).verdict == rules.HOLDS
    assert f.rule(_made_up(f, {none_all: 100.0, zlib_all: 10.0, none_d: 50.0, zlib_d: 5.0})).verdict == rules.FAILS


def test_space_after_the_queries_needs_the_sources_requests_per_node(monkeypatch):
    monkeypatch.setattr(catalog, "GATES", {})
    exp = "repro_linkbench_cached_snappy"
    t = _tables({(exp, "wiredtiger"): [1, 1, 1], (exp, "rocksdb"): [1, 1, 1]})
    t["runs"]["table_bytes"] = [300.0, 301, 302, 100, 101, 102]
    t["runs"]["param.maxid1"] = 200_001.0
    t["runs"]["ops"] = 400_002.0        # 2 requests per node; the source's ~76
    got = findings.judge.evaluate(t, _f("000-wt-space-after-query"))
    assert got["verdict"] == rules.NOT_IN_REGIME and "requests_per_node 2.00 (n=3)" in got["why"], got["why"]
    t["runs"]["ops"] = 200_001.0 * 40
    assert findings.judge.evaluate(t, _f("000-wt-space-after-query"))["verdict"] == rules.HOLDS


def test_no_spike_is_not_refuted_by_a_fall():
    f = _f("003-lsm-cpu-no-spike")
    assert f.rule(_made_up(f, {"large": 150.0, "medium": 100.0, "small": 60.0})).verdict == rules.HOLDS
    assert f.rule(_made_up(f, {"large": 100.0, "medium": 100.0, "small": 200.0})).verdict == rules.FAILS


def test_a_size_that_was_not_captured_is_not_tested():
    v = _f("000-similar-space-after-load").rule({})
    assert v.verdict == rules.NOT_TESTED and v.why.startswith("the size right after the load was not captured")
    assert "it needs" in v.why


def test_every_rule_can_fail_and_can_hold():
    """Each rule states what would make the claim false: some made-up measurement fails it (and some
    holds it, so it is no rule that cannot hold either)."""
    import random
    rnd = random.Random(43)
    grid = (1e-4, 1.0, 1.1, 1.2, 2.0, 5.0, 10.0, 100.0)
    for f in catalog.FINDINGS:
        if not f.picks:
            continue
        seen = set()
        for _ in range(2000):
            s = {p.label: [v * 0.99, v, v * 1.01] for p in f.picks for v in [rnd.choice(grid)]}
            seen.add(f.rule(s).verdict)
            if {rules.HOLDS, rules.FAILS} <= seen:
                break
        assert {rules.HOLDS, rules.FAILS} <= seen, (f.id, seen)


# --- class 7: the lock sees what changed ---------------------------------------------------------------

def test_the_fingerprint_sees_the_gates_the_rule_function_and_the_experiment_size(monkeypatch, tmp_path):
    from engbench import paths
    from engbench.findings import history
    import dataclasses
    f = _f("000-wt-zlib-slower-iobound")
    before = history.fingerprint(f)
    other_rule = dataclasses.replace(f, rule=lambda s: rules.greater(s, f.picks[0].label, f.picks[1].label, 1.1))
    assert history.fingerprint(other_rule) != before, "the rule function, same rule text"
    exp = f.picks[0].experiment
    loose = {**catalog.GATES, exp: (regime.Gate("tables_per_memory_limit", lo=2.75),)}
    monkeypatch.setattr(history, "GATES", loose)
    assert history.fingerprint(f) != before, "a gate"
    monkeypatch.undo()
    params = tmp_path / "notebooks" / "params"
    params.mkdir(parents=True)
    for p in (paths.REPO / "notebooks" / "params").glob("*.yaml"):
        (params / p.name).write_bytes(p.read_bytes())
    monkeypatch.setattr(paths, "REPO", tmp_path)
    assert history.fingerprint(f) == before
    (params / f"{exp}.yaml").write_text((params / f"{exp}.yaml").read_text() + "\n# resized\n")
    assert history.fingerprint(f) != before, "the experiment file"


def test_the_loosened_gates_and_the_resized_experiments_have_their_rows():
    from engbench.findings import history
    rows = {(c.id, c.commit) for c in history.CHANGES}
    for fid in ("000-wt-zlib-slower-iobound", "000-wt-zlib-slower-cached", "003-lsm-rate-flat", "003-btree-rate-falls"):
        assert (fid, "b784eebb") in rows, fid
    for fid in ("001-tps-scales", "001-one-read-per-update", "004-hot-stays-in-cache", "004-hot-scan-faster"):
        assert (fid, "2ec14e85") in rows, fid
    tables = findings.load()
    got = history.verdicts(tables, catalog.FINDINGS)
    row = got[(got["id"] == "000-wt-zlib-slower-iobound") & (got["commit"] == "b784eebb")].iloc[0]
    # under the IO-bound bound before (>= 4.0x the memory limit) the zlib runs (3.1x) are not in the regime
    assert row["old_verdict"] == rules.NOT_IN_REGIME and "tables_per_memory_limit" in row["old_why"]
    hot = got[(got["id"] == "004-fewer-hot-evictions") & got["why"].str.contains("class 2")].iloc[0]
    assert hot["new_verdict"] == rules.NOT_IN_REGIME and hot["old_verdict"] != rules.NOT_IN_REGIME


# --- class 8: the claims testable from the runs that exist ----------------------------------------------

def test_the_claims_testable_from_existing_runs_have_findings():
    from engbench import paths
    from engbench.findings import inventory
    inv = inventory.load(paths.REPO / "data" / "published").set_index("id")
    ids = ("000-c04", "000-c40", "000-c41", "002-c11", "002-c31", "003-c07", "003-c26", "003-c42", "004-c07",
           "004-c21", "004-c22")
    assert (inv.loc[list(ids), "status"] == inventory.TESTED).all()
    assert not inv["not_tested_because"].str.startswith("could be tested").any()


def test_the_new_rule_shapes_by_hand():
    from engbench.rulebook import rules_extra as rx
    s = {"a": [0.0003, 0.0005, 0.0009], "b": [0.0005, 0.0011, 0.0002], "c": [0.0003, 0.0004, 0.0002]}
    with rules.decided_by("interval"):                              # the method before: every repetition
        assert rx.below(s, "a", 0.001).verdict == rules.HOLDS
        assert rx.below(s, "b", 0.001).verdict == rules.FAILS      # one repetition at 0.0011
    # now the mean's 95 % interval: a's (mean 0.00057) reaches 0.0013, b's too: neither decided
    assert rx.below(s, "a", 0.001).verdict == rules.INCONCLUSIVE
    assert rx.below(s, "b", 0.001).verdict == rules.INCONCLUSIVE
    assert rx.below(s, "c", 0.001).verdict == rules.HOLDS
    h, f, n = rules.Verdict(rules.HOLDS, "h"), rules.Verdict(rules.FAILS, "f"), rules.not_testable("n")
    assert rx.any_of([f, h]).verdict == rules.HOLDS and rx.any_of([f, f]).verdict == rules.FAILS
    assert rx.any_of([f, n]).verdict == rules.NOT_TESTABLE
    assert rx.at_least([h, h, f], 2).verdict == rules.HOLDS and rx.at_least([h, f, f], 2).verdict == rules.FAILS
    assert rx.at_least([h, n, f], 2).verdict == rules.NOT_TESTABLE
    assert rx.per_pair({"x": [2, 9], "y": [1, 3]}, "x", "y") == [2.0, 3.0]
    f = _f("004-test-never-went-to-disk")
    assert f.rule(_made_up(f, {"true": 0.0005, "false": 0.002})).verdict == rules.FAILS


def test_caching_memory_comes_from_the_recorded_knobs():
    """The figure the refusal compares is engbench.run.experiments.caching_memory of the runs table's
    knob.* and param.* columns: RocksDB's block cache plus its memtables (YCSB: 2 column families x 2
    x write_buffer_size), not the driver's one-table engine_cache_bytes."""
    from engbench.findings import fairness
    run = pd.Series({"engine": "rocksdb", "workload": "ycsb", "engine_cache_bytes": 12.0 * MIB,
                     "knob.rocksdb.block_cache_size": 8.0 * MIB, "knob.rocksdb.write_buffer_size": 2.0 * MIB})
    assert fairness.run_caching_memory(run) == 16 * MIB
    assert fairness.run_caching_memory(pd.Series({"engine": "rocksdb", "engine_cache_bytes": 12.0 * MIB})) == 12 * MIB
    lmdb = pd.Series({"engine": "lmdb", "workload": "ycsb", "knob.lmdb.map_size": 64.0 * MIB})
    assert math.isnan(fairness.run_caching_memory(lmdb))


def test_sizes_at_end_needs_the_btree_larger_than_the_lsm():
    """"310G for the b-tree, 290G for the LSM": the B-tree is the larger. The inventory's "about 1.07"
    (0.86-1.34) passed 0.94, the LSM the larger one; failed on d95b6d69 (held)."""
    f = _f("003-sizes-at-end")
    bt, lsm, lm = (p.label for p in f.picks)
    lsm_larger = {bt: [1.00, 1.01, 0.99], lsm: [1.064, 1.07, 1.058], lm: [3.0, 3.1, 2.9]}   # B-tree / LSM 0.94
    assert f.rule(lsm_larger).verdict == rules.FAILS
    as_published = {bt: [1.07, 1.075, 1.065], lsm: [1.0, 1.005, 0.995], lm: [2.8, 2.75, 2.85]}   # 1.07, 2.6
    assert f.rule(as_published).verdict == rules.HOLDS
