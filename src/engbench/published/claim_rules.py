"""The rule vocabulary of check-published's claims (engbench.published.claims): pure functions of
the printed numbers or labels a sentence summarizes, each returning (holds, detail) with its
formula in the docstring."""

from __future__ import annotations

import re

from .values import fmt_number


def _n(x: float) -> str:
    return fmt_number(round(x, 4))


def _ns(xs) -> str:
    return ", ".join(_n(x) for x in xs)


# -- the rule vocabulary: pure functions ----------------------------------------------------------

def increases(values: list[float], factor: float = 1.0) -> tuple[bool, str]:
    """Every step grows and the series ends at least `factor` × its start.

    holds ⇔ v[i+1] > v[i] for every i, and v[-1] ≥ factor · v[0].
    """
    steps = all(b > a for a, b in zip(values, values[1:]))
    grown = values[-1] / values[0] if values[0] else float("inf")
    ok = steps and values[-1] >= factor * values[0]
    why = f"{_ns(values)}: " + ("grows at every step" if steps else "a step does not grow")
    return ok, why + f", last/first = {_n(grown)}" + (f" (needs ≥ {_n(factor)})" if factor != 1 else "")


def not_increasing(values: list[float], tolerance: float = 0.05) -> tuple[bool, str]:
    """No step grows by more than `tolerance`.

    holds ⇔ v[i+1] ≤ v[i] · (1 + tolerance) for every i.
    """
    steps = [(b / a if a else float("inf")) for a, b in zip(values, values[1:])]
    worst = max((x, i) for i, x in enumerate(steps))
    ok = all(b <= a * (1 + tolerance) for a, b in zip(values, values[1:]))
    return ok, (f"{_ns(values)}: largest step ×{_n(worst[0])} (step {worst[1] + 1}; "
                f"allowed ≤ ×{_n(1 + tolerance)})")


def flat(values: list[float], tolerance: float = 0.10) -> tuple[bool, str]:
    """All values within `tolerance` of each other (positive values).

    holds ⇔ max(v) ≤ min(v) · (1 + tolerance).
    """
    hi, lo = max(values), min(values)
    ok = hi <= lo * (1 + tolerance)
    return ok, f"{_ns(values)}: max/min = {_n(hi / lo) if lo else 'inf'} (allowed ≤ {_n(1 + tolerance)})"


def extreme(group: list[float], others: list[float], which: str) -> tuple[bool, str]:
    """Every value of the group beyond every other value.

    max: holds ⇔ min(group) > max(others);  min: holds ⇔ max(group) < min(others).
    """
    if which == "max":
        ok = min(group) > max(others)
        return ok, f"group {_ns(group)} vs others' max {_n(max(others))}"
    if which == "min":
        ok = max(group) < min(others)
        return ok, f"group {_ns(group)} vs others' min {_n(min(others))}"
    raise ValueError(f"extreme: which must be max or min, not {which!r}")


def greater(a: float, b: float, factor: float = 1.0) -> tuple[bool, str]:
    """a above b, by at least `factor`.

    holds ⇔ a > b and a ≥ factor · b.
    """
    ok = a > b and a >= factor * b
    ratio = _n(a / b) if b else "inf"
    need = f" (needs ≥ {_n(factor)})" if factor != 1 else ""
    return ok, f"{_n(a)} vs {_n(b)}: ratio {ratio}{need}"


def less(a: float, b: float, factor: float = 1.0) -> tuple[bool, str]:
    """a below b, by at least `factor`.

    holds ⇔ a < b and b ≥ factor · a   (= greater(b, a, factor)).
    """
    ok = a < b and b >= factor * a
    ratio = _n(b / a) if a else "inf"
    need = f" (needs ≥ {_n(factor)})" if factor != 1 else ""
    return ok, f"{_n(a)} vs {_n(b)}: other/this {ratio}{need}"


def similar(a: float, b: float, tolerance: float = 0.10) -> tuple[bool, str]:
    """a and b within `tolerance` of each other (positive values).

    holds ⇔ max(a, b) ≤ min(a, b) · (1 + tolerance).
    """
    hi, lo = max(a, b), min(a, b)
    ok = hi <= lo * (1 + tolerance)
    ratio = _n(hi / lo) if lo else "inf"
    return ok, f"{_n(a)} vs {_n(b)}: ratio {ratio} (allowed ≤ {_n(1 + tolerance)})"


def about(a: float, b: float, n: float, tolerance: float = 0.25) -> tuple[bool, str]:
    """a is about n × b.

    holds ⇔ n / (1 + tolerance) ≤ a / b ≤ n · (1 + tolerance).
    """
    r = a / b if b else float("inf")
    lo, hi = n / (1 + tolerance), n * (1 + tolerance)
    return lo <= r <= hi, f"{_n(a)} / {_n(b)} = {_n(r)} (about {_n(n)}: {_n(lo)} … {_n(hi)})"


def ratio_below(a: float, b: float, factor: float) -> tuple[bool, str]:
    """a / b stays below `factor`.

    holds ⇔ a / b < factor.
    """
    r = a / b if b else float("inf")
    return r < factor, f"{_n(a)} / {_n(b)} = {_n(r)} (needs < {_n(factor)})"


def concordant(xs: list[float], ys: list[float]) -> tuple[bool, str]:
    """Two columns order the rows the same way (ties allowed).

    holds ⇔ no pair i, j with (x_i − x_j) · (y_i − y_j) < 0.
    """
    bad = [(i, j) for i in range(len(xs)) for j in range(i + 1, len(xs))
           if (xs[i] - xs[j]) * (ys[i] - ys[j]) < 0]
    if not bad:
        return True, f"{len(xs)} rows, no pair ordered differently"
    i, j = bad[0]
    return False, (f"{len(bad)} pairs ordered differently, e.g. rows {i + 1},{j + 1}: "
                   f"{_n(xs[i])} vs {_n(xs[j])} and {_n(ys[i])} vs {_n(ys[j])}")


def labels_in_table(listed: list[str], table_labels: list[str]) -> tuple[bool, str]:
    """Every label of the document's list appears, spelled the same, among the table's labels.

    holds ⇔ set(listed) ⊆ set(table_labels).
    """
    missing = [x for x in listed if x not in table_labels]
    if not missing:
        return True, f"all {len(listed)} listed labels are in the table"
    unused = [x for x in dict.fromkeys(table_labels) if x not in listed]
    return False, (f"listed only: {', '.join(missing)}; table only: {', '.join(unused) or '-'}")


def same_order(listed: list[str], table_labels: list[str]) -> tuple[bool, str]:
    """The listed labels come in the table in the order the document lists them (case ignored).

    holds ⇔ each listed label occurs in the table and their first positions increase.
    """
    order = list(dict.fromkeys(x.casefold() for x in table_labels))
    missing = [x for x in listed if x.casefold() not in order]
    if missing:
        return False, f"not in the table: {', '.join(missing)}"
    pos = [order.index(x.casefold()) for x in listed]
    ok = all(a < b for a, b in zip(pos, pos[1:]))
    shown = ", ".join(dict.fromkeys(table_labels))
    return ok, f"listed order {', '.join(listed)}; table order {shown}"


def quote_occurs(quote: str, text: str) -> bool:
    """The quote is a verbatim part of the text, whitespace runs compared as one space.

    holds ⇔ squash(quote) is a substring of squash(text), squash = collapse whitespace to ' '.
    """
    squash = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    return squash(quote) in squash(text)


# -- claims ---------------------------------------------------------------------------------------
