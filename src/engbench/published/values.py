"""Printed numbers as intervals.

A published number is a string such as ``13.0``, ``9.70``, ``~500K`` or ``31k``. Printed with d
decimals it stands for x ± 0.5·10^-d (in the unit of its suffix), so ``13.0`` is [12.95, 13.05] and
``2M`` is [1.5e6, 2.5e6]. Exact counters (bytes, pages, document counts) are exact. A leading ``~``
marks a reading that is only approximate: its trailing zeros are not taken as significant and it is
widened to at least ±10 % (``~500K`` is [450K, 550K], ``~770`` is [693, 847]).

All arithmetic on such values is interval arithmetic: the result of an operation is the smallest
interval that contains every result of the operation on members of the operand intervals.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

APPROX_RELATIVE = 0.10  # "~x" is at least x ± 10 %
SUFFIXES = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}

_NUMBER = re.compile(r"^(?P<sign>[+-]?)(?P<int>\d+)(?:\.(?P<frac>\d+))?(?P<suffix>[kKMB]?)$")
_RANGE = re.compile(r"^(?P<a>\d+(?:\.\d+)?)\s*-\s*(?P<b>\d+(?:\.\d+)?)$")


def _mul(a: float, b: float) -> float:
    """Product with 0 × ∞ = 0, as interval arithmetic over the extended reals needs."""
    if a == 0.0 or b == 0.0:
        return 0.0
    return a * b


@dataclass(frozen=True)
class Interval:
    lo: float
    hi: float

    def __post_init__(self):
        if math.isnan(self.lo) or math.isnan(self.hi) or self.lo > self.hi:
            raise ValueError(f"not an interval: [{self.lo}, {self.hi}]")

    @staticmethod
    def of(x) -> "Interval":
        if isinstance(x, Interval):
            return x
        return Interval(float(x), float(x))

    @property
    def mid(self) -> float:
        if math.isinf(self.lo) or math.isinf(self.hi):
            return self.lo if math.isinf(self.hi) else self.hi
        return (self.lo + self.hi) / 2

    @property
    def unbounded(self) -> bool:
        return math.isinf(self.lo) and math.isinf(self.hi)

    def __add__(self, other):
        o = Interval.of(other)
        return Interval(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __neg__(self):
        return Interval(-self.hi, -self.lo)

    def __sub__(self, other):
        return self + (-Interval.of(other))

    def __rsub__(self, other):
        return Interval.of(other) - self

    def __mul__(self, other):
        o = Interval.of(other)
        products = [_mul(a, b) for a in (self.lo, self.hi) for b in (o.lo, o.hi)]
        return Interval(min(products), max(products))

    __rmul__ = __mul__

    def __truediv__(self, other):
        o = Interval.of(other)
        if o.lo <= 0.0 <= o.hi:  # dividing by something that may be zero: anything goes
            return Interval(-math.inf, math.inf)
        return self * Interval(1.0 / o.hi, 1.0 / o.lo)

    def __rtruediv__(self, other):
        return Interval.of(other) / self

    def hull(self, other: "Interval") -> "Interval":
        return Interval(min(self.lo, other.lo), max(self.hi, other.hi))

    def overlaps(self, other: "Interval", rel_tol: float = 1e-12) -> bool:
        """True when the intervals share a point (allowing float rounding of exact values)."""
        slack = rel_tol * max(1.0, *(abs(v) for v in (self.lo, self.hi, other.lo, other.hi)
                                     if not math.isinf(v)))
        return self.lo <= other.hi + slack and other.lo <= self.hi + slack

    def __str__(self) -> str:
        if self.lo == self.hi:
            return fmt_number(self.lo)
        return f"[{fmt_number(self.lo)}, {fmt_number(self.hi)}]"


def between(lo: float, hi: float) -> Interval:
    return Interval(float(lo), float(hi))


def fmt_number(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if float(x).is_integer() and abs(x) < 1e16:
        return str(int(x))
    if abs(x) >= 1000:
        return f"{x:.2f}"
    return f"{x:.6g}"


@dataclass(frozen=True)
class Printed:
    """A value as printed, with the interval it stands for."""

    text: str
    interval: Interval
    decimals: int
    approx: bool = False
    exact: bool = False

    @property
    def value(self) -> float:
        return self.interval.mid


def parse_printed(text: str, exact: bool = False) -> Printed:
    """Parse a printed number keeping its precision. Raises ValueError when it is not a number.

    ``exact`` says the value is an exact counter (bytes, pages, documents): no rounding interval.
    """
    raw = text
    s = text.strip().replace(",", "")
    approx = s.startswith("~")
    if approx:
        s = s[1:].strip()
    if s.endswith("%"):
        s = s[:-1].strip()
    m = _NUMBER.match(s)
    if not m:
        r = _RANGE.match(s)
        if r:  # "10-15": the range itself, each end at its printed precision
            a, b = parse_printed(r["a"]), parse_printed(r["b"])
            return Printed(raw, Interval(a.interval.lo, b.interval.hi), 0, approx)
        raise ValueError(f"not a printed number: {raw!r}")
    mult = SUFFIXES[m["suffix"]]
    frac = m["frac"] or ""
    decimals = len(frac)
    mantissa = float(f"{m['int']}.{frac}" if frac else m["int"])
    x = (-mantissa if m["sign"] == "-" else mantissa) * mult
    if exact and not approx:
        return Printed(raw, Interval(x, x), decimals, False, True)
    half = 0.5 * 10.0 ** (-decimals) * mult
    if approx:
        digits = m["int"] + frac
        trailing = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
        if decimals == 0:  # trailing zeros of an approximate integer are not significant
            half = 0.5 * 10.0 ** trailing * mult
        half = max(half, APPROX_RELATIVE * abs(x))
    return Printed(raw, Interval(x - half, x + half), decimals, approx, False)


def is_number(text: str) -> bool:
    try:
        parse_printed(text)
    except ValueError:
        return False
    return True
