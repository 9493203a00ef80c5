"""iostat (sysstat) captures → one row per report and device.

Every layout sysstat has printed is read by column NAME (the header), never by position:

    ub16  `Device: rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz avgqu-sz await [r_await w_await] svctm %util`
    ub18  `Device r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await aqu-sz rareq-sz wareq-sz svctm %util`
    ub20  `Device r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s ... d/s dkB/s ... aqu-sz %util`
    ub22+ as ub20 plus `f/s f_await`
    d     `Device tps kB_read/s kB_wrtn/s [kB_dscd/s] kB_read kB_wrtn [kB_dscd]` (old: `Device:`, no discards)
    s     -s: `Device tps kB_read/s kB_w+d/s kB_read kB_w+d` (written + discarded, together)
    sx    -s -x: `Device tps kB/s rqm/s await areq-sz aqu-sz %util` (read + written + discarded)
    JSON  `iostat -o JSON` (keys as the text headers, `%` dropped)

Any of them with -h (= --human --pretty), --human or --pretty [--compact]: the device name last
(`... %util Device`), the extended layout split into r/w/d/f sub-reports joined back into one row
per device (_iostat_text), sizes printed as `222.1k`, `1.2M`, `3.9G` and percentages as `6.0%`:
the suffix is the unit, 1024-based from kB (k = kB, M = 1024 kB, G = 1024**2 kB), whatever unit
the header names (_human has the rule and sysstat's source for it).

Units: -m (MB), -G (GB: sysstat's development version, after 12.7.9) and sector (`rsec/s`,
`Blk_read/s`) columns are converted to kB (1024 bytes), so every ``*kb_per_s`` is kB/s and every
``*kb_total`` kB. Columns a layout
lacks (discards before sysstat 12, r/s in the -d layout, the split of w+d under -s) are NaN,
never 0: under -s, ``wdkb_per_s`` = written + discarded kB/s and ``wkb_per_s`` is NaN; under
-s -x, ``kb_per_s``, ``rqm_per_s`` and ``areq_sz`` are read + write + discard totals (and
``tps`` = r/s + w/s + d/s, as sysstat computes it).

Stable output columns: ``timestamp`` (UTC; NaT without -t), ``report`` (0-based position of the
report in the file), ``device`` (exact name), ``r_per_s w_per_s rkb_per_s wkb_per_s d_per_s
dkb_per_s``, ``is_group``, then the other printed columns in printed order (``%util`` → ``util_pct``,
``rrqm/s`` → ``rrqm_per_s``, ``aqu-sz`` → ``aqu_sz``, ``kB_read`` → ``rkb_total``,
``kB_w+d/s`` → ``wdkb_per_s``, ``kB/s`` → ``kb_per_s`` ...).

Groups (-g NAME [-H]): iostat prints a group's row after its devices' rows (only the group's
with -H), under the name " NAME" (a space first: how iostat stores it and how -o JSON prints it;
no kernel device name has a space). The frame keeps that name, so ``device=" NAME"`` selects the
group, and flags the row ``is_group`` (False for every device row and in captures without -g):
sum or average over ``~is_group`` rows, or the group's devices count twice. A group's columns
are its devices' sums except %util, which sysstat 12.6.1 divides by a device count that grows
with every read (7.60 % for vda alone prints 1.90 % for a 2-device group at its second read):
use the devices' own %util. With -H in the split --pretty layout, 12.6.1 also prints wrong
group rates (read totals since boot over one interval, w/s d/s f/s 0). Both are parsed as printed.

The since-boot report: iostat without ``-y`` prints averages since boot as its first report.
``since_boot_included`` says whether the capture has one (True = made WITHOUT -y): it is then
dropped. The default, False, is for a capture made with ``-y`` (engbench's own until 2026-11-23;
its capture now keeps the since-boot report, which marks the moment iostat first read its
counters); use ``since_boot_from_argv`` when the command line is known, as the processing does
with the argv in the manifest. The parser cannot tell by itself."""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._iostat_layout import STABLE, column_name, finish, layout_of  # noqa: F401 (API)
from ._iostat_layout import header as _header
from ._iostat_text import parse_text as _parse_text
from ._lines import Lines, read_rows, same_shape, universal_newlines
from ._read import read_capture
from .errors import ParseError
from .timefmt import DOT_RE, ISO_RE, SLASH_RE, YMD_RE, parse_stamps


def since_boot_from_argv(argv) -> bool:
    """True when an iostat command line lacks -y (so its first report is since boot)."""
    for a in argv or []:
        if a.startswith("-") and not a.startswith("--") and "y" in a[1:]:
            return False
    return True


def parse_iostat(path, *, since_boot_included: bool = False, device: str | None = None,
                 tz: str = "UTC", dayfirst: bool | None = None) -> pd.DataFrame:
    """Parse an iostat capture file (text or ``-o JSON``). See the module docstring."""
    path = Path(path)
    raw = universal_newlines(read_capture(path))
    if raw.isascii():  # the fast path works on bytes: skip decoding 100 MB to str
        got = _fast_text(raw, path, since_boot_included, device, tz, dayfirst)
        if got is not None:
            return got
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise ParseError(path, f"not text: {exc}") from exc
    return _parse_text(text, path, since_boot_included, device, tz, dayfirst)


def parse_iostat_text(text, *, source="<iostat>", since_boot_included=False, device=None,
                      tz="UTC", dayfirst=None) -> pd.DataFrame:
    if text.isascii():
        got = _fast_text(text.encode("ascii"), source, since_boot_included, device, tz, dayfirst)
        if got is not None:
            return got
    return _parse_text(text, source, since_boot_included, device, tz, dayfirst)


_STAMP_RES = (ISO_RE, SLASH_RE, DOT_RE, YMD_RE)
_D, _A, _SP, _TAB = ord("D"), ord("a"), ord(" "), ord("\t")


def _fast_text(raw: bytes, source, since_boot_included, device, tz, dayfirst):
    """The text layouts without a per-line Python loop (see _lines). Returns None, never a
    ParseError, for anything it does not accept: _parse_text then parses the file line by line and
    words the error. It accepts the files _parse_text accepts (minus rarities such as trailing
    blanks after a timestamp) and returns the same frame."""
    try:
        return _fast_text_or_none(raw, source, since_boot_included, device, tz, dayfirst)
    except ParseError:
        return None


def _fast_text_or_none(raw, source, since_boot_included, device, tz, dayfirst):
    L = Lines(raw)
    n = L.n
    ar = np.arange(n)
    blank = L.ends == L.starts
    nonblank = np.flatnonzero(~blank)
    if not len(nonblank):
        return None
    first = int(nonblank[0])
    if not L.line(first).startswith(b"Linux"):
        return None  # JSON, vmstat, garbage: the reference path decides
    after = ar > first
    cand_d = np.flatnonzero((L.first == _D) & after)
    is_d = np.zeros(n, dtype=bool)
    is_d[cand_d[L.has_prefix(cand_d, b"Device")]] = True
    # inside a Device block at line i: the last header before i comes after the last empty line
    last_h = np.maximum.accumulate(np.where(is_d, ar, -1))
    last_b = np.maximum.accumulate(np.where(blank, ar, -1))
    in_blk = np.zeros(n, dtype=bool)
    in_blk[1:] = last_h[:-1] > last_b[:-1]
    if (is_d & in_blk).any():
        return None  # a 'Device...' line inside a block is a device row: not the usual shape
    hdr_idx = np.flatnonzero(is_d)
    dev = in_blk & ~blank
    dev_idx = np.flatnonzero(dev)
    if not len(hdr_idx) or not len(dev_idx):
        return None
    if ((L.first[dev_idx] == _SP) | (L.first[dev_idx] == _TAB)).any():
        return None  # a group row (-g NAME), named " NAME": read_csv would drop the space
    header = L.line(hdr_idx[0])
    # all headers alike: each "\nH\n" found is a distinct header line (none are adjacent)
    if L.raw.count(b"\n" + header + b"\n") != len(hdr_idx):
        return None
    other = np.flatnonzero(~blank & ~in_blk & ~is_d & after)
    fb = L.first[other]
    ind = (fb == _SP) | (fb == _TAB)
    if not L.has_prefix(other[ind] - 1, b"avg-cpu:").all():
        return None
    rest = other[~ind]
    avg = np.zeros(len(rest), dtype=bool)
    maybe_avg = L.first[rest] == _A
    avg[maybe_avg] = L.has_prefix(rest[maybe_avg], b"avg-cpu:")
    st_idx = rest[~avg]
    stamps = []
    if len(st_idx):
        fixed = L.fixed_width(st_idx)
        if fixed is not None:
            joined = np.concatenate([fixed, np.full((len(fixed), 1), 10, np.uint8)], axis=1)
            joined = joined.tobytes().decode("ascii")[:-1]
        else:
            joined = L.joined(st_idx).decode("ascii")
        stamps = joined.split("\n")
        rx = next((r for r in _STAMP_RES if r.match(stamps[0])), None)
        if rx is None:
            return None
        # the same regex as the first: vectorized when the stamps differ only in their digits
        if not (fixed is not None and same_shape(fixed)) and \
                not re.fullmatch(f"(?:{rx.pattern[1:-1]}\n)*", joined + "\n"):
            return None
    # a timestamp must be followed by a header before the next timestamp or the end
    ev = np.concatenate([st_idx, hdr_idx])
    kind = np.concatenate([np.zeros(len(st_idx), bool), np.ones(len(hdr_idx), bool)])
    order = np.argsort(ev, kind="stable")
    ev, kind = ev[order], kind[order]
    is_st = ~kind
    nxt_hdr = np.zeros(len(ev), dtype=bool)
    nxt_hdr[:-1] = kind[1:]
    if (is_st & ~nxt_hdr).any():
        return None
    prev_st = np.zeros(len(ev), dtype=bool)
    prev_st[1:] = is_st[:-1]
    hdr_has_ts = prev_st[kind]
    if hdr_has_ts.any() and not hdr_has_ts.all():
        return None

    names, factors = _header(header.decode("ascii").split()[1:], source, int(hdr_idx[0]) + 1)
    cols = ["device"] + names
    frame = read_rows(L.join(dev), cols, {"device": str, **{nm: "float64" for nm in names}},
                      L.no_trailing_blank(dev_idx))
    if frame is None or len(frame) != len(dev_idx) or frame[names].isna().to_numpy().any():
        return None
    dev_rep = np.cumsum(is_d)[dev_idx] - 1
    if hdr_has_ts.all():
        st = parse_stamps(stamps, (st_idx + 1).tolist(), source, tz=tz, dayfirst=dayfirst)
        ns = st.dt.as_unit("ns").astype("int64").to_numpy()[dev_rep]
        ts = pd.to_datetime(ns, unit="ns", utc=True).array
    else:
        ts = pd.Series(pd.NaT, index=range(len(dev_idx)), dtype="datetime64[ns, UTC]").array
    return finish(frame, names, factors, ts, dev_rep.astype(np.int64), source,
                   since_boot_included, device, layout_of(names))
