"""vmstat (procps-ng) captures → one row per sample.

Read by column NAME from the second header line (`r b swpd free buff cache si so bi bo in cs us sy
id wa st [gu]`; `-a` has `inact active` for `buff cache`; `-w` only widens; `-t` adds a timestamp
whose zone the header names, e.g. `-----timestamp-----` over `UTC`). Header lines repeated every
21 samples (vmstat without -n writing to a file) are skipped — they are not samples.

Output columns: ``timestamp`` (UTC; NaT without -t), ``sample`` (0-based position of the data row
in the file), then the printed columns in printed order, all float64. The memory columns (swpd
free buff cache inact active) are converted to KiB whatever ``-S`` unit the capture used: pass
``unit`` (k=1000, K=1024 (vmstat's default), m=10^6, M=2^20 bytes); the file cannot tell.

The since-boot row: vmstat's first data row is an average since boot unless it was run with
``-y``. ``since_boot_included=True`` (the default: engbench's capture has no -y) drops it."""

import re
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

from ._lines import Lines, read_rows, universal_newlines
from ._rows import rows_to_frame
from ._read import read_capture
from .errors import ParseError
from .timefmt import parse_stamps

KNOWN = ["r", "b", "swpd", "free", "buff", "cache", "inact", "active", "si", "so", "bi", "bo",
         "in", "cs", "us", "sy", "id", "wa", "st", "gu"]
MEMORY = ["swpd", "free", "buff", "cache", "inact", "active"]
REQUIRED = ["cs", "us", "sy", "id", "wa"]
UNITS = {"k": 1000, "K": 1024, "m": 1000 ** 2, "M": 1024 ** 2}


def since_boot_from_argv(argv) -> bool:
    """True when a vmstat command line lacks -y/--no-first (so its first row is since boot)."""
    for a in argv or []:
        if a == "--no-first" or (a.startswith("-") and not a.startswith("--") and "y" in a[1:]):
            return False
    return True


def unit_from_argv(argv) -> str:
    """The -S unit of a vmstat command line ('K' when absent)."""
    argv = list(argv or [])
    for i, a in enumerate(argv):
        if a in ("-S", "--unit") and i + 1 < len(argv):
            return argv[i + 1]
        m = re.fullmatch(r"-S([kKmM])|--unit=([kKmM])", a)
        if m:
            return m.group(1) or m.group(2)
    return "K"


def parse_vmstat(path, *, since_boot_included: bool = True, unit: str = "K",
                 tz: str | None = None) -> pd.DataFrame:
    """Parse a vmstat capture file. See the module docstring."""
    path = Path(path)
    raw = universal_newlines(read_capture(path))
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {sorted(UNITS)}, not {unit!r}")
    if raw.isascii():  # the fast path works on bytes: skip decoding to str
        got = _fast_text(raw, path, since_boot_included, unit, tz)
        if got is not None:
            return got
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(path, f"not text: {exc}") from exc
    return _parse_text(text, path, since_boot_included, unit, tz)


def parse_vmstat_text(text, *, source="<vmstat>", since_boot_included=True, unit="K",
                      tz=None) -> pd.DataFrame:
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {sorted(UNITS)}, not {unit!r}")
    if text.isascii():
        got = _fast_text(text.encode("ascii"), source, since_boot_included, unit, tz)
        if got is not None:
            return got
    return _parse_text(text, source, since_boot_included, unit, tz)


def _columns(group, names_line, source, h1):
    """The two header lines → (printed names, has_ts, zone); ParseError for an unknown layout."""
    names = names_line.split()
    has_ts = "timestamp" in group
    zone = None
    if has_ts:
        zone = names.pop()  # the zone name printed under -----timestamp-----
    for n in names:
        if n not in KNOWN:
            raise ParseError(source, f"unknown vmstat layout: column {n!r}", h1 + 2)
    missing = [n for n in REQUIRED if n not in names]
    if missing or len(set(names)) != len(names):
        raise ParseError(source, f"unknown vmstat layout: missing {missing}", h1 + 2)
    return names, has_ts, zone


def _fast_text(raw: bytes, source, since_boot_included, unit, tz):
    """Rows found and checked with numpy over the whole text (see _lines). None, never a
    ParseError, for anything unusual: _parse_text then goes line by line and words the error."""
    try:
        L = Lines(raw)
        blank = L.ends == L.starts
        nonblank = np.flatnonzero(~blank)
        if not len(nonblank):
            return None
        h1 = int(nonblank[0])
        group = L.line(h1).decode("ascii")
        if not group.lstrip("-").startswith("procs") or h1 + 1 >= L.n:
            return None
        names_line = L.line(h1 + 1).decode("ascii")
        if not names_line.strip():
            return None
        names, has_ts, zone = _columns(group, names_line, source, h1)
        after = np.zeros(L.n, dtype=bool)
        after[h1 + 2:] = True
        cand = np.flatnonzero(after & ~blank)
        repeated = L.equals(cand, group.encode("ascii")) | L.equals(cand, names_line.encode("ascii"))
        keep = np.zeros(L.n, dtype=bool)
        keep[cand[~repeated]] = True
        idx = np.flatnonzero(keep)
        if not len(idx):
            return None
        cols = names + (["date", "time"] if has_ts else [])
        frame = read_rows(L.join(keep), cols, {"date": str, "time": str} if has_ts else None,
                          L.no_trailing_blank(idx))
        if (frame is None or len(frame) != len(idx)
                or not all(pd.api.types.is_numeric_dtype(frame[n]) for n in names)
                or frame[cols].isna().to_numpy().any()):
            return None
        return _finish(frame, names, has_ts, zone, group, idx, source, since_boot_included,
                       unit, tz, h1)
    except ParseError:
        return None


def _parse_text(text, source, since_boot_included, unit, tz):
    """The reference parser: one pass over the lines, every refusal worded with its line."""
    if not text.strip():
        raise ParseError(source, "empty file: no vmstat samples")
    lines = text.split("\n")
    h1 = next(i for i, ln in enumerate(lines) if ln.strip())
    if lines[h1].startswith("Linux") or lines[h1].lstrip().startswith("{"):
        raise ParseError(source, "this is an iostat capture, not vmstat", h1 + 1)
    if not lines[h1].lstrip("-").startswith("procs"):
        raise ParseError(source, "not a vmstat capture: the first line is not the 'procs ...' "
                         f"group header (vmstat -d/-s/-p output is not supported): {lines[h1][:60]!r}", h1 + 1)
    if h1 + 1 >= len(lines) or not lines[h1 + 1].strip():
        raise ParseError(source, "truncated file: no column header line", h1 + 1)
    group, names_line = lines[h1], lines[h1 + 1]
    names, has_ts, zone = _columns(group, names_line, source, h1)

    rows, idx = [], []
    for i in range(h1 + 2, len(lines)):
        line = lines[i]
        if not line:
            continue
        if line == group or line == names_line:
            continue  # a repeated header
        rows.append(line)
        idx.append(i)
    if not rows:
        raise ParseError(source, "no vmstat samples after the header")
    cols = names + (["date", "time"] if has_ts else [])
    frame = rows_to_frame(source, rows, idx, cols, names, "vmstat",
                          dtype={"date": str, "time": str} if has_ts else None)
    nan = frame[cols].isna().to_numpy().any(axis=1)
    if nan.any():
        k = int(nan.argmax())
        raise ParseError(source, f"short vmstat row ({len(rows[k].split())} fields, header has "
                         f"{len(cols)}; truncated?): {rows[k][:60]!r}", idx[k] + 1)
    return _finish(frame, names, has_ts, zone, group, np.asarray(idx), source,
                   since_boot_included, unit, tz, h1)


def _finish(frame, names, has_ts, zone, group, idx, source, since_boot_included, unit, tz, h1):
    """Checked rows (``idx``: their 0-based line numbers) → the output frame."""
    tz_name = tz or zone
    out = pd.DataFrame({n: frame[n].astype("float64") for n in names})
    factor = UNITS[unit] / 1024
    for n in MEMORY:
        if n in out and factor != 1:
            out[n] = out[n] * factor
    if has_ts:
        stamps = (frame["date"] + " " + frame["time"]).tolist()
        if tz_name not in ("UTC", "GMT"):
            try:
                ZoneInfo(tz_name)
            except Exception as exc:
                raise ParseError(source, f"vmstat -t names the zone {tz_name!r}, which is not a "
                                 "known zone: pass tz=", h1 + 2) from exc
        ts = parse_stamps(stamps, (idx + 1).tolist(), source, tz=tz_name)
        out.insert(0, "timestamp", ts.array)
    else:
        out.insert(0, "timestamp", pd.Series(np.full(len(out), np.datetime64("NaT"), "datetime64[ns]"))
                   .dt.tz_localize("UTC").to_numpy())
    out.insert(1, "sample", np.arange(len(out), dtype=np.int64))
    if since_boot_included:
        out = out.iloc[1:].reset_index(drop=True)
    out.attrs.update(source=str(source), wide=group.startswith("--"), zone=zone)
    return out
