"""How far the machine alone spreads repetitions: the same fixed work timed back to back for minutes,
then cut into windows as long as a run's measured window (issue 26's "repetitions within ±15 % of
their median": how much of a miss is the machine's, not the method's).

    window_rates(samples, seconds) -> [r_w]
        samples: (t_start, work, duration) per unit of fixed work, in time order;
        r_w = sum(work) / sum(duration) over the units that start in window w = floor((t - t0) / seconds),
        complete windows only (the last, partial one is dropped), and only those in which a unit
        started (units shorter than the window leave none empty)
    variation(rates) = stdev(rates) / mean(rates)          (sample stdev; NaN below 2 windows)
    within_fraction(rates, reps, bound)
        over every set of `reps` distinct windows: the fraction whose
        max_i |r_i / median(r) - 1| <= bound   (regime.reproduction_summary's spread, with windows
        standing in for repetitions)
    adjacent_ratios(rates) = [r_(w+1) / r_w]   the same work timed twice in a row, as one interleaved
        pair of a side-by-side benchmark (benchmarks/*.py) sees two equal clients: an A/A pair

A window's rate is work over time, not a mean of unit rates, so a slow unit counts for as long as it
took (as a run's rate counts its slow seconds). benchmarks/host_noise.py measures and prints these."""

from __future__ import annotations

import math
import statistics
from itertools import combinations, pairwise


def window_rates(samples, seconds: float) -> list[float]:
    """Work per second in consecutive windows of `seconds` (formula in the module docstring)."""
    if seconds <= 0:
        raise ValueError(f"window length must be > 0 s, got {seconds!r}")
    samples = list(samples)
    if not samples:
        return []
    t0 = samples[0][0]
    end = samples[-1][0] + samples[-1][2]
    complete = int((end - t0) // seconds)
    work, busy = [0.0] * complete, [0.0] * complete
    for t, w, d in samples:
        i = int((t - t0) // seconds)
        if i < complete:
            work[i] += w
            busy[i] += d
    return [w / d for w, d in zip(work, busy) if d > 0]


def variation(rates) -> float:
    """Coefficient of variation of the window rates."""
    rates = list(rates)
    if len(rates) < 2:
        return math.nan
    return statistics.stdev(rates) / statistics.fmean(rates)


def within_fraction(rates, reps: int = 3, bound: float = 0.15) -> float:
    """Of every `reps` distinct windows, the fraction within ±bound of their median."""
    rates = list(rates)
    if reps < 2 or len(rates) < reps:
        return math.nan
    sets = list(combinations(rates, reps))
    ok = 0
    for group in sets:
        med = statistics.median(group)
        ok += max(abs(r / med - 1) for r in group) <= bound
    return ok / len(sets)


def adjacent_ratios(rates) -> list[float]:
    """Each window's rate over the one before it: the pair ratios of two equal clients timed one
    after the other."""
    rates = list(rates)
    return [b / a for a, b in pairwise(rates) if a > 0]
