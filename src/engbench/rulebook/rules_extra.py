"""Rule shapes beside rules.py's, built on its public functions and verdicts only (its decision method
is rules.py's to change):

    below(samples, a, bound):     effect mean(a) / bound, its 95 % t interval (a comparison with a
                                  constant: "no device reads", below a stated figure); HOLDS iff the
                                  whole interval < 1, FAILS iff it lies wholly >= 1, else INCONCLUSIVE
    any_of(parts):                HOLDS  iff  some part holds; FAILS iff every part fails; else INCONCLUSIVE
                                  when a part is inconclusive (rules.py), else NOT_TESTABLE
                                  ("in some cases": at least one configuration). The effect shown is the
                                  deciding part's: holding, the one farthest inside its band; failing, the
                                  one that came nearest to holding; inconclusive, the one needing the
                                  fewest rounds
    at_least(parts, k):           HOLDS  iff  >= k parts hold; FAILS iff fewer than k could still hold
                                  (holding + not testable < k); else INCONCLUSIVE when a part is,
                                  else NOT_TESTABLE ("most": k of n). The effect shown: holding, the
                                  k-th part farthest inside its band (the weakest of the k that decide);
                                  otherwise as any_of's
    between(samples, a, b, lo, hi):
                                  greater(a, b, lo) and at_most(a, b, hi): a above b, but by no more
                                  than hi ("a bit": above, but not "much", hi 1.5; lo None: a bare
                                  "above", rules.bare: 1.1)
    not_worse(samples, a, b, tol):
                                  at_most(b, a, tol): a is not worse than b beyond the tolerance
                                  ("comparable" said of a: b is not more than tol × a; a better b is
                                  no refutation)
    per_pair(samples, num, den) -> [num_i / den_i]   per repetition pair (repetition order)

Under the decision methods before "smallest-effect" (rules.decided_by: the rule history), below
requires every repetition under the bound and any_of / at_least carry no effect, as they did."""

from __future__ import annotations

from . import rules


import math

from .. import effects


def _now() -> bool:
    return rules.method() == rules.METHOD


def below(samples: dict, a: str, bound: float) -> rules.Verdict:
    xs = samples.get(a, [])
    if len(xs) < rules.MIN_REPEATS:
        return rules.not_testable(f"too few repeats (needs {rules.MIN_REPEATS}): {a} (n={len(xs)})")
    if _now():
        iv = effects.scaled_mean(xs, bound, effects.DIRECTIONAL)
        v = rules.judge(f"mean {a} / {bound:g}", iv, effects.Band(hi=1.0, hi_open=True), "below the bound if")
        return rules.Verdict(v.verdict, f"{a}: {rules.spread(xs)}; " + v.why, v.effect, v.low, v.high, v.n,
                             v.threshold, v.level, v.needed, v.band)
    ok = max(xs) < bound
    return rules.Verdict(rules.HOLDS if ok else rules.FAILS,
                         f"{a}: {rules.spread(xs)} ({'every repetition' if ok else 'not every repetition'} "
                         f"below {bound:g})")


def _compared(parts: list) -> list:
    return [p for p in parts if p.n > 0 and p.band is not None]


def _deciding(word: str, why: str, parts: list, k: int = 1) -> rules.Verdict:
    """The verdict `word` with the numbers of its deciding part (module docstring); none under the
    methods before "smallest-effect", or when no part compared anything."""
    p = None
    if _now():
        if word == rules.HOLDS:
            held = sorted(_compared([q for q in parts if q.verdict == rules.HOLDS]), key=rules.margin, reverse=True)
            p = held[k - 1] if len(held) >= k else None
        elif word == rules.INCONCLUSIVE:
            open_ = _compared([q for q in parts if q.verdict == rules.INCONCLUSIVE])
            p = min(open_, key=lambda q: math.inf if q.needed is None else q.needed, default=None)
        elif word == rules.FAILS:
            p = max(_compared([q for q in parts if q.verdict != rules.HOLDS]), key=rules.margin, default=None)
    if p is None:
        return rules.Verdict(word, why)
    return rules.Verdict(word, why, p.effect, p.low, p.high, p.n, p.threshold, p.level, p.needed, p.band)


def any_of(parts: list) -> rules.Verdict:
    held = [p for p in parts if p.verdict == rules.HOLDS]
    why = "; ".join(p.why for p in parts)
    if held:
        return _deciding(rules.HOLDS, f"{len(held)} of {len(parts)} hold: {why}", parts)
    if all(p.verdict == rules.FAILS for p in parts):
        return _deciding(rules.FAILS, f"none of {len(parts)} holds: {why}", parts)
    if any(p.verdict == rules.INCONCLUSIVE for p in parts):
        return _deciding(rules.INCONCLUSIVE, f"none holds, some inconclusive here: {why}", parts)
    return rules.not_testable(f"none holds, some not testable: {why}")


def at_least(parts: list, k: int) -> rules.Verdict:
    held = sum(p.verdict == rules.HOLDS for p in parts)
    open_ = sum(p.verdict not in (rules.HOLDS, rules.FAILS) for p in parts)
    why = f"{held} of {len(parts)} hold (needs {k}): " + "; ".join(p.why for p in parts)
    if held >= k:
        return _deciding(rules.HOLDS, why, parts, k)
    if held + open_ < k:
        return _deciding(rules.FAILS, why, parts)
    if any(p.verdict == rules.INCONCLUSIVE for p in parts):
        return _deciding(rules.INCONCLUSIVE, why, parts)
    return rules.not_testable(why)


def between(samples: dict, a: str, b: str, lo: float | None = None, hi: float = 1.5) -> rules.Verdict:
    return rules.all_of([rules.greater(samples, a, b, lo), rules.at_most(samples, a, b, hi)])


def not_worse(samples: dict, a: str, b: str, tol: float = 1.25) -> rules.Verdict:
    return rules.at_most(samples, b, a, tol)


def per_pair(samples: dict, num: str, den: str) -> list:
    return [x / y for x, y in zip(samples.get(num, []), samples.get(den, [])) if y]


__all__ = ["below", "any_of", "at_least", "between", "not_worse", "per_pair"]
