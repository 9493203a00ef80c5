"""Findings (src/engbench/findings): verdict rules on hand-computed samples, the measured values
picked out of hand-made processed tables, and the findings table over them (a claim that holds,
one that does not, one with too few repeats)."""

import math

import pandas as pd
import pytest

from engbench import findings
from engbench.findings import catalog as claims
from engbench.rulebook import measure, rules


def test_greater_needs_the_ratio_and_separate_repetitions():
    with rules.decided_by("v1"):  # the old method, kept callable (rules_v1; the interval method: test_rules_interval.py)
        s = {"a": [30, 33, 36], "b": [10, 11, 12]}           # means 33 and 11: ratio 3
        v = rules.greater(s, "a", "b", 2.0)
        assert v.verdict == rules.HOLDS and "a / b = 3.00" in v.why
        assert rules.greater(s, "a", "b", 3.5).verdict == rules.FAILS
        overlap = {"a": [30, 33, 9], "b": [10, 11, 12]}      # mean 24 / 11 > 2, but 9 < 12
        v = rules.greater(overlap, "a", "b", 2.0)
        assert v.verdict == rules.FAILS and "overlap" in v.why
        assert rules.less(s, "b", "a", 2.0).verdict == rules.HOLDS


def test_too_few_repeats_is_not_testable():
    v = rules.greater({"a": [30, 33], "b": [10, 11, 12]}, "a", "b")
    assert v.verdict == rules.NOT_TESTABLE and "a (n=2)" in v.why
    assert rules.flat({"a": [1, 1, 1]}, ["a", "b"]).verdict == rules.NOT_TESTABLE  # b: no run at all


def test_flat_trend_about_and_all_of():
    with rules.decided_by("v1"):  # the old method, kept callable (rules_v1; the interval method: test_rules_interval.py)
        s = {"x": [100, 100, 100], "y": [120, 124, 128], "z": [200, 210, 190]}
        assert rules.flat(s, ["x", "y"]).verdict == rules.HOLDS          # 124 / 100 = 1.24 <= 1.25
        assert rules.flat(s, ["x", "z"]).verdict == rules.FAILS          # 2.0
        up = rules.trend(s, ["x", "y", "z"], up=True, factor=2.0)        # 100 → 124 → 200: 2.0×
        assert up.verdict == rules.HOLDS and "rises 2.00×" in up.why
        assert rules.trend(s, ["x", "z", "y"], up=True).verdict == rules.FAILS   # not at every step
        assert rules.trend(s, ["z", "y", "x"], up=False, factor=1.5).verdict == rules.HOLDS
        assert rules.about({"r": [0.9, 1.0, 1.1]}, "r", 1.0).verdict == rules.HOLDS
        assert rules.about({"r": [1.9, 2.0, 2.1]}, "r", 1.0).verdict == rules.FAILS   # 2 > 1.25
        ok, bad = rules.Verdict(rules.HOLDS, "a"), rules.Verdict(rules.FAILS, "b")
        assert rules.all_of([ok, ok]).verdict == rules.HOLDS
        assert rules.all_of([ok, bad]).verdict == rules.FAILS
        assert rules.all_of([bad, rules.not_testable("why")]).verdict == rules.NOT_TESTABLE
        # pairs (x, y), (z, w): each first below its second
        s |= {"w": [300, 310, 290]}
        assert rules.pairwise_less(s, ["x", "y", "z", "w"]).verdict == rules.HOLDS
        assert rules.pairwise_less(s, ["x", "y", "w", "z"]).verdict == rules.FAILS


def test_spread_is_mean_min_max_n():
    assert rules.spread([1.0, 2.0, 6.0]) == "3.00 (1.00–6.00, n=3)"
    assert rules.spread([1200.0, 1300.0, 1400.0]) == "1,300 (1,200–1,400, n=3)"


def test_wiredtiger_data_and_index_files():
    files = pd.DataFrame({"run_id": ["r"] * 5, "path": ["bulk.wt", "bulk._id_.wt", "WiredTiger.wt",
                                                       "WiredTigerHS.wt", "WiredTigerLog.0000000001"],
                          "apparent_bytes": [0] * 5, "allocated_bytes": [100, 40, 7, 9, 1000]})
    assert measure.wt_file_bytes(files, "r", "data") == 100
    assert measure.wt_file_bytes(files, "r", "index") == 40
    assert math.isnan(measure.wt_file_bytes(files, "other", "data"))


def test_kb_per_device_read_of_a_run_that_read_nothing_is_nan():
    """The reproduction of 2026-11-27 had a run whose cgroup read nothing from the device: KB per
    read is undefined there (NaN, which the rules count as a missing value), not a crash of
    `engbench process`."""
    runs = pd.DataFrame({"run_id": ["r", "z"], "cg_rkb_per_op": [0.08, 0.0], "cg_r_per_op": [0.02, 0.0]})
    pick = measure.Pick("kb", "repro_x", "rocksdb", "cg_kb_per_read")
    assert measure.value({"runs": runs}, runs.iloc[0], pick) == pytest.approx(4.0)  # 0.08 KB / 0.02 reads
    assert math.isnan(measure.value({"runs": runs}, runs.iloc[1], pick))


def _tables(rates: dict, other_cpu_pct: float = 1.0) -> dict:
    """Hand-made processed tables: runs of workflow trials, one per (experiment, engine, repetition),
    measured on a quiet machine (other_cpu_pct) unless told otherwise."""
    rows = []
    for (exp, engine), qs in rates.items():
        for rep, q in enumerate(qs, 1):
            rows.append({"run_id": f"{exp}-{engine}-{rep}", "status": "ok", "engine": engine,
                         "trial": f"{exp}.{engine}.r{rep}", "repetition": rep, "q": q,
                         "other_cpu_pct": other_cpu_pct})
    empty = pd.DataFrame(columns=["run_id"])
    return {"runs": pd.DataFrame(rows), "steps": empty, "loads": empty, "latency": empty,
            "cache_pollution": empty, "engine_stats": empty, "disk_files": empty}


def test_findings_table_on_hand_made_tables(tmp_path, monkeypatch):
    monkeypatch.setattr(claims, "GATES", {})  # the rules alone here (the gates: test_regime.py)
    lsm = "wiredtiger-lsm"
    t = _tables({("repro_iibench_cache_large", lsm): [100, 104, 98],     # flat: holds
                 ("repro_iibench_cache_medium", lsm): [101, 99, 100],
                 ("repro_iibench_cache_small", lsm): [97, 103, 100],
                 ("repro_iibench_cache_large", "rocksdb"): [100, 100, 100],   # halves: does not hold
                 ("repro_iibench_cache_medium", "rocksdb"): [80, 80, 80],
                 ("repro_iibench_cache_small", "rocksdb"): [50, 50, 50],
                 ("repro_iibench_cache_large", "wiredtiger"): [300, 310],     # two repeats only
                 ("repro_iibench_cache_medium", "wiredtiger"): [150, 150, 150],
                 ("repro_iibench_cache_small", "wiredtiger"): [50, 60, 55]})
    pub = tmp_path / "published"
    pub.mkdir()
    f = findings.table(t, pub).set_index("id")
    assert list(findings.table(t, pub).columns) == findings.COLUMNS
    assert f.loc["003-lsm-rate-flat", "verdict"] == rules.HOLDS
    assert "wiredtiger-lsm, large cache: 101 (98.0–104, n=3)" in f.loc["003-lsm-rate-flat", "measured"]
    assert f.loc["003-rocksdb-rate-flat", "verdict"] == rules.FAILS
    assert "2.00" in f.loc["003-rocksdb-rate-flat", "why"]
    assert f.loc["003-btree-rate-falls", "verdict"] == rules.NOT_TESTABLE
    assert "wiredtiger, large cache (n=2)" in f.loc["003-btree-rate-falls", "why"]
    assert f.loc["001-mongo-twice-the-reads", "verdict"] == rules.NOT_TESTABLE  # no stand-in, said why
    assert f.loc["000-wt-zlib-cpu", "verdict"] == rules.NOT_TESTABLE             # no linkbench runs here
    assert f.loc["003-lsm-rate-flat", "published"] == ""                        # a graph in the source
    v = findings.values(t)
    assert list(v.columns) == findings.VALUE_COLUMNS
    assert len(v[v["id"] == "003-lsm-rate-flat"]) == 9


def test_published_values_come_from_the_published_tables():
    from engbench import paths
    text = findings.published_text(paths.REPO / "data" / "published", claims.FINDINGS[4].published)
    assert text.startswith("wt btree, 144G: 417; wt btree, 32G: 791; wt btree, 8G: 2524; wt lsm, 144G: 294")


def test_every_claim_names_an_experiment_file_that_exists_and_its_words_are_in_the_published_record():
    from engbench import paths
    params = paths.REPO / "notebooks" / "params"
    for f in claims.FINDINGS:
        for p in f.picks:
            assert (params / f"{p.experiment}.yaml").is_file(), (f.id, p.experiment)
        assert f.source in claims.SOURCE_FILE and f.words and f.rule_text
    assert len({f.id for f in claims.FINDINGS}) == len(claims.FINDINGS)


def test_at_most_is_does_not_increase():
    with rules.decided_by("v1"):  # the old method, kept callable (rules_v1; the interval method: test_rules_interval.py)
        s = {"one": [100, 100, 100], "many": [120, 125, 130], "fewer": [30, 30, 30]}
        assert rules.at_most(s, "many", "one").verdict == rules.HOLDS          # 1.25 <= 1.25
        assert rules.at_most(s, "fewer", "one").verdict == rules.HOLDS         # falling is not increasing
        assert rules.at_most(s, "one", "fewer").verdict == rules.FAILS         # 3.33


def test_the_findings_are_collected_in_the_registrys_order_with_after():
    """claims.collect: each folder's findings after the previous folders', or right after the id
    its AFTER names; MODULE_OF says which module states which."""
    from types import SimpleNamespace as NS
    f = {i: NS(id=i) for i in ("a1", "a2", "a3", "b1", "c1", "c2")}
    a = NS(FINDINGS=[f["a1"], f["a2"], f["a3"]])
    c = NS(FINDINGS=[f["c1"], f["c2"]], AFTER="a2")
    b = NS(FINDINGS=[f["b1"]])
    found, module_of = claims.collect([a, c, b])
    assert [x.id for x in found] == ["a1", "a2", "c1", "c2", "a3", "b1"]
    assert module_of["c2"] is c and module_of["a3"] is a
    with pytest.raises(ValueError):
        claims.collect([c, a])   # AFTER names a finding not collected before it
    from engbench import registry
    from engbench.workloads import upper  # the folders with a findings.py, which the registry loads
    own = registry.modules("findings")
    assert [m.__name__ for m in own] == [f"{f.__name__}.findings" for f in upper.FINDINGS]
    assert [x.id for x in claims.FINDINGS] == [x.id for x in claims.collect(own)[0]]
    assert {claims.MODULE_OF[x.id].__name__.rsplit(".", 2)[1] for x in claims.FINDINGS} == {
        f.__name__.rsplit(".", 1)[1] for f in upper.FINDINGS}
