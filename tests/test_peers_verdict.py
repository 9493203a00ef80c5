"""The peers' verdicts (engbench.peers.verdict; issue 44 item 5): the wording of a ratio's
interval against the parity band [0.95, 1.05], Fieller's interval over the pairs (hand-computed),
the pairs' order drawn from a recorded seed; and that each peer script's --help works (no
measurement: the scripts need servers and peers this session does not run)."""

import math
import subprocess
import sys

import pytest

from engbench.peers import verdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("low, high, word", [
    (1.06, 1.20, "ahead"),            # wholly above 1.05
    (1.05, 1.20, "inconclusive"),     # touches 1.05: not wholly above
    (0.95, 1.05, "at parity"),        # inside [0.95, 1.05], edges included
    (0.97, 1.01, "at parity"),
    (0.80, 0.94, "behind"),           # wholly below 0.95
    (0.80, 0.95, "inconclusive"),
    (0.90, 1.10, "inconclusive"),     # straddles the band
    (0.96, 1.06, "inconclusive"),     # leaves the band on one side only
    (1.02, math.inf, "inconclusive"),
    (math.nan, math.nan, "inconclusive"),
])
def test_reading_of_an_interval(low, high, word):
    assert verdict.reading(low, high) == word


def test_the_ratio_of_means_over_the_pairs_by_hand():
    # a = 10, 12, 14 (mean 12, s² 4, v_a 4/3); b = 10, 10, 10 (no spread): ρ̂ 1.2, df 2, g 0,
    # half = t(0.975, 2) · √(4/3) / 10 = 4.302653 · 1.154701 / 10 = 0.496827
    iv = verdict.ratio_interval([10, 12, 14], [10, 10, 10])
    assert (iv.effect, iv.level, iv.n) == (pytest.approx(1.2), 0.95, 3)
    assert (iv.low, iv.high) == (pytest.approx(0.703173, abs=1e-6), pytest.approx(1.696827, abs=1e-6))
    assert verdict.row(iv) == "1.20 [0.70, 1.70] 95 %, 3 pairs: inconclusive"
    assert verdict.row(iv, word=False) == "1.20 [0.70, 1.70] 95 %, 3 pairs"  # CPU, work per op: no word
    # 11.9, 12, 12.1 (s² 0.01): half = 4.302653 · √(0.01/3) / 10 = 0.024841 → [1.1752, 1.2248]: ahead
    iv = verdict.ratio_interval([11.9, 12, 12.1], [10, 10, 10])
    assert (iv.low, iv.high) == (pytest.approx(1.175159, abs=1e-6), pytest.approx(1.224841, abs=1e-6))
    assert verdict.row(iv) == "1.20 [1.18, 1.22] 95 %, 3 pairs: ahead"
    # a pair with a side missing (None, NaN, a 0 peer) is left out of both sides
    iv = verdict.ratio_interval([10, 12, 14, 99, 7], [10, 10, 10, None, 0])
    assert (iv.n, iv.effect) == (3, pytest.approx(1.2))
    assert verdict.row(verdict.ratio_interval([], [])) == "- (no pair)"


def test_the_order_of_each_pair_is_drawn_from_a_recorded_seed():
    sides = ("peer", "engbench")
    a = verdict.pair_orders(7, 12, sides)
    assert a == verdict.pair_orders(7, 12, sides)                   # the seed gives the order again
    assert all(sorted(p) == sorted(sides) for p in a) and len(a) == 12
    assert {p[0] for p in a} == set(sides)                          # both sides go first at some pair
    assert len({tuple(verdict.pair_orders(s, 12, sides)) for s in range(6)}) > 1  # other seeds, other orders
    assert verdict.pair_orders(7, 5, sides) == a[:5]                # more pairs keep the first ones


@pytest.mark.parametrize("script", ["bench_peers.py", "bench_sysbench.py", "driver_bench.py"])
def test_each_peer_script_says_its_help(script):
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / script), "--help"], capture_output=True,
                         text=True, cwd=REPO / "benchmarks", timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--seed" in out.stdout


def test_bench_peers_without_a_peer_says_what_is_missing():
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_peers.py"), "--seed", "5"],
                         capture_output=True, text=True, cwd=REPO / "benchmarks", timeout=60)
    assert out.returncode == 0 and "nothing to compare" in out.stdout, out.stderr
