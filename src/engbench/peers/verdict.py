"""How a peer comparison reads (issue 44 item 5): engbench's figure over a peer's, over interleaved
pairs whose order is drawn from a recorded seed, as an effect with an interval and one word.

    pair_orders(seed, n, sides) -> [(first, second), ...]   each pair's order: numpy's default_rng
                                                             of [seed, i] permutes the two sides
    ratio_interval(ours, peers) -> effects.Interval          mean(ours) / mean(peers), Fieller's 95 %
    reading(low, high) -> str                                the word for an interval
    row(iv) -> str                                           "1.20 [1.18, 1.22] 95 %, 3 pairs: ahead"
    new_seed() -> int                                        a seed for a new comparison (printed, recorded)

The words, against the parity band [0.95, 1.05] (PARITY; a ratio engbench / peer, higher = engbench
faster for a rate):

    ahead          low > 1.05             (the whole interval above the band)
    at parity      0.95 <= low, high <= 1.05   (the whole interval inside it)
    behind         high < 0.95            (the whole interval below it)
    inconclusive   anything else (the interval leaves the band on one side only, straddles it,
                   is unbounded or undefined): more pairs would be needed to say

Which interval: Fieller's interval for the ratio of the two sides' means over the pairs
(engbench.effects.ratio at 95 %), not the distribution-free interval of the median pair ratio
(effects.median_interval). At the 3-5 pairs these scripts run, the median's interval is
[min, max] of the ratios and covers only 75 % (3 pairs) or 93.75 % (5): it cannot reach a stated
95 %, and a word read from it would be claimed more firmly than the data allow. Fieller's interval
holds its level at any n for normal repetitions and widens through the t quantile as the pairs
disagree (the rulebook's verdicts use the same one: effects' docstring). The pairing is used by
the design, not the formula: both sides of a pair run back to back in a seeded order, so a slow
spell of the machine falls on both sides alike (Abedi & Brecht, ICPE 2017); treating the two sides
as independent samples ignores the positive covariance this leaves, which only makes the interval
wider (conservative). One interval, at 95 %, gives all three words: "at parity" read from it is
stricter than the rulebook's equivalence test (two one-sided tests on the 90 % interval).

A pair missing either figure (None, NaN, a peer figure of 0) is left out of both sides.
"""

from __future__ import annotations

import math
import secrets

import numpy as np

from .. import effects

PARITY = (0.95, 1.05)
LEVEL = effects.DIRECTIONAL  # 0.95
AHEAD, AT_PARITY, BEHIND, INCONCLUSIVE = "ahead", "at parity", "behind", "inconclusive"


def new_seed() -> int:
    return secrets.randbits(32)


def pair_orders(seed: int, n: int, sides: tuple = ("peer", "engbench")) -> list[tuple]:
    """The order of each of `n` pairs: pair i runs `sides` permuted by numpy.random.default_rng([seed, i]),
    so a pair's order depends only on the seed and its number (more pairs keep the first ones)."""
    return [tuple(sides[j] for j in np.random.default_rng([int(seed), i]).permutation(len(sides)))
            for i in range(n)]


def _ok(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def ratio_interval(ours: list, peers: list, level: float = LEVEL) -> effects.Interval:
    """mean(ours) / mean(peers) over the pairs with both figures (a peer of 0 left out), with
    Fieller's interval at `level` (engbench.effects.ratio); n = the pairs used. No pair: NaN."""
    kept = [(o, p) for o, p in zip(ours, peers) if _ok(o) and _ok(p) and p]
    if not kept:
        return effects.Interval(math.nan, math.nan, math.nan, level, 0, ())
    return effects.ratio([o for o, _ in kept], [p for _, p in kept], level)


def reading(low: float, high: float, band: tuple = PARITY) -> str:
    """The word for an interval [low, high] of engbench / peer (module docstring)."""
    if any(x is None or math.isnan(x) for x in (low, high)):
        return INCONCLUSIVE
    lo, hi = band
    if low > hi:
        return AHEAD
    if high < lo:
        return BEHIND
    if lo <= low and high <= hi:
        return AT_PARITY
    return INCONCLUSIVE


def row(iv: effects.Interval, word: bool = True) -> str:
    """An interval and its word as the scripts print them; "- (no pair)" without a pair. `word`
    False for a figure where higher is not better (CPU or server work per operation): the interval
    alone."""
    if iv.n == 0:
        return "- (no pair)"
    return (f"{iv.effect:.2f} [{iv.low:.2f}, {iv.high:.2f}] {iv.level:.0%}".replace("%", " %")
            + f", {iv.n} pairs" + (f": {reading(iv.low, iv.high)}" if word else ""))


__all__ = ["new_seed", "pair_orders", "ratio_interval", "reading", "row", "PARITY", "AHEAD", "AT_PARITY", "BEHIND", "INCONCLUSIVE"]
