"""iostat values as printed, human-readable ones (-h, --human) included → numbers in the parser's
units (kB for sizes).

With --human, sysstat (common.c ``cprintf_unit``) prints a size as a number and ONE suffix letter
from ``s B k M G T P ?``: starting from the column's own unit (kB for ``rkB/s``, ``kB_read``,
``areq-sz``/``rareq-sz``...; sectors are halved to kB first), it divides by 1024 while the value
is >= 1024, one letter up each time. So the suffix alone is the unit, 1024-based:

    k = 1 kB    M = 1024 kB    G = 1024**2 kB    T = 1024**3 kB    P = 1024**4 kB

and it supersedes the unit the header names (man iostat, --human: "The units displayed with this
option supersede any other default units"): under ``MB_read/s``, ``48.2M`` is 48.2 MiB/s =
48.2 x 1024 = 49356.8 kB/s, not 48.2 x 1024 MB. Examples: ``222.1k`` under rkB/s = 222.1 kB/s;
``1.2M`` = 1228.8 kB/s; ``3.9G`` = 3.9 x 1024**2 = 4089446.4 kB/s; ``26.3k`` under rareq-sz =
26.3 kB. One decimal is printed (none with --dec=0): a human value is exact only to 0.05 of its
suffix unit (``5.3M`` is 5375 to 5478 kB).

Counts and times (tps, r/s, w/s, rqm/s, await, aqu-sz) are printed with NO suffix even under -h
(sysstat passes NO_UNIT for them), however large: a suffix there, or ``?`` (beyond P), is refused.
Percentages (%util, %rrqm ...) get a ``%`` under -h: ``15.2%`` = 15.2. A plain number in a size
column (no -h) is in the header's unit and is multiplied by its factor to kB."""

import re

import numpy as np

KB_PER_SUFFIX = {"k": 1.0, "M": 1024.0, "G": 1024.0 ** 2, "T": 1024.0 ** 3, "P": 1024.0 ** 4}
_NUM = re.compile(r"-?\d+(?:\.\d+)?")
_SUFFIXED = re.compile(r"(-?\d+(?:\.\d+)?)([kMGTP%])")


def value_kind(name: str) -> str:
    """Stable column name → "size" (kB: may carry a k/M/G/T/P suffix), "pct" (may carry %) or
    "count" (never a suffix). ``avgrq_sz`` (sectors, sysstat < 11) is a count: no -h then."""
    if name.endswith(("kb_per_s", "kb_total")) or name in ("areq_sz", "rareq_sz", "wareq_sz",
                                                            "dareq_sz"):
        return "size"
    return "pct" if name.endswith("_pct") else "count"


def human_value(tok: str, kind: str, factor: float):
    """One printed value → number in the output unit, or None when iostat prints no such value in
    a column of this kind. Plain: float x factor; suffixed size: number x KB_PER_SUFFIX[suffix]
    (the header's factor does not apply); ``N%`` in a pct column: N."""
    if _NUM.fullmatch(tok):
        return float(tok) * factor
    m = _SUFFIXED.fullmatch(tok)
    if m is None:
        return None
    num, suffix = m.groups()
    if suffix == "%":
        return float(num) if kind == "pct" else None
    return float(num) * KB_PER_SUFFIX[suffix] if kind == "size" else None


def to_numbers(tokens, kind: str, factor: float):
    """A column's printed values → (float64 array in the output unit, index of the first value
    that is not one, or -1). Same numbers as human_value, computed for the whole column: plain
    numbers in one numpy call, suffixed ones with their suffix cut and its multiplier applied;
    only a column holding something else goes value by value, to find it."""
    try:
        vals = np.array(tokens, dtype=np.float64)
        if np.isfinite(vals).all():  # "nan"/"inf" are not numbers iostat prints
            return (vals * factor if factor != 1.0 else vals), -1
    except ValueError:
        pass
    units = _UNITS[kind]
    last = [t[-1:] for t in tokens]
    if units and set(last) - _DIGITS <= units.keys():
        try:
            nums = np.array([t[:-1] if c in units else t for t, c in zip(tokens, last)],
                            dtype=np.float64)
            if np.isfinite(nums).all():
                return nums * np.array([units.get(c, factor) for c in last]), -1
        except ValueError:
            pass
    out = np.empty(len(tokens), dtype=np.float64)
    for k, tok in enumerate(tokens):
        v = human_value(tok, kind, factor)
        if v is None:
            return out, k
        out[k] = v
    return out, -1


_DIGITS = set("0123456789")
_UNITS = {"size": KB_PER_SUFFIX, "pct": {"%": 1.0}, "count": {}}
