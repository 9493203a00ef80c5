"""Timestamps as iostat -t and vmstat -t print them, into pandas UTC datetimes.

iostat -t prints the time of each report with strftime("%x %X") in the capture's locale unless
S_TIME_FORMAT=ISO is set:

    2026-11-21T05:40:06+0000    S_TIME_FORMAT=ISO (zone offset included)
    11/21/26 05:40:06           LC_ALL=C
    11/21/2026 05:40:06 AM      en_US
    21/11/26 05:40:06           en_GB
    21.11.2026 05:40:06         de_DE

The slash forms are ambiguous (month or day first). The whole file decides: a first field > 12
means day first, a second field > 12 means month first; otherwise ``dayfirst`` (default False,
the C and en_US order) decides. Forms without a zone are taken in ``tz`` (default UTC)."""

import re

import pandas as pd

from .errors import ParseError

ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{4}|Z)?$")
SLASH_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4}) (\d{1,2}:\d{2}:\d{2})( [AP]M)?$")
DOT_RE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4}) (\d{1,2}:\d{2}:\d{2})$")
YMD_RE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def looks_like_stamp(line: str) -> bool:
    s = line.strip()
    return bool(ISO_RE.match(s) or SLASH_RE.match(s) or DOT_RE.match(s) or YMD_RE.match(s))


def _format_for(stamps, source, lines, dayfirst):
    s0 = stamps[0]
    if ISO_RE.match(s0):
        return "%Y-%m-%dT%H:%M:%S%z" if not s0.endswith("Z") and len(s0) > 19 else "%Y-%m-%dT%H:%M:%S"
    if YMD_RE.match(s0):
        return "%Y-%m-%d %H:%M:%S"
    m = DOT_RE.match(s0)
    if m:
        return "%d.%m.%Y %H:%M:%S" if len(m.group(3)) == 4 else "%d.%m.%y %H:%M:%S"
    m = SLASH_RE.match(s0)
    if not m:
        raise ParseError(source, f"unrecognised timestamp {s0!r}", lines[0])
    firsts, seconds = [], []
    for s in stamps:
        mm = SLASH_RE.match(s)
        if mm:
            firsts.append(int(mm.group(1)))
            seconds.append(int(mm.group(2)))
    if max(firsts) > 12:
        day_first = True
    elif max(seconds) > 12:
        day_first = False
    else:
        day_first = bool(dayfirst)
    date = "%d/%m/" if day_first else "%m/%d/"
    date += "%Y" if len(m.group(3)) == 4 else "%y"
    clock = " %I:%M:%S %p" if m.group(5) else " %H:%M:%S"
    return date + clock


def parse_stamps(stamps, lines, source, tz="UTC", dayfirst=None) -> pd.Series:
    """``stamps``: timestamp strings; ``lines``: their 1-based line numbers (for errors).
    Returns a Series of datetime64[ns, UTC]."""
    if len(stamps) == 0:
        return pd.Series(pd.to_datetime([], utc=True))
    stamps = [s.strip() for s in stamps]
    fmt = _format_for(stamps, source, lines, dayfirst)
    parsed = pd.to_datetime(pd.Series(stamps), format=fmt, errors="coerce")
    bad = parsed.isna().to_numpy()
    if bad.any():
        i = int(bad.argmax())
        raise ParseError(source, f"timestamp {stamps[i]!r} does not match {fmt!r} like the first one", lines[i])
    if parsed.dt.tz is None:
        try:
            parsed = parsed.dt.tz_localize(tz)
        except Exception as exc:  # unknown zone name
            raise ParseError(source, f"cannot interpret the time zone {tz!r}: {exc}") from exc
    return parsed.dt.tz_convert("UTC").astype("datetime64[ns, UTC]")
