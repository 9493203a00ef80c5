"""Rule shapes beside rules.py's, built on its public functions and verdicts only (its decision method
is rules.py's to change):

    below(samples, a, bound):     HOLDS  iff  every repetition of a < bound          (a comparison with a
                                  constant: "no device reads", below a stated figure, in every run)
    any_of(parts):                HOLDS  iff  some part holds; FAILS iff every part fails; else INCONCLUSIVE
                                  when a part is inconclusive (rules.py), else NOT_TESTABLE
                                  ("in some cases": at least one configuration)
    at_least(parts, k):           HOLDS  iff  >= k parts hold; FAILS iff fewer than k could still hold
                                  (holding + not testable < k); else INCONCLUSIVE when a part is,
                                  else NOT_TESTABLE ("most": k of n)
    between(samples, a, b, lo, hi):
                                  greater(a, b, lo) and at_most(a, b, hi): a above b, but by no more
                                  than hi ("a bit": above, but not "much", hi 1.5)
    not_worse(samples, a, b, tol):
                                  at_most(b, a, tol): a is not worse than b beyond the tolerance
                                  ("comparable" said of a: b is not more than tol × a; a better b is
                                  no refutation)
    per_pair(samples, num, den) -> [num_i / den_i]   per repetition pair (repetition order)"""

from __future__ import annotations

from . import rules


def below(samples: dict, a: str, bound: float) -> rules.Verdict:
    xs = samples.get(a, [])
    if len(xs) < rules.MIN_REPEATS:
        return rules.not_testable(f"too few repeats (needs {rules.MIN_REPEATS}): {a} (n={len(xs)})")
    ok = max(xs) < bound
    return rules.Verdict(rules.HOLDS if ok else rules.FAILS,
                         f"{a}: {rules.spread(xs)} ({'every repetition' if ok else 'not every repetition'} "
                         f"below {bound:g})")


def any_of(parts: list) -> rules.Verdict:
    held = [p for p in parts if p.verdict == rules.HOLDS]
    why = "; ".join(p.why for p in parts)
    if held:
        return rules.Verdict(rules.HOLDS, f"{len(held)} of {len(parts)} hold: {why}")
    if all(p.verdict == rules.FAILS for p in parts):
        return rules.Verdict(rules.FAILS, f"none of {len(parts)} holds: {why}")
    if any(p.verdict == rules.INCONCLUSIVE for p in parts):
        return rules.Verdict(rules.INCONCLUSIVE, f"none holds, some inconclusive here: {why}")
    return rules.not_testable(f"none holds, some not testable: {why}")


def at_least(parts: list, k: int) -> rules.Verdict:
    held = sum(p.verdict == rules.HOLDS for p in parts)
    open_ = sum(p.verdict not in (rules.HOLDS, rules.FAILS) for p in parts)
    why = f"{held} of {len(parts)} hold (needs {k}): " + "; ".join(p.why for p in parts)
    if held >= k:
        return rules.Verdict(rules.HOLDS, why)
    if held + open_ < k:
        return rules.Verdict(rules.FAILS, why)
    if any(p.verdict == rules.INCONCLUSIVE for p in parts):
        return rules.Verdict(rules.INCONCLUSIVE, why)
    return rules.not_testable(why)


def between(samples: dict, a: str, b: str, lo: float = 1.0, hi: float = 1.5) -> rules.Verdict:
    return rules.all_of([rules.greater(samples, a, b, lo), rules.at_most(samples, a, b, hi)])


def not_worse(samples: dict, a: str, b: str, tol: float = 1.25) -> rules.Verdict:
    return rules.at_most(samples, b, a, tol)


def per_pair(samples: dict, num: str, den: str) -> list:
    return [x / y for x, y in zip(samples.get(num, []), samples.get(den, [])) if y]


__all__ = ["below", "any_of", "at_least", "between", "not_worse", "per_pair"]
