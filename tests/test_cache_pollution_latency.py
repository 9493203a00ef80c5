"""004-read-throughput-unchanged ("Using read_once=true cursors has shown to provide no performance
benefits yet") on the hot reads' latency during the cold pass: the readers are paced (target_rate
2,500 reads/s), so both files read ~2,500/s by construction and reads/s cannot tell them apart; a
paced client's latency is the service it gets.

measure.DERIVED["cp_get_latency_us_during"], hand-computed: the request-weighted mean of the get
intervals' latency_us_mean whose [t_start, t_end] lies within [cold_start_unix_s, cold_end_unix_s]:
intervals 10-11 (100 requests, 40 us) and 11-12 (300, 20 us) are inside [10, 12]; 9-10 and 12-13 and
the cold_index interval are not: (100 x 40 + 300 x 20) / 400 = 25 us."""

import math

import pandas as pd

from engbench.findings.catalog import FINDINGS
from engbench.verdicts import FAILS, HOLDS
from engbench.rulebook import measure


def _tables():
    iv = pd.DataFrame({
        "run_id": ["r"] * 5, "op": ["get", "get", "get", "get", "cold_index"],
        "t_start_unix_s": [9.0, 10.0, 11.0, 12.0, 10.0], "t_end_unix_s": [10.0, 11.0, 12.0, 13.0, 11.0],
        "warmup": [0] * 5, "requests": [1000, 100, 300, 1000, 1],
        "latency_us_mean": [1.0, 40.0, 20.0, 1.0, 9e6]})
    cp = pd.DataFrame({"run_id": ["r"], "cold_start_unix_s": [10.0], "cold_end_unix_s": [12.0]})
    return {"intervals": iv, "cache_pollution": cp}


def test_hot_read_latency_during_the_pass_hand_computed():
    assert measure.DERIVED["cp_get_latency_us_during"](_tables(), "r") == 25.0
    assert math.isnan(measure.DERIVED["cp_get_latency_us_during"](_tables(), "other"))


def _finding():
    return next(f for f in FINDINGS if f.id == "004-read-throughput-unchanged")


def test_the_claim_is_judged_on_hot_read_latency():
    f = _finding()
    assert {p.value for p in f.picks} == {"cp_get_latency_us_during"}


def _samples(true_us, false_us):
    f = _finding()
    lab = {("true" in p.experiment.rsplit("_", 1)[-1]): p.label for p in f.picks}
    return {lab[True]: true_us, lab[False]: false_us}


def test_fails_when_read_once_serves_the_hot_reads_faster():
    """Made up: read_once's hot reads take half as long (a performance benefit): the claim fails."""
    v = _finding().rule(_samples([10.0, 11.0, 10.5, 10.2, 9.8], [20.0, 21.0, 20.5, 19.8, 20.2]))
    assert v.verdict == FAILS, v


def test_holds_when_read_once_is_no_faster():
    """Made up: read_once's hot reads as slow as without, or slower: no benefit, the claim holds."""
    same = _finding().rule(_samples([20.0, 21.0, 20.5, 19.8, 20.2], [20.1, 20.9, 20.4, 19.9, 20.3]))
    slower = _finding().rule(_samples([40.0, 41.0, 40.5, 39.8, 40.2], [20.1, 20.9, 20.4, 19.9, 20.3]))
    assert same.verdict == HOLDS and slower.verdict == HOLDS, (same, slower)


def test_hot_kept_is_not_tested_under_paced_readers():
    """004-hot-kept-without-read-once ("Maybe the high rate of activity on the hot collection keeps it in
    cache"): the readers' rate is fixed (paced) and the runs are gated on >= 25 % of the hot bytes lost,
    which leaves after / before <= 0.75, before / after >= 1.33 > 1.25: the old flat rule was decided by the
    gate. Made up, hot bytes kept (1.00 GB before, 0.99 after): the old rule held on it; now not tested,
    naming the experiment it needs."""
    from engbench.verdicts import NOT_TESTED
    from engbench.workloads.cache_pollution import findings as cpf
    f = next(f for f in FINDINGS if f.id == "004-hot-kept-without-read-once")
    kept = {cpf._HOTKEPT[0].label: [1.00e9, 1.01e9, 0.99e9], cpf._HOTKEPT[1].label: [0.99e9, 1.00e9, 0.98e9]}
    v = f.rule(kept)
    assert v.verdict == NOT_TESTED and "closed-loop" in v.why and f.picks == ()
    assert 1 / (1 - 0.25) > 1.25   # the gate's edge is outside the old rule's band
