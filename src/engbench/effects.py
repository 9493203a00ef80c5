"""Effects and their intervals: the statistics behind every comparison verdict (rulebook.rules) and
the peer benchmarks' pair ratios (peers.rates), in one place, on scipy.stats.

    ratio(a, b, level) -> Interval           mean(a) / mean(b) with Fieller's interval
    scaled_mean(a, scale, level) -> Interval mean(a) / scale with Student's t interval
    Band(lo, hi, ...) and decide(iv, band)   "holds" / "fails" / "inconclusive": where the interval lies
    rounds_needed(iv, band) -> int | None    repetitions per side that would decide it
    median_interval(xs, confidence)          a distribution-free interval for a median (order statistics)

Why Fieller and not the bootstrap: a claim compares 3–5 repetitions a side. A bootstrap over 3
values has 10 distinct resamples per side and its percentile (or BCa) interval is known to cover far
less than it says at such n; Fieller's interval is exact for normal repetitions at any n and widens
honestly through the t quantile. For a = a_1..a_na and b = b_1..b_nb (independent):

    ā, b̄ the means, v_a = s_a² / n_a, v_b = s_b² / n_b (s² with n − 1), ρ̂ = ā / b̄
    df = (v_a + ρ̂² v_b)² / (v_a² / (n_a − 1) + ρ̂⁴ v_b² / (n_b − 1))   (Welch–Satterthwaite for ā − ρ b̄
         at ρ = ρ̂: 2(n − 1) when both sides spread alike relative to their means, n − 1 when one dominates)
    t = t_{(1 + level) / 2, df},   g = t² v_b / b̄²
    [low, high] = [ρ̂ ∓ (t / |b̄|) √(v_a + ρ̂² v_b − g v_a)] / (1 − g)

(the ρ with (ā − ρ b̄)² ≤ t² (v_a + ρ² v_b)). g ≥ 1 (b̄ not told from 0): that set is the whole
line, or everything outside the two roots of the same formula, one negative and one positive (when ā
is told from 0: ā² > t² v_a); where no value is negative (a rate, a count, a size) the ratio cannot
be, and the interval is [the positive root, inf); otherwise (−inf, inf). No spread on either side: [ρ̂, ρ̂]. b̄ = 0 with every b 0: +inf when a's t interval lies
above 0 (−inf below), else unbounded; both sides all 0: 1 (equal).

Decisions (decide): a claim names the side of a threshold, or a band, its effect must lie on.
Directional claims ("greater", "faster", a trend) use the 95 % interval: holds when it lies wholly on
the claim's side, does not hold when wholly on the other, else inconclusive. Equivalence claims
("flat", "similar", "about N", "does not grow") use the 90 % interval: two one-sided tests at 5 %
(Schuirmann 1987) hold exactly when the 90 % interval lies inside the band; the claim does not hold
when that interval lies wholly outside it.

Rounds needed (rounds_needed), for an inconclusive verdict: the interval's half-width at n
repetitions per side, at the measured coefficients of variation cv_i = s_i / |mean_i|, is about

    h(n) = t_{(1 + level) / 2, k (n − 1)} · |ρ̂| · √(Σ cv_i² / n)        (k sides: 2, or 1 for a mean)

and the verdict is decided once h(n) < d, d the distance from ρ̂ to the nearest finite edge of the
band: the smallest such n above the current one (None: d = 0, or more than MAX_ROUNDS)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import stats

DIRECTIONAL, EQUIVALENCE = 0.95, 0.90   # the interval's level for each kind of claim
MAX_ROUNDS = 10_000
HOLDS, FAILS, INCONCLUSIVE = "holds", "fails", "inconclusive"


class Interval(NamedTuple):
    """An effect with its interval at `level`; n: repetitions per side (the fewest), cvs: each
    side's coefficient of variation, k: sides (2 for a ratio of means, 1 for a mean)."""
    effect: float
    low: float
    high: float
    level: float
    n: int
    cvs: tuple
    k: int = 2


@dataclass(frozen=True)
class Band:
    """Where a claim's effect must lie: lo < x (lo_open) or lo <= x, and x <= hi (or < hi when
    hi_open). `text` as printed: "> 1.5", "<= 1.25", "0.800–1.25"."""
    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False

    def text(self) -> str:
        if math.isinf(self.hi):
            return f"{'>' if self.lo_open else '>='} {self.lo:.3g}"
        if math.isinf(self.lo):
            return f"{'<' if self.hi_open else '<='} {self.hi:.3g}"
        return f"{self.lo:.3g}–{self.hi:.3g}"

    def above_lo(self, x: float) -> bool:
        return x > self.lo if self.lo_open else x >= self.lo

    def below_hi(self, x: float) -> bool:
        return x < self.hi if self.hi_open else x <= self.hi


def _moments(xs) -> tuple:
    x = np.asarray(xs, dtype=float)
    return float(x.mean()), (float(x.var(ddof=1)) if len(x) > 1 else 0.0), len(x)


def _cv(mean: float, var: float) -> float:
    return math.sqrt(var) / abs(mean) if mean else (0.0 if var == 0 else math.inf)


def scaled_mean(xs, scale: float = 1.0, level: float = EQUIVALENCE) -> Interval:
    """mean(xs) / scale with Student's t interval: (x̄ ± t_{(1+level)/2, n−1} · s / √n) / scale."""
    m, var, n = _moments(xs)
    half = float(stats.t.ppf((1 + level) / 2, n - 1)) * math.sqrt(var / n) if var > 0 else 0.0
    lo, hi = sorted(((m - half) / scale, (m + half) / scale))
    return Interval(m / scale, lo, hi, level, n, (_cv(m, var),), k=1)


def ratio(a, b, level: float = DIRECTIONAL) -> Interval:
    """mean(a) / mean(b) with Fieller's interval at `level` (module docstring: the formula)."""
    ma, va_s2, na = _moments(a)
    mb, vb_s2, nb = _moments(b)
    va, vb = va_s2 / na, vb_s2 / nb
    n, cvs = min(na, nb), (_cv(ma, va_s2), _cv(mb, vb_s2))
    if mb == 0:
        if vb > 0:
            return Interval(math.nan, -math.inf, math.inf, level, n, cvs)
        if ma == 0 and va == 0:
            return Interval(1.0, 1.0, 1.0, level, n, cvs)
        m = scaled_mean(a, 1.0, level)
        ends = math.inf if m.low > 0 else (-math.inf if m.high < 0 else math.nan)
        eff = math.copysign(math.inf, ma) if ma else math.nan
        return Interval(eff, ends if ends == ends else -math.inf, ends if ends == ends else math.inf, level, n, cvs)
    rho = ma / mb
    spread = va + rho ** 2 * vb
    if spread == 0:
        return Interval(rho, rho, rho, level, n, cvs)
    df = spread ** 2 / ((va ** 2 / (na - 1) if va else 0.0) + (rho ** 4 * vb ** 2 / (nb - 1) if vb else 0.0))
    t = float(stats.t.ppf((1 + level) / 2, df))
    g = t ** 2 * vb / mb ** 2
    if g >= 1:
        disc = spread - g * va
        positive = min(min(a), min(b)) >= 0 and ma ** 2 > t ** 2 * va and disc >= 0
        roots = [(rho + sign * t / abs(mb) * math.sqrt(max(disc, 0.0))) / (1 - g) for sign in (-1, 1)]
        low = max(roots) if positive else -math.inf
        return Interval(rho, low if low > 0 else -math.inf, math.inf, level, n, cvs)
    half = t / abs(mb) * math.sqrt(spread - g * va)
    lo, hi = sorted(((rho - half) / (1 - g), (rho + half) / (1 - g)))
    return Interval(rho, lo, hi, level, n, cvs)


def decide(iv: Interval, band: Band) -> str:
    """HOLDS when [low, high] lies inside the band, FAILS when it lies wholly outside, else
    INCONCLUSIVE (an unbounded or NaN interval included)."""
    if any(math.isnan(x) for x in (iv.low, iv.high)):
        return INCONCLUSIVE
    if band.above_lo(iv.low) and band.below_hi(iv.high):
        return HOLDS
    if not band.above_lo(iv.high) or not band.below_hi(iv.low):
        return FAILS
    return INCONCLUSIVE


def distance(effect: float, band: Band) -> float:
    """|effect − the nearest finite edge of the band| (inf when the band has none or effect is inf)."""
    edges = [e for e in (band.lo, band.hi) if math.isfinite(e)]
    if not edges or not math.isfinite(effect):
        return math.inf
    return min(abs(effect - e) for e in edges)


def rounds_needed(iv: Interval, band: Band, cap: int = MAX_ROUNDS) -> int | None:
    """The smallest n > iv.n with h(n) < d (module docstring); None when no n up to `cap` does
    (the effect on the threshold, an infinite effect or spread)."""
    d = distance(iv.effect, band)
    s2 = sum(c ** 2 for c in iv.cvs)
    if not (d > 0 and math.isfinite(d)) or not math.isfinite(s2) or not math.isfinite(iv.effect):
        return None
    ns = np.arange(max(iv.n, 1) + 1, cap + 1)
    h = stats.t.ppf((1 + iv.level) / 2, iv.k * (ns - 1)) * abs(iv.effect) * np.sqrt(s2 / ns)
    ok = np.nonzero(h < d)[0]
    return int(ns[ok[0]]) if len(ok) else None


def _numbers(xs) -> list:
    """xs without None and NaN."""
    return [x for x in xs if x is not None and not math.isnan(x)]


def median_interval(xs: list, confidence: float = 0.90) -> tuple:
    """(low, high, coverage): a distribution-free interval for the median of the pairs' ratios,
    from their order statistics. With n sorted ratios x(1) ≤ … ≤ x(n), [x(k), x(n+1−k)] misses the
    true median only if at most k − 1 ratios fall below it or at most k − 1 above, so its coverage
    is 1 − 2·P(B ≤ k − 1), B ~ Binomial(n, ½) (summed exactly, in integers): the largest k whose coverage is
    still ≥ `confidence` is taken (k = 1, [min, max], when even that falls short; its coverage says
    so: 75 % for 3 pairs, 93.75 % for 5). NaN and None are left out; (nan, nan, nan) without a ratio."""
    xs = sorted(_numbers(xs))
    n = len(xs)
    if not n:
        return float("nan"), float("nan"), float("nan")

    def cover(k: int) -> float:
        return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n

    k = 1
    while k + 1 <= (n + 1) // 2 and cover(k + 1) >= confidence:
        k += 1
    return xs[k - 1], xs[n - k], cover(k)


__all__ = ["Interval", "Band", "ratio", "scaled_mean", "decide", "distance", "rounds_needed", "median_interval",
           "DIRECTIONAL", "EQUIVALENCE", "HOLDS", "FAILS", "INCONCLUSIVE", "MAX_ROUNDS"]
