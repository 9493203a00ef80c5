"""Verdict rules: pure functions from measured samples to a verdict, the effect it rests on, that
effect's interval, and the reason (issue 44: a verdict that would not flip if the reproduction ran
again).

A sample is the list of one value per repetition of one configuration (an experiment file and an
engine; `measure.py`). Every rule first asks for at least MIN_REPEATS values in every sample it
compares; with fewer the verdict is NOT_TESTABLE ("too few repeats"), never a guess. Then it computes
the effect the claim is about and its interval (engbench.effects: Fieller's interval for a ratio of
means, Student's t for one mean; the formulas are there) and decides by where the interval lies
against the claim's threshold or band (effects.decide):

    greater(a, b, factor)   effect mean(a) / mean(b), 95 % interval; HOLDS iff low > factor,
                            FAILS iff high <= factor. A bare claim (factor None: "more", "faster"
                            with no qualifier) uses 1 + SMALLEST_EFFECT (1.1): it holds when the
                            whole interval lies above 1.1 and does not hold when it lies wholly at
                            or below 1.1 (the other side ahead, or an effect smaller than the
                            machine's own A/A spread: the why says which)
    less(a, b, factor)      greater(b, a, factor)
    flat(samples, tol)      equivalence: every pair of means, larger / smaller, its 90 % interval
                            inside [1 / (1 + tol), 1 + tol] (two one-sided tests at 5 %); FAILS when
                            a pair's interval lies wholly outside; the effect shown is the deciding pair's
                            (at HOLDS the one nearest the band's edge), the why gives the largest / smallest
    at_most(a, b, factor)   "does not increase": mean(a) / mean(b), 90 % interval; HOLDS iff high <=
                            factor (the one-sided test at 5 %), FAILS iff low > factor
    trend(samples, up, factor)
                            the end ratio (last / first up, first / last down) > factor and every step
                            in the direction (next / previous, a bare greater: > 1.1 up, < 1 / 1.1
                            down), each by its 95 % interval, combined as all_of
    about(a, target, tol)   equivalence: mean(a) / target, 90 % t interval, inside [1 / tol, tol]
    all_of(parts)           NOT_TESTABLE if a part is; else FAILS if any part fails; else INCONCLUSIVE
                            if any part is; else HOLDS. The effect shown is the deciding part's: the
                            first that fails, the inconclusive one needing the most rounds, or (all
                            holding) the one whose interval comes nearest its threshold
    pairwise_less(labels)   all_of(less(labels[0], labels[1]), less(labels[2], labels[3]), ...)

Neither wholly on the claim's side nor wholly off it: INCONCLUSIVE ("inconclusive here"), and `why`
gives the interval and the repetitions per side that would decide it at the measured spread
(effects.rounds_needed). The words of the source documents map onto factors by one convention, used
by every finding: "faster/more/worse" (no qualifier) is 1 + SMALLEST_EFFECT = 1.1 (engbench.verdicts
says why 10 %: the machine's A/A spread, measured before the data); "much" 1.5; "huge", "twice" 2.0;
"insensitive", "does not grow", "no change" is flat within 25 %; "about N" is N within a factor 1.25.
The verdict words are engbench.verdicts'; its docstring sets these tolerances beside the published
checks'.

The methods before this one stay callable, which is how the rule history
(findings.history.METHOD_CHANGES) shows each verdict under both: "v1" (ratio of means, repetitions
apart: rules_v1; `with decided_by("v1"): finding.rule(samples)` routes every rule here to it) and
"interval" (this module with a bare claim's threshold at 1.0, and rules_extra's below by every
repetition, any_of / at_least without an effect); "smallest-effect" is today's.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from dataclasses import dataclass

from .. import effects
from ..verdicts import FAILS, HOLDS, INCONCLUSIVE, NOT_IN_REGIME, NOT_TESTABLE, NOT_TESTED  # the one vocabulary
from . import rules_v1

MIN_REPEATS = 3
METHOD = "smallest-effect"          # the decision method now; findings.history.METHOD_CHANGES records each change
METHODS = ("v1", "interval", METHOD)
SMALLEST_EFFECT = 0.10              # a bare "more" / "faster": the machine's A/A spread (engbench.verdicts)
_METHOD = contextvars.ContextVar("engbench_rules_method", default=METHOD)
_WORD = {effects.HOLDS: HOLDS, effects.FAILS: FAILS, effects.INCONCLUSIVE: INCONCLUSIVE}


@dataclass(frozen=True)
class Verdict:
    """The verdict and its reason; for a comparison also the effect, its interval [low, high] at
    `level`, the repetitions per side it rests on (n), the claim's threshold or band as printed
    and, when inconclusive, the repetitions per side that would decide it (needed; None: none would
    within effects.MAX_ROUNDS)."""
    verdict: str
    why: str
    effect: float = math.nan
    low: float = math.nan
    high: float = math.nan
    n: int = 0
    threshold: str = ""
    level: float = math.nan
    needed: int | None = None
    band: effects.Band | None = None


@contextlib.contextmanager
def decided_by(method: str):
    """Every rule called inside decides by `method` (METHODS): "v1" the old rules (rules_v1)."""
    if method not in METHODS:
        raise ValueError(f"no such decision method {method!r}: use one of {', '.join(METHODS)}")
    token = _METHOD.set(method)
    try:
        yield
    finally:
        _METHOD.reset(token)


def _old():
    return _METHOD.get() == "v1"


def method() -> str:
    """The decision method the rules use now (METHOD, or the one decided_by set)."""
    return _METHOD.get()


def bare(factor: float | None) -> float:
    """The threshold of a directional claim: its stated factor, or for a bare one (None) 1 +
    SMALLEST_EFFECT (1.0 under the methods before "smallest-effect")."""
    if factor is not None:
        return factor
    return 1.0 + SMALLEST_EFFECT if _METHOD.get() == METHOD else 1.0


def _wrap(v) -> Verdict:
    return v if isinstance(v, Verdict) else Verdict(v.verdict, v.why)


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


def _judge(name: str, iv: effects.Interval, band: effects.Band, what: str = "") -> Verdict:
    """The verdict of one effect against one band; why: "name = effect, L % interval low–high
    (needs band); n=…" and, inconclusive, the rounds that would decide it."""
    word = _WORD[effects.decide(iv, band)]
    needed = effects.rounds_needed(iv, band) if word == INCONCLUSIVE else None
    why = (f"{name} = {_g(iv.effect)}, {iv.level * 100:.0f} % interval {_g(iv.low)}–{_g(iv.high)} "
           f"({what or 'needs'} {band.text()}; n={iv.n})")
    if word == INCONCLUSIVE:
        cv = ", ".join(f"{c * 100:.0f} %" for c in iv.cvs)
        why += (f"; {needed} rounds would decide it at the measured spread (CV {cv})" if needed else
                f"; no number of rounds up to {effects.MAX_ROUNDS:,} would decide it at the measured spread")
    return Verdict(word, why, iv.effect, iv.low, iv.high, iv.n, band.text(), iv.level, needed, band)


def greater(samples: dict, a: str, b: str, factor: float | None = None) -> Verdict:
    """mean(a) / mean(b) > factor, by its 95 % interval; factor None: a bare claim (bare())."""
    if _old():
        return _wrap(rules_v1.greater(samples, a, b, 1.0 if factor is None else factor))
    short = _short({a: samples.get(a, []), b: samples.get(b, [])})
    if short:
        return short
    iv = effects.ratio(samples[a], samples[b], effects.DIRECTIONAL)
    v = _judge(f"{a} / {b}", iv, effects.Band(lo=bare(factor), lo_open=True))
    if factor is None and _METHOD.get() == METHOD and v.verdict == FAILS and iv.high > 1.0:
        v = _with_why(v, v.why + f" (above 1 perhaps, but below {bare(None):g}, the smallest effect that matters: "
                                 "the machine's own A/A spread)")
    return v


def less(samples: dict, a: str, b: str, factor: float | None = None) -> Verdict:
    """a is smaller: greater(b, a, factor)."""
    return greater(samples, b, a, factor)


def flat(samples: dict, keys: list, tol: float = 0.25) -> Verdict:
    """Every pair of means within a factor 1 + tol, by its 90 % interval (equivalence)."""
    if _old():
        return _wrap(rules_v1.flat(samples, keys, tol))
    short = _short({k: samples.get(k, []) for k in keys})
    if short:
        return short
    means = {k: mean(samples[k]) for k in keys}
    band = effects.Band(1 / (1 + tol), 1 + tol)
    parts = []
    for i, x in enumerate(keys):
        for y in keys[i + 1:]:
            hi, lo = (x, y) if means[x] >= means[y] else (y, x)
            parts.append(_judge(f"{hi} / {lo}", effects.ratio(samples[hi], samples[lo], effects.EQUIVALENCE),
                                band, "flat if within"))
    v = _combine(parts)
    top, bottom = max(means.values()), min(means.values())
    r = top / bottom if bottom else (math.inf if top else 1.0)
    return _with_why(v, f"largest / smallest mean = {_g(r)}; " + v.why)


def at_most(samples: dict, a: str, b: str, factor: float = 1.25) -> Verdict:
    """mean(a) / mean(b) <= factor, by its 90 % interval: a does not rise above b (by more than the
    tolerance)."""
    if _old():
        return _wrap(rules_v1.at_most(samples, a, b, factor))
    short = _short({a: samples.get(a, []), b: samples.get(b, [])})
    if short:
        return short
    iv = effects.ratio(samples[a], samples[b], effects.EQUIVALENCE)
    return _judge(f"{a} / {b}", iv, effects.Band(hi=factor), "does not increase if")


def trend(samples: dict, keys: list, up: bool = True, factor: float | None = None) -> Verdict:
    """The end ratio beyond `factor` and every step in the direction, each by its 95 % interval."""
    if _old():
        return _wrap(rules_v1.trend(samples, keys, up, 1.0 if factor is None else factor))
    short = _short({k: samples.get(k, []) for k in keys})
    if short:
        return short
    ends = (keys[-1], keys[0]) if up else (keys[0], keys[-1])
    end = greater(samples, *ends, factor)
    steps = [greater(samples, b, a) if up else greater(samples, a, b) for a, b in zip(keys, keys[1:])]
    v = _combine([end] + (steps if len(keys) > 2 else []))
    means = " → ".join(_g(mean(samples[k])) for k in keys)
    return _with_why(v, f"{means}: {'rises' if up else 'falls'} {_g(end.effect)}× (needs > {bare(factor):g}); " + v.why)


def about(samples: dict, a: str, target: float, tol: float = 1.25) -> Verdict:
    """mean(a) / target within [1 / tol, tol], by its 90 % t interval (equivalence)."""
    if _old():
        return _wrap(rules_v1.about(samples, a, target, tol))
    short = _short({a: samples.get(a, [])})
    if short:
        return short
    iv = effects.scaled_mean(samples[a], target, effects.EQUIVALENCE)
    v = _judge(f"mean / {target:g}", iv, effects.Band(1 / tol, tol), "about if within")
    return _with_why(v, f"mean {_g(mean(samples[a]))} (about {target:g}: {_g(target / tol)}–{_g(target * tol)}); "
                        + v.why)


judge = _judge   # public, for rules_extra: the verdict of one effect's interval against one band


def _with_why(v: Verdict, why: str) -> Verdict:
    return Verdict(v.verdict, why, v.effect, v.low, v.high, v.n, v.threshold, v.level, v.needed, v.band)


def _margin(v: Verdict) -> float:
    """How far a holding part's interval lies inside its band, in log ratio (smallest decides)."""
    b = v.band
    if b is None or not all(math.isfinite(x) and x > 0 for x in (v.low, v.high)):
        return math.inf
    gaps = ([math.log(v.low / b.lo)] if math.isfinite(b.lo) and b.lo > 0 else []) + \
           ([math.log(b.hi / v.high)] if math.isfinite(b.hi) and b.hi > 0 else [])
    return min(gaps, default=math.inf)


margin = _margin


def _combine(parts: list) -> Verdict:
    """all_of's decision (module docstring), the deciding part's numbers."""
    for p in parts:
        if p.verdict in (NOT_TESTABLE, NOT_TESTED):
            return p
    failed = [p for p in parts if p.verdict == FAILS]
    open_ = [p for p in parts if p.verdict not in (HOLDS, FAILS)]
    if failed:
        word, deciding = FAILS, failed[0]
    elif open_:
        word = INCONCLUSIVE
        deciding = max(open_, key=lambda p: math.inf if p.needed is None else p.needed)
    else:
        word, deciding = HOLDS, min(parts, key=_margin)
    return Verdict(word, "; ".join(p.why for p in parts), deciding.effect, deciding.low, deciding.high,
                   deciding.n, deciding.threshold, deciding.level, deciding.needed, deciding.band)


def all_of(parts: list) -> Verdict:
    """Every part holds (module docstring: how the parts combine, whose numbers are shown)."""
    if _old():
        return _wrap(rules_v1.all_of(parts))
    return _combine(list(parts))


def pairwise_less(samples: dict, labels) -> Verdict:
    """less(labels[0], labels[1]), less(labels[2], labels[3]), ...: all_of the pairs (each pair's
    first below its second, e.g. one engine against another on each of several metrics)."""
    labels = list(labels)
    return all_of([less(samples, labels[i], labels[i + 1]) for i in range(0, len(labels), 2)])


def not_testable(reason: str) -> Verdict:
    return Verdict(NOT_TESTABLE, reason)


def not_tested(reason: str) -> Verdict:
    """A claim that could be tested but whose quantity the runs did not capture; `reason` says what
    would be needed."""
    return Verdict(NOT_TESTED, reason)


def columns(v: Verdict) -> dict:
    """The findings table's columns of a verdict's effect: effect, low, high, level (of the
    interval), rounds, threshold (blank where the rule computed none: a claim not testable, a rule
    that compares nothing) and rounds_needed (an inconclusive verdict's: effects.rounds_needed)."""
    has = v.n > 0
    return {"effect": v.effect if has else math.nan, "low": v.low if has else math.nan,
            "high": v.high if has else math.nan, "level": v.level if has else math.nan,
            "rounds": v.n if has else math.nan, "threshold": v.threshold,
            "rounds_needed": v.needed if v.verdict == INCONCLUSIVE and v.needed else math.nan}


__all__ = ["Verdict", "MIN_REPEATS", "METHOD", "METHODS", "decided_by", "greater", "less", "flat", "at_most", "trend",
           "about", "all_of", "pairwise_less", "not_testable", "not_tested", "columns", "method", "judge", "margin", "bare", "SMALLEST_EFFECT", "spread", "mean",
           "HOLDS", "FAILS", "INCONCLUSIVE", "NOT_TESTABLE", "NOT_TESTED", "NOT_IN_REGIME"]
