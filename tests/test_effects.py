"""engbench.effects: Fieller's interval for a ratio of means, the t interval of a mean, the decision
by where an interval lies, the rounds that would decide an inconclusive one, and the peers'
distribution-free median interval (moved here from peers.rates) — each against a hand computation."""

import math

import pytest

from engbench import effects
from engbench.peers import rates


def test_fieller_interval_of_a_ratio_of_means_by_hand():
    # a = 10, 12, 14: mean 12, s² 4, v_a = 4/3; b = 5, 6, 7: mean 6, s² 1, v_b = 1/3; ρ̂ = 2
    # Welch df: (v_a + ρ̂² v_b)² / (v_a²/2 + ρ̂⁴ v_b²/2) = (8/3)² / (16/9) = 4; t(0.975, 4) = 2.776445
    # g = t² v_b / b̄² = 7.708647 / 3 / 36 = 0.0713764
    # half = t / b̄ · √(v_a + ρ̂² v_b − g v_a) = 0.4627408 · √(8/3 − 0.0951685) = 0.4627408 · 1.6035900
    t, va, vb = 2.776445, 4 / 3, 1 / 3
    g = t * t * vb / 36
    half = t / 6 * math.sqrt(va + 4 * vb - g * va)
    iv = effects.ratio([10, 12, 14], [5, 6, 7])
    assert iv.effect == 2.0 and iv.n == 3 and iv.level == 0.95
    assert (iv.low, iv.high) == pytest.approx(((2 - half) / (1 - g), (2 + half) / (1 - g)), rel=1e-6)
    assert (iv.low, iv.high) == pytest.approx((1.35464, 2.95281), abs=1e-4)
    # no spread in b: df = n_a − 1 = 2, g = 0, the t interval of ā over b̄: 2.4 ± 4.302653 · √(4/3) / 5
    iv = effects.ratio([10, 12, 14], [5, 5, 5])
    assert (iv.low, iv.high) == pytest.approx((2.4 - 0.993655, 2.4 + 0.993655), abs=1e-5)
    # no spread at all: the point; b all 0: infinite when a lies above 0; both all 0: equal
    assert effects.ratio([3, 3, 3], [2, 2, 2])[:3] == (1.5, 1.5, 1.5)
    assert effects.ratio([4, 5, 6], [0, 0, 0]).low == math.inf
    assert effects.ratio([0, 0, 0], [0, 0, 0])[:3] == (1.0, 1.0, 1.0)
    # b̄ not told from 0 (g >= 1): unbounded when b can be negative; with no negative value (a rate,
    # a count) the ratio cannot be, and the set outside the roots leaves [positive root, inf): the
    # root is where (ā − ρ b̄)² = t² (v_a + ρ² v_b). b = 1.5, 3, 6: b̄ 3.5, v_b = 5.25 / 3 = 1.75
    iv = effects.ratio([10, 11, 12], [-1, 0.5, 2])
    assert (iv.low, iv.high) == (-math.inf, math.inf)
    a, b = [5.0e6, 5.1e6, 4.9e6], [1.5, 3, 6]
    iv = effects.ratio(a, b)
    va, vb, rho = 0.01e12 / 3, 1.75, 5.0e6 / 3.5
    df = (va + rho ** 2 * vb) ** 2 / (va ** 2 / 2 + rho ** 4 * vb ** 2 / 2)
    t = __import__("scipy.stats", fromlist=["t"]).t.ppf(0.975, df)
    assert t * t * vb / 3.5 ** 2 > 1 and 0 < iv.low < rho and iv.high == math.inf
    assert (5.0e6 - iv.low * 3.5) ** 2 == pytest.approx(t * t * (va + iv.low ** 2 * vb), rel=1e-9)


def test_t_interval_of_a_scaled_mean_by_hand():
    # 0.9, 1.0, 1.1: mean 1.0, s 0.1; 90 %: t(0.95, 2) = 2.919986 · 0.1 / √3 = 0.168585; over 2: halved
    iv = effects.scaled_mean([0.9, 1.0, 1.1], 2.0)
    assert iv.effect == pytest.approx(0.5) and iv.k == 1
    assert (iv.low, iv.high) == pytest.approx(((1 - 0.168585) / 2, (1 + 0.168585) / 2), abs=1e-6)


def test_decide_by_where_the_interval_lies():
    iv = lambda lo, hi: effects.Interval(1.0, lo, hi, 0.95, 3, (0.1, 0.1))  # noqa: E731
    more = effects.Band(lo=1.5, lo_open=True)                  # "at least 1.5×": > 1.5
    assert effects.decide(iv(1.6, 2.0), more) == effects.HOLDS
    assert effects.decide(iv(1.0, 1.5), more) == effects.FAILS  # on the threshold is not beyond it
    assert effects.decide(iv(1.4, 1.9), more) == effects.INCONCLUSIVE
    flat = effects.Band(0.8, 1.25)
    assert effects.decide(iv(0.9, 1.2), flat) == effects.HOLDS
    assert effects.decide(iv(1.3, 1.6), flat) == effects.FAILS
    assert effects.decide(iv(1.1, 1.3), flat) == effects.INCONCLUSIVE
    assert effects.decide(iv(0.5, 1.5), flat) == effects.INCONCLUSIVE  # wider than the band: untested here
    assert effects.decide(iv(-math.inf, math.inf), more) == effects.INCONCLUSIVE
    assert (more.text(), effects.Band(hi=1.25).text(), flat.text()) == ("> 1.5", "<= 1.25", "0.8–1.25")


def test_rounds_needed_by_hand():
    # effect 1.2 against the threshold 1.1 (d = 0.1), both sides at CV 10 %, 95 %:
    # h(n) = t(0.975, 2(n − 1)) · 1.2 · √(0.02 / n); n = 12: 2.073873 · 1.2 · 0.0408248 = 0.10160 (> 0.1)
    # n = 13: t(0.975, 24) = 2.063899: 2.063899 · 1.2 · 0.0392232 = 0.09714 (< 0.1): 13 rounds
    iv = effects.Interval(1.2, 1.0, 1.4, 0.95, 3, (0.1, 0.1))
    band = effects.Band(lo=1.1, lo_open=True)
    assert effects.rounds_needed(iv, band) == 13
    assert effects.rounds_needed(effects.Interval(1.1, 1.0, 1.2, 0.95, 3, (0.1, 0.1)), band) is None  # on it
    # a band: the nearer edge decides (1.2 in 0.8–1.25: d = 0.05), one side (a mean): k = 1
    one = effects.Interval(1.2, 1.0, 1.4, 0.90, 3, (0.1,), k=1)
    n = effects.rounds_needed(one, effects.Band(0.8, 1.25))
    t = lambda q, df: __import__("scipy.stats", fromlist=["t"]).t.ppf(q, df)  # noqa: E731
    assert t(0.95, n - 1) * 1.2 * math.sqrt(0.01 / n) < 0.05 <= t(0.95, n - 2) * 1.2 * math.sqrt(0.01 / (n - 1))


def test_median_interval_moved_here_and_the_peers_use_it():
    assert rates.median_interval is effects.median_interval
    assert effects.median_interval([0.70, 1.02, 0.96, 0.81, 1.15]) == (0.70, 1.15, 0.9375)
    assert effects.median_interval([1.1, float("nan"), 0.9, 1.0]) == (0.9, 1.1, 0.75)
