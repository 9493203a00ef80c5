"""The verdict rules decide by the interval of the effect (issue 44): a made-up pair of samples for
each outcome — holds, does not hold, inconclusive here, equivalent / not equivalent for a flat
claim — with the effect, the interval, the rounds and the threshold each verdict carries; all_of
decided by its parts; the old method (ratio of means, repetitions apart) still callable."""

import math

import pytest

from engbench import effects, findings
from engbench.rulebook import rules
from engbench.verdicts import INCONCLUSIVE, VERDICTS


def test_greater_holds_fails_or_is_inconclusive_by_its_interval():
    s = {"a": [30, 33, 36], "b": [10, 11, 12]}            # means 33 and 11: 3.0
    v = rules.greater(s, "a", "b", 2.0)
    assert v.verdict == rules.HOLDS and "a / b = 3.00" in v.why
    assert v.effect == 3.0 and 2.0 < v.low < 3.0 < v.high and v.n == 3 and v.threshold == "> 2"
    assert (v.low, v.high) == pytest.approx(effects.ratio(s["a"], s["b"])[1:3])
    assert rules.greater(s, "a", "b", 4.0).verdict == rules.FAILS      # the whole interval (2.44–3.69) below 4
    assert rules.less(s, "b", "a", 2.0).verdict == rules.HOLDS
    # every a above every b and the ratio 1.28 >= 1: the old rule said "holds"; three repetitions
    # this spread leave 1.0 inside the 95 % interval: inconclusive, with the rounds that would decide it
    near = {"a": [11.6, 13, 14.4], "b": [9, 10, 11.5]}
    v = rules.greater(near, "a", "b")
    assert v.verdict == INCONCLUSIVE == rules.INCONCLUSIVE, v
    assert v.low < 1.0 < v.high and v.needed is not None and v.needed > 3
    assert f"{v.needed} rounds" in v.why and "95 % interval" in v.why


def test_flat_is_an_equivalence_test():
    steady = {"x": [100, 101, 99], "y": [102, 103, 101], "z": [200, 202, 198]}
    v = rules.flat(steady, ["x", "y"])                     # 1.02, its 90 % interval inside 0.8–1.25
    assert v.verdict == rules.HOLDS and v.threshold == "0.8–1.25" and "90 % interval" in v.why
    assert rules.flat(steady, ["x", "y", "z"]).verdict == rules.FAILS   # z twice x: wholly outside
    # means 100 and 124 (1.24 <= 1.25: the old rule's "flat"); x is steady, y spreads: the interval
    # reaches above 1.25: not shown to be flat at this precision
    v = rules.flat({"x": [100, 100, 100], "y": [120, 124, 128]}, ["x", "y"])
    assert v.verdict == INCONCLUSIVE and v.low < 1.25 < v.high and v.effect == pytest.approx(1.24)
    wide = {"x": [100, 130, 80], "y": [110, 90, 140]}      # means 103 and 113: wider than the band
    assert rules.flat(wide, ["x", "y"]).verdict == INCONCLUSIVE


def test_at_most_and_about_are_equivalence_tests_too():
    s = {"one": [100, 101, 99], "same": [100, 102, 101], "fewer": [30, 31, 29], "more": [200, 210, 190]}
    assert rules.at_most(s, "same", "one").verdict == rules.HOLDS       # the 90 % interval below 1.25
    assert rules.at_most(s, "fewer", "one").verdict == rules.HOLDS      # falling is not increasing
    assert rules.at_most(s, "more", "one").verdict == rules.FAILS       # 2.0: wholly above 1.25
    assert rules.at_most({"a": [110, 140, 125], "b": [100, 101, 99]}, "a", "b").verdict == INCONCLUSIVE
    assert rules.about({"r": [0.9, 1.0, 1.1]}, "r", 1.0).verdict == rules.HOLDS
    assert rules.about({"r": [1.9, 2.0, 2.1]}, "r", 1.0).verdict == rules.FAILS
    v = rules.about({"r": [0.6, 1.0, 1.4]}, "r", 1.0)
    assert v.verdict == INCONCLUSIVE and v.threshold == "0.8–1.25"


def test_trend_needs_the_end_ratio_and_every_step():
    s = {"x": [100, 101, 99], "y": [150, 152, 148], "z": [300, 305, 295], "m": [149, 153, 151]}
    up = rules.trend(s, ["x", "y", "z"], up=True, factor=2.0)
    assert up.verdict == rules.HOLDS and "rises 3.00×" in up.why
    assert rules.trend(s, ["x", "z", "y"], up=True).verdict == rules.FAILS     # z → y falls
    assert rules.trend(s, ["z", "y", "x"], up=False, factor=1.5).verdict == rules.HOLDS
    v = rules.trend(s, ["x", "y", "m"], up=True)         # y → m: 0 % apart, below the smallest step that matters
    assert v.verdict == rules.FAILS and v.effect == pytest.approx(151 / 150)
    with rules.decided_by("interval"):                   # against 1.0 (the method before): undecided
        assert rules.trend(s, ["x", "y", "m"], up=True).verdict == INCONCLUSIVE


def test_all_of_holds_fails_or_is_inconclusive_and_shows_the_deciding_part():
    s = {"a": [30, 33, 36], "b": [10, 11, 12], "c": [11.6, 13, 14.4], "d": [9, 10, 11.5]}
    ok, bad, open_ = rules.greater(s, "a", "b", 2.0), rules.greater(s, "b", "a"), rules.greater(s, "c", "d")
    assert rules.all_of([ok, ok]).verdict == rules.HOLDS
    v = rules.all_of([ok, open_, bad])
    assert v.verdict == rules.FAILS and v.effect == bad.effect          # any part fails: fails
    v = rules.all_of([ok, open_])
    assert v.verdict == INCONCLUSIVE and (v.effect, v.low, v.high) == (open_.effect, open_.low, open_.high)
    assert rules.all_of([bad, rules.not_testable("why")]).verdict == rules.NOT_TESTABLE
    assert rules.pairwise_less(s, ["b", "a", "d", "c"]).verdict == INCONCLUSIVE


def test_too_few_repeats_stays_not_testable_and_carries_no_effect():
    v = rules.greater({"a": [30, 33], "b": [10, 11, 12]}, "a", "b")
    assert v.verdict == rules.NOT_TESTABLE and "a (n=2)" in v.why and math.isnan(v.effect)


def test_the_old_method_stays_callable():
    near = {"a": [11.6, 13, 14.4], "b": [9, 10, 11.5]}
    with rules.decided_by("v1"):
        assert rules.greater(near, "a", "b").verdict == rules.HOLDS     # ratio >= 1, repetitions apart
        assert rules.flat({"x": [100, 100, 100], "y": [120, 124, 128]}, ["x", "y"]).verdict == rules.HOLDS
    assert rules.greater(near, "a", "b").verdict == INCONCLUSIVE
    with pytest.raises(ValueError, match="no such decision method"):
        with rules.decided_by("v9"):
            pass


def test_the_verdict_word_and_the_findings_columns():
    assert INCONCLUSIVE == "inconclusive here" and INCONCLUSIVE in VERDICTS
    assert {"effect", "low", "high", "level", "rounds", "threshold", "verdict", "why"} <= set(findings.COLUMNS)


def test_the_method_change_is_recorded_with_the_verdicts_under_both():
    from engbench.findings import history
    assert history.METHOD_CHANGES[-1].new == rules.METHOD
    assert history.read_lock()["_method"] == rules.METHOD, \
        "the decision method changed without a history.MethodChange (and `python -m engbench.findings.history --lock`)"
    assert all(c.old in rules.METHODS for c in history.METHOD_CHANGES)


def test_the_findings_table_carries_the_effect_and_its_interval(tmp_path, monkeypatch):
    from engbench.findings import catalog
    from test_findings import _tables
    monkeypatch.setattr(catalog, "GATES", {})  # the rules alone here (the gates: test_regime.py)
    lsm = "wiredtiger-lsm"
    t = _tables({("repro_iibench_cache_large", lsm): [100, 104, 98], ("repro_iibench_cache_medium", lsm): [101, 99, 100],
                 ("repro_iibench_cache_small", lsm): [97, 103, 100]})
    row = findings.table(t, tmp_path).set_index("id").loc["003-lsm-rate-flat"]
    v = rules.flat({"a": [100, 104, 98], "b": [101, 99, 100], "c": [97, 103, 100]}, ["a", "b", "c"])
    assert row["verdict"] == v.verdict == rules.HOLDS
    assert (row["effect"], row["low"], row["high"], row["level"], row["rounds"], row["threshold"]) == \
        pytest.approx((v.effect, v.low, v.high, 0.90, 3, "0.8–1.25"))
    assert math.isnan(findings.table(t, tmp_path).set_index("id").loc["003-btree-rate-falls", "effect"])  # no runs


def test_the_papers_findings_table_shows_the_effect_and_the_method_rows():
    import pandas as pd
    from engbench.report import findings as report
    frame = pd.DataFrame([{"id": "x", "source": "000_a.txt", "words": "w", "metric": "m", "subject": "s", "gate": "",
                           "verdict": INCONCLUSIVE, "why": "", "effect": 2.18, "low": 1.22, "high": 3.26, "level": 0.95,
                           "rounds": 3, "threshold": "> 1.5", "rounds_needed": 4},
                          {"id": "y", "source": "000_a.txt", "words": "w", "metric": "m", "subject": "s", "gate": "",
                           "verdict": rules.NOT_TESTABLE, "why": "", "effect": math.nan, "low": math.nan,
                           "high": math.nan, "level": math.nan, "rounds": math.nan, "threshold": ""}])
    printed = report.summary_table(frame).printed
    assert list(printed["effect [interval]"]) == ["2.18 [1.22, 3.26] 95 %, n=3; n=4 would decide", "—"]
    assert list(printed["needs"]) == ["> 1.5", "—"]
    from engbench.findings import history
    methods = pd.DataFrame([{"id": "x", "old_method": "v1", "new_method": "interval", "old_verdict": rules.HOLDS,
                             "new_verdict": INCONCLUSIVE},
                            {"id": "y", "old_method": "v1", "new_method": "interval", "old_verdict": rules.HOLDS,
                             "new_verdict": rules.HOLDS}])
    tab = report.history_table(pd.DataFrame(columns=history.COLUMNS), methods)
    assert list(tab.printed["claim"]) == ["x"] and tab.printed["version"].iloc[0] == "method interval"
    assert "all 2 claims were judged under both" in tab.caption


def test_an_inconclusive_verdict_says_how_many_rounds_would_decide_it():
    near = {"a": [11.6, 13, 14.4], "b": [9, 10, 11.5]}
    v = rules.greater(near, "a", "b")
    assert rules.columns(v)["rounds_needed"] == v.needed == effects.rounds_needed(
        effects.ratio(near["a"], near["b"]), effects.Band(lo=1 + rules.SMALLEST_EFFECT, lo_open=True))
    assert math.isnan(rules.columns(rules.greater(near, "a", "b", 0.5))["rounds_needed"])  # decided: none
    assert "rounds_needed" in findings.COLUMNS


def test_any_of_and_at_least_leave_an_inconclusive_part_inconclusive():
    from engbench.rulebook import rules_extra
    s = {"a": [30, 33, 36], "b": [10, 11, 12], "c": [11.6, 13, 14.4], "d": [9, 10, 11.5]}
    ok, bad, open_ = rules.greater(s, "a", "b", 2.0), rules.greater(s, "b", "a"), rules.greater(s, "c", "d")
    assert rules_extra.any_of([open_, bad]).verdict == INCONCLUSIVE       # more rounds could make it hold
    assert rules_extra.any_of([open_, ok]).verdict == rules.HOLDS
    assert rules_extra.at_least([ok, open_, bad], 2).verdict == INCONCLUSIVE
    assert rules_extra.any_of([bad, rules.not_testable("x")]).verdict == rules.NOT_TESTABLE


# --- issue 43/44 follow-ups (H10): the smallest effect that matters, "not tested", rules_extra by interval

def test_a_bare_directional_claim_needs_the_smallest_effect_that_matters():
    """A bare "faster" / "more" holds only when the whole 95 % interval lies above 1 + SMALLEST_EFFECT
    (the machine's A/A spread) and does not hold when it lies wholly below it: no effect at all, or a
    0.3 % one, is refuted instead of "holds" on enough rounds or "inconclusive" for ever. Failed on
    d95b6d69 (no SMALLEST_EFFECT; 1.003 with a tight interval held)."""
    assert rules.SMALLEST_EFFECT == pytest.approx(0.10)
    tiny = {"a": [1003, 1004, 1002, 1003], "b": [1000, 1001, 999, 1000]}   # 1.003, interval ~1.001–1.005
    v = rules.greater(tiny, "a", "b")
    assert v.verdict == rules.FAILS and v.threshold == "> 1.1", v
    assert "smallest effect that matters" in v.why
    same = {"a": [100, 102, 98], "b": [101, 99, 100]}                    # no effect: refuted, not inconclusive
    assert rules.greater(same, "a", "b").verdict == rules.FAILS
    big = {"a": [130, 131, 129], "b": [100, 101, 99]}
    assert rules.greater(big, "a", "b").verdict == rules.HOLDS
    assert rules.less(big, "b", "a").verdict == rules.HOLDS
    # a stated factor is the claim's own and is kept as written (1.05 stays 1.05)
    assert rules.greater(tiny, "a", "b", 1.001).verdict == rules.HOLDS
    # the method before (interval against 1.0) stays callable for the rule history
    with rules.decided_by("interval"):
        assert rules.greater(tiny, "a", "b").verdict == rules.HOLDS


def test_not_tested_is_its_own_verdict_word():
    """"not tested": the claim could be tested but its quantity was not captured (distinct from "not
    testable"). Failed on d95b6d69 (no NOT_TESTED)."""
    from engbench.verdicts import NOT_TESTABLE, NOT_TESTED
    assert NOT_TESTED == "not tested" and NOT_TESTED in VERDICTS and NOT_TESTED != NOT_TESTABLE
    v = rules.not_tested("the size after the load was not captured; it needs a snapshot after the load")
    assert v.verdict == NOT_TESTED and math.isnan(rules.columns(v)["effect"])
    f = findings.table(findings.load()).set_index("id")
    assert f.loc["000-similar-space-after-load", "verdict"] == NOT_TESTED


def test_below_decides_by_the_mean_and_its_interval():
    """below(a, bound): the mean over the bound with its 95 % t interval; holds when wholly below 1,
    does not hold when wholly at or above it, else inconclusive; the effect is carried. Failed on
    d95b6d69 (every repetition under the bound, no effect)."""
    from engbench.rulebook import rules_extra as rx
    v = rx.below({"a": [1.0, 1.1, 0.9]}, "a", 2.0)
    assert v.verdict == rules.HOLDS and v.effect == pytest.approx(0.5) and v.high < 1 and v.threshold == "< 1"
    assert rx.below({"a": [3.0, 3.1, 2.9]}, "a", 2.0).verdict == rules.FAILS
    # one repetition above the bound, the mean's interval straddling it: the old rule said "does not hold"
    assert rx.below({"a": [1.0, 2.5, 1.6]}, "a", 2.0).verdict == INCONCLUSIVE
    assert rx.below({"a": [0, 0, 0]}, "a", 1e-3).verdict == rules.HOLDS


def test_any_of_and_at_least_carry_the_deciding_parts_effect():
    """Failed on d95b6d69 (empty effect column)."""
    from engbench.rulebook import rules_extra as rx
    s = {"a": [30, 33, 36], "b": [10, 11, 12], "c": [11.6, 13, 14.4], "d": [9, 10, 11.5]}
    ok, bad = rules.greater(s, "a", "b", 2.0), rules.greater(s, "b", "a")
    v = rx.any_of([bad, ok])
    assert v.verdict == rules.HOLDS and v.effect == ok.effect and (v.low, v.high) == (ok.low, ok.high)
    w = rx.any_of([bad, bad])
    assert w.verdict == rules.FAILS and w.effect == bad.effect
    u = rx.at_least([ok, bad, ok], 2)
    assert u.verdict == rules.HOLDS and u.effect == ok.effect and u.threshold
