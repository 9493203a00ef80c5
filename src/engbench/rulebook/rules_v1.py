"""The decision method of the findings until 2026-11-29 ("v1"), kept callable so the rule history
(engbench.findings.history.METHOD_CHANGES) shows every verdict under it beside the verdict under the
interval method that replaced it (rules.py; rules.decided_by("v1") routes the rules here). Unchanged
but for this paragraph and the verdict word list: the ratio of the means against the factor, and for
"more" every repetition of one side beyond every repetition of the other.

Verdict rules: pure functions from measured samples to a verdict and the reason for it.

A sample is the list of one value per repetition of one configuration (an experiment file and an
engine; `measure.py`). Every rule first asks for at least MIN_REPEATS values in every sample it
compares; with fewer the verdict is NOT_TESTABLE ("too few repeats"), never a guess. Then:

    greater(a, b, factor):  HOLDS  iff  mean(a) >= factor * mean(b)  and  min(a) > max(b)
                            (the ratio of the means is large enough and the spreads of the
                            repetitions do not overlap: every repetition of a beat every one of b)
    flat(samples, tol):     HOLDS  iff  max(means) <= (1 + tol) * min(means)
    at_most(a, b, factor):  HOLDS  iff  mean(a) <= factor * mean(b)       ("does not increase")
    trend(samples, up, factor):
                            HOLDS  iff  the means move in one direction at every step (up: each
                            mean > the previous; down: each <), last/first >= factor (up) or
                            first/last >= factor (down), and the first and last spreads do not
                            overlap
    about(a, target, tol):  HOLDS  iff  target / tol <= mean(a) <= target * tol
    all_of(results):        HOLDS iff every part holds; NOT_TESTABLE if any part is not testable
    pairwise_less(labels):  all_of(less(labels[0], labels[1]), less(labels[2], labels[3]), ...)

The words of the source documents map onto factors by one convention, used by every finding:
"faster/more/worse" (no qualifier) is factor 1.0; "much" 1.5; "huge", "twice" 2.0; "insensitive",
"does not grow", "no change" is flat within 25 % (the spread of a 20-second run on a shared
2-core machine is ~10-20 %); "about N" is N within a factor 1.25. The verdict words are
engbench.verdicts', shared with the published checks; its docstring sets both sets of tolerances
side by side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..verdicts import FAILS, HOLDS, NOT_TESTABLE  # the one vocabulary (engbench.verdicts)

MIN_REPEATS = 3


@dataclass(frozen=True)
class Verdict:
    verdict: str
    why: str


def mean(xs) -> float:
    return sum(xs) / len(xs)


def spread(xs) -> str:
    """"mean (min–max, n)" as printed in the findings table, 3 significant digits."""
    return f"{_g(mean(xs))} ({_g(min(xs))}–{_g(max(xs))}, n={len(xs)})"


def _g(x: float) -> str:
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    digits = max(0, 2 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{digits}f}"


def _short(samples: dict) -> Verdict | None:
    bad = [f"{k} (n={len(v)})" for k, v in samples.items() if len(v) < MIN_REPEATS]
    if bad:
        return Verdict(NOT_TESTABLE, f"too few repeats (needs {MIN_REPEATS}): {', '.join(bad)}")
    return None


def greater(samples: dict, a: str, b: str, factor: float = 1.0) -> Verdict:
    """mean(a) >= factor × mean(b) and min(a) > max(b)."""
    short = _short({a: samples.get(a, []), b: samples.get(b, [])})
    if short:
        return short
    xa, xb = samples[a], samples[b]
    ratio = mean(xa) / mean(xb) if mean(xb) else math.inf
    apart = min(xa) > max(xb)
    ok = ratio >= factor and apart
    why = f"{a} / {b} = {_g(ratio)} (needs >= {factor:g})" + ("" if apart else "; the repetitions overlap")
    return Verdict(HOLDS if ok else FAILS, why)


def less(samples: dict, a: str, b: str, factor: float = 1.0) -> Verdict:
    """a is smaller: greater(b, a, factor)."""
    return greater(samples, b, a, factor)


def flat(samples: dict, keys: list, tol: float = 0.25) -> Verdict:
    """max(means) <= (1 + tol) × min(means)."""
    short = _short({k: samples.get(k, []) for k in keys})
    if short:
        return short
    means = [mean(samples[k]) for k in keys]
    if min(means) <= 0:
        return Verdict(FAILS if max(means) > 0 else HOLDS, f"means {', '.join(map(_g, means))}")
    r = max(means) / min(means)
    return Verdict(HOLDS if r <= 1 + tol else FAILS, f"largest / smallest mean = {_g(r)} (flat if <= {1 + tol:g})")


def at_most(samples: dict, a: str, b: str, factor: float = 1.25) -> Verdict:
    """mean(a) <= factor × mean(b): a does not rise above b (by more than the tolerance)."""
    short = _short({a: samples.get(a, []), b: samples.get(b, [])})
    if short:
        return short
    r = mean(samples[a]) / mean(samples[b]) if mean(samples[b]) else math.inf
    return Verdict(HOLDS if r <= factor else FAILS, f"{a} / {b} = {_g(r)} (does not increase if <= {factor:g})")


def trend(samples: dict, keys: list, up: bool = True, factor: float = 1.0) -> Verdict:
    """Monotone means along `keys`, last/first (up) or first/last (down) >= factor, ends apart."""
    short = _short({k: samples.get(k, []) for k in keys})
    if short:
        return short
    means = [mean(samples[k]) for k in keys]
    steps = list(zip(means, means[1:]))
    mono = all((b > a) if up else (b < a) for a, b in steps)
    first, last = samples[keys[0]], samples[keys[-1]]
    hi, lo = (last, first) if up else (first, last)
    r = mean(hi) / mean(lo) if mean(lo) else math.inf
    apart = min(hi) > max(lo)
    ok = mono and r >= factor and apart
    why = (f"{' → '.join(map(_g, means))}: {'rises' if up else 'falls'} {_g(r)}× (needs >= {factor:g})"
           + ("" if mono else "; not at every step") + ("" if apart else "; first and last overlap"))
    return Verdict(HOLDS if ok else FAILS, why)


def about(samples: dict, a: str, target: float, tol: float = 1.25) -> Verdict:
    """target / tol <= mean(a) <= target × tol."""
    short = _short({a: samples.get(a, [])})
    if short:
        return short
    m = mean(samples[a])
    ok = target / tol <= m <= target * tol
    return Verdict(HOLDS if ok else FAILS, f"mean {_g(m)} (about {target:g}: {_g(target / tol)}–{_g(target * tol)})")


def all_of(parts: list) -> Verdict:
    """Every part holds (the first part that is not testable, or fails, says why)."""
    for p in parts:
        if p.verdict == NOT_TESTABLE:
            return p
    failed = [p for p in parts if p.verdict != HOLDS]
    return Verdict(FAILS if failed else HOLDS, "; ".join(p.why for p in parts))


def pairwise_less(samples: dict, labels) -> Verdict:
    """less(labels[0], labels[1]), less(labels[2], labels[3]), ...: all_of the pairs (each pair's
    first below its second, e.g. one engine against another on each of several metrics)."""
    labels = list(labels)
    return all_of([less(samples, labels[i], labels[i + 1]) for i in range(0, len(labels), 2)])


def not_testable(reason: str) -> Verdict:
    return Verdict(NOT_TESTABLE, reason)
