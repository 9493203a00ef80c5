"""iostat columns by header name: printed column → stable name and unit factor, the layout
they make, and the frame every iostat path returns (see iostat.py for the whole contract)."""

import re

import numpy as np

from .errors import ParseError

STABLE = ["r_per_s", "w_per_s", "rkb_per_s", "wkb_per_s", "d_per_s", "dkb_per_s"]

_BYTES = {"kB": 1.0, "MB": 1024.0, "GB": 1024.0 ** 2, "sec": 0.5, "Blk": 0.5}  # factor to kB


def column_name(tok: str):
    """Printed iostat column → (stable name, factor to apply), or None if unknown."""
    t = tok.lstrip("%") if tok.startswith("%") else tok
    pct = tok.startswith("%") or tok in ("util", "rrqm", "wrqm", "drqm")  # JSON drops the %
    if tok in ("tps", "svctm", "await", "r_await", "w_await", "d_await", "f_await"):
        return tok, 1.0
    if pct and t in ("util", "rrqm", "wrqm", "drqm"):
        return f"{t}_pct", 1.0
    if tok in ("avgrq-sz", "avgqu-sz", "aqu-sz", "areq-sz", "rareq-sz", "wareq-sz", "dareq-sz"):
        return tok.replace("-", "_"), 1.0
    # r/s rkB/s rMB/s rGB/s rsec/s; -s -x: kB/s MB/s GB/s sec/s (read + write + discard)
    m = re.fullmatch(r"([rwdf]?)(kB|MB|GB|sec)?/s", tok)
    if m and any(m.groups()):
        kind, unit = m.groups()
        if unit is None:
            return f"{kind}_per_s", 1.0
        if kind == "f":
            return None
        return f"{kind}kb_per_s", _BYTES[unit]
    m = re.fullmatch(r"([rwd]?)rqm/s", tok)  # rrqm/s ...; -s -x: rqm/s (all merges)
    if m:
        return f"{m.group(1)}rqm_per_s", 1.0
    # the -d layout; -s: `w+d` is written + discarded
    m = re.fullmatch(r"(kB|MB|GB|Blk)_(read|wrtn|dscd|w\+d)(/s)?", tok)
    if m:
        unit, what, rate = m.groups()
        kind = {"read": "r", "wrtn": "w", "dscd": "d", "w+d": "wd"}[what]
        return (f"{kind}kb_per_s" if rate else f"{kind}kb_total"), _BYTES[unit]
    return None


def layout_of(names) -> str:
    s = set(names)
    if "kb_per_s" in s:
        return "sx"
    if "wdkb_per_s" in s:
        return "s"
    if "tps" in s:
        return "d"
    if "avgrq_sz" in s or "svctm" in s and "aqu_sz" not in s:
        return "ub16"
    if "f_per_s" in s:
        return "ub22"
    if "d_per_s" in s:
        return "ub20"
    return "ub18"


def header(tokens, source, lineno):
    """Header tokens after `Device`/`Device:` → (names, factors)."""
    names, factors = columns(tokens, source, lineno)
    require_throughput(names, source, lineno)
    return names, factors


def columns(tokens, source, lineno, seen=()):
    """Header tokens → (names, factors); an unknown column, or one already in the header (or in
    ``seen``: the other sub-reports of a --pretty report), is refused with the header's line."""
    names, factors = [], []
    for tok in tokens:
        got = column_name(tok)
        if got is None:
            raise ParseError(source, f"unknown iostat layout: column {tok!r} is not one sysstat "
                             "is known to print", lineno)
        if got[0] in names or got[0] in seen:
            raise ParseError(source, f"unknown iostat layout: column {tok!r} twice", lineno)
        names.append(got[0])
        factors.append(got[1])
    return names, factors


def require_throughput(names, source, lineno):
    have = set(names)
    if not ({"rkb_per_s", "wkb_per_s"} <= have or {"rkb_per_s", "wdkb_per_s"} <= have
            or "kb_per_s" in have):
        raise ParseError(source, "unknown iostat layout: no read and write kB (MB, GB, sectors) "
                         "per second columns", lineno)


def finish(frame, names, factors, stamps, rep_of_row, source, since_boot_included, device,
            layout):
    for name, f in zip(names, factors):
        frame[name] = frame[name].astype("float64") * f if f != 1.0 else frame[name].astype("float64")
    for name in STABLE:
        if name not in frame:
            frame[name] = np.nan
    frame.insert(0, "report", rep_of_row)
    frame.insert(0, "timestamp", stamps)
    frame["is_group"] = frame["device"].str.startswith(" ").astype(bool)  # -g NAME: " NAME"
    rest = [c for c in names if c not in STABLE]
    frame = frame[["timestamp", "report", "device"] + STABLE + ["is_group"] + rest]
    if since_boot_included:
        frame = frame[frame["report"] != frame["report"].min()] if len(frame) else frame
    if device is not None:
        frame = frame[frame["device"] == device]
    frame = frame.reset_index(drop=True)
    frame.attrs.update(layout=layout, source=str(source))
    return frame
