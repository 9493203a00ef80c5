"""iostat (sysstat) captures → one row per report and device.

Every layout sysstat has printed is read by column NAME (the header), never by position:

    ub16  `Device: rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz avgqu-sz await [r_await w_await] svctm %util`
    ub18  `Device r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await aqu-sz rareq-sz wareq-sz svctm %util`
    ub20  `Device r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s ... d/s dkB/s ... aqu-sz %util`
    ub22+ as ub20 plus `f/s f_await`
    -d    `Device tps kB_read/s kB_wrtn/s [kB_dscd/s] kB_read kB_wrtn [kB_dscd]` (old: `Device:`, no discards)
    JSON  `iostat -o JSON` (keys as the text headers, `%` dropped)

Units: -m (MB) and sector (`rsec/s`, `Blk_read/s`) columns are converted to kB (1024 bytes), so
`rkb_per_s`, `wkb_per_s`, `dkb_per_s` are always kB/s. Columns a layout lacks (discards before
sysstat 12, r/s in the -d layout) are NaN, never 0.

Stable output columns: ``timestamp`` (UTC; NaT without -t), ``report`` (0-based position of the
report in the file), ``device`` (exact name), ``r_per_s w_per_s rkb_per_s wkb_per_s d_per_s
dkb_per_s``, then the other printed columns in printed order (``%util`` → ``util_pct``,
``rrqm/s`` → ``rrqm_per_s``, ``aqu-sz`` → ``aqu_sz``, ``kB_read`` → ``rkb_total`` ...).

The since-boot report: iostat without ``-y`` prints averages since boot as its first report.
``since_boot_included`` says whether the capture has one (True = made WITHOUT -y): it is then
dropped. The default, False, matches engbench's own capture (``iostat -y``); use
``since_boot_from_argv`` when the command line is known. The parser cannot tell by itself."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._lines import Lines, read_rows, same_shape, universal_newlines
from ._rows import rows_to_frame
from .errors import ParseError
from .timefmt import DOT_RE, ISO_RE, SLASH_RE, YMD_RE, looks_like_stamp, parse_stamps

STABLE = ["r_per_s", "w_per_s", "rkb_per_s", "wkb_per_s", "d_per_s", "dkb_per_s"]

_BYTES = {"kB": 1.0, "MB": 1024.0, "sec": 0.5, "Blk": 0.5}  # factor to kB


def column_name(tok: str):
    """Printed iostat column → (stable name, factor to apply), or None if unknown."""
    t = tok.lstrip("%") if tok.startswith("%") else tok
    pct = tok.startswith("%") or tok in ("util", "rrqm", "wrqm", "drqm")  # JSON drops the %
    if tok in ("tps", "svctm", "await", "r_await", "w_await", "d_await", "f_await"):
        return tok, 1.0
    if pct and t in ("util", "rrqm", "wrqm", "drqm"):
        return f"{t}_pct", 1.0
    if tok in ("avgrq-sz", "avgqu-sz", "aqu-sz", "rareq-sz", "wareq-sz", "dareq-sz"):
        return tok.replace("-", "_"), 1.0
    m = re.fullmatch(r"([rwdf])(kB|MB|sec)?/s", tok)  # r/s rkB/s rMB/s rsec/s
    if m:
        kind, unit = m.groups()
        if unit is None:
            return f"{kind}_per_s", 1.0
        if kind == "f":
            return None
        return f"{kind}kb_per_s", _BYTES[unit]
    m = re.fullmatch(r"([rwd])rqm/s", tok)
    if m:
        return f"{m.group(1)}rqm_per_s", 1.0
    m = re.fullmatch(r"(kB|MB|Blk)_(read|wrtn|dscd)(/s)?", tok)  # the -d layout
    if m:
        unit, what, rate = m.groups()
        kind = {"read": "r", "wrtn": "w", "dscd": "d"}[what]
        return (f"{kind}kb_per_s" if rate else f"{kind}kb_total"), _BYTES[unit]
    return None


def layout_of(names) -> str:
    s = set(names)
    if "tps" in s:
        return "d"
    if "avgrq_sz" in s or "svctm" in s and "aqu_sz" not in s:
        return "ub16"
    if "f_per_s" in s:
        return "ub22"
    if "d_per_s" in s:
        return "ub20"
    return "ub18"


def _header(tokens, source, lineno):
    """Header tokens after `Device`/`Device:` → (names, factors)."""
    names, factors = [], []
    for tok in tokens:
        got = column_name(tok)
        if got is None:
            raise ParseError(source, f"unknown iostat layout: column {tok!r} is not one sysstat "
                             "is known to print", lineno)
        if got[0] in names:
            raise ParseError(source, f"unknown iostat layout: column {tok!r} twice", lineno)
        names.append(got[0])
        factors.append(got[1])
    if "rkb_per_s" not in names or "wkb_per_s" not in names:
        raise ParseError(source, "unknown iostat layout: no read/write kB (or MB) per second "
                         "columns (iostat -s or -h output is not supported)", lineno)
    return names, factors


def since_boot_from_argv(argv) -> bool:
    """True when an iostat command line lacks -y (so its first report is since boot)."""
    for a in argv or []:
        if a.startswith("-") and not a.startswith("--") and "y" in a[1:]:
            return False
    return True


def _finish(frame, names, factors, stamps, rep_of_row, source, since_boot_included, device,
            layout):
    for name, f in zip(names, factors):
        frame[name] = frame[name].astype("float64") * f if f != 1.0 else frame[name].astype("float64")
    for name in STABLE:
        if name not in frame:
            frame[name] = np.nan
    frame.insert(0, "report", rep_of_row)
    frame.insert(0, "timestamp", stamps)
    rest = [c for c in names if c not in STABLE]
    frame = frame[["timestamp", "report", "device"] + STABLE + rest]
    if since_boot_included:
        frame = frame[frame["report"] != frame["report"].min()] if len(frame) else frame
    if device is not None:
        frame = frame[frame["device"] == device]
    frame = frame.reset_index(drop=True)
    frame.attrs.update(layout=layout, source=str(source))
    return frame


def parse_iostat(path, *, since_boot_included: bool = False, device: str | None = None,
                 tz: str = "UTC", dayfirst: bool | None = None) -> pd.DataFrame:
    """Parse an iostat capture file (text or ``-o JSON``). See the module docstring."""
    path = Path(path)
    raw = universal_newlines(path.read_bytes())
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
    return _finish(frame, names, factors, ts, dev_rep.astype(np.int64), source,
                   since_boot_included, device, layout_of(names))


def _parse_text(text, source, since_boot_included, device, tz, dayfirst):
    """The reference parser: one pass over the lines, every refusal worded with its line."""
    if not text.strip():
        raise ParseError(source, "empty file: no iostat reports")
    if text.lstrip().startswith("{"):
        return _parse_json(text, source, since_boot_included, device, tz, dayfirst)
    lines = text.split("\n")
    first = next(i for i, ln in enumerate(lines) if ln.strip())
    if lines[first].lstrip("-").startswith("procs"):
        raise ParseError(source, "this is a vmstat capture, not iostat", first + 1)
    if not lines[first].startswith("Linux"):
        raise ParseError(source, "not an iostat capture: the first line is not the "
                         f"'Linux <release> (<host>) <date> <arch> (<n> CPU)' banner: {lines[first][:60]!r}",
                         first + 1)

    header_line = None
    names = factors = None
    dev_idx, dev_rep, rep_stamp_idx = [], [], []
    pending = -1
    in_block = False
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if in_block:
            if line:
                dev_idx.append(i)
                dev_rep.append(len(rep_stamp_idx) - 1)
                continue
            in_block = False
            continue
        if not line:
            continue
        c = line[0]
        if c == "D" and line.startswith("Device"):
            if line != header_line:
                if header_line is not None:
                    raise ParseError(source, "the iostat layout changes inside the file", i + 1)
                toks = line.split()
                names, factors = _header(toks[1:], source, i + 1)
                header_line = line
            rep_stamp_idx.append(pending)
            pending = -1
            in_block = True
        elif c == " " or c == "\t":
            if not lines[i - 1].startswith("avg-cpu:"):
                raise ParseError(source, f"unexpected indented line {line.strip()[:60]!r}", i + 1)
        elif c == "a" and line.startswith("avg-cpu:"):
            pass
        elif looks_like_stamp(line):
            if pending >= 0:
                raise ParseError(source, "a report without a Device block (truncated?)", pending + 1)
            pending = i
        else:
            raise ParseError(source, f"garbled line {line[:60]!r}", i + 1)
    if pending >= 0:
        raise ParseError(source, "truncated file: the last report has a timestamp but no "
                         "Device block", pending + 1)
    if header_line is None:
        raise ParseError(source, "no 'Device' header: no device reports (iostat -c output?)")
    if not dev_idx:
        raise ParseError(source, "no device rows")

    frame = _read_rows([lines[i] for i in dev_idx], dev_idx, names, source)
    has_ts = [k >= 0 for k in rep_stamp_idx]
    if any(has_ts) and not all(has_ts):
        k = has_ts.index(False)
        raise ParseError(source, "some reports have a timestamp and others not", k + 1)
    if all(has_ts):
        st = parse_stamps([lines[k] for k in rep_stamp_idx], [k + 1 for k in rep_stamp_idx],
                          source, tz=tz, dayfirst=dayfirst)
        ns = st.dt.as_unit("ns").astype("int64").to_numpy()[np.asarray(dev_rep)]
        stamps = pd.to_datetime(ns, unit="ns", utc=True).array
    else:
        stamps = pd.Series(pd.NaT, index=range(len(dev_idx)), dtype="datetime64[ns, UTC]")
        stamps = stamps.array
    return _finish(frame, names, factors, stamps, np.asarray(dev_rep, dtype=np.int64), source,
                   since_boot_included, device, layout_of(names))


def _read_rows(rows, line_idx, names, source):
    """Device rows → frame; a row with the wrong number of fields or a non-number → ParseError
    naming its line."""
    cols = ["device"] + names
    frame = rows_to_frame(source, rows, line_idx, cols, names, "device",
                          dtype={"device": str, **{n: "float64" for n in names}})
    nan = frame[names].isna().to_numpy().any(axis=1)
    if nan.any():
        k = int(nan.argmax())
        raise ParseError(source, f"short device row ({len(rows[k].split())} fields, header has "
                         f"{len(cols)}; truncated?): {rows[k][:60]!r}", line_idx[k] + 1)
    return frame


def _parse_json(text, source, since_boot_included, device, tz, dayfirst):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(source, f"truncated or invalid iostat JSON: {exc.msg}", exc.lineno) from exc
    try:
        stats = doc["sysstat"]["hosts"][0]["statistics"]
    except (KeyError, IndexError, TypeError) as exc:
        raise ParseError(source, "JSON without sysstat.hosts[0].statistics: not iostat -o JSON") from exc
    records, reps, stamps = [], [], []
    keys = None
    for r, rep in enumerate(stats):
        for d in rep.get("disk", []):
            k = [x for x in d if x != "disk_device"]
            if keys is None:
                keys = k
            elif k != keys:
                raise ParseError(source, f"the iostat layout changes at report {r}")
            records.append([d["disk_device"]] + [d[x] for x in k])
            reps.append(r)
            stamps.append(rep.get("timestamp"))
    if keys is None:
        raise ParseError(source, "no disk statistics in the JSON (iostat -c output?)")
    names, factors = _header(keys, source, None)
    frame = pd.DataFrame(records, columns=["device"] + names)
    for name in names:
        frame[name] = pd.to_numeric(frame[name], errors="raise").astype(float)
    if all(s is not None for s in stamps):
        st = parse_stamps(stamps, [None] * len(stamps), source, tz=tz, dayfirst=dayfirst).to_numpy()
    else:
        st = np.full(len(records), np.datetime64("NaT"), dtype="datetime64[ns]")
        st = pd.Series(st).dt.tz_localize("UTC").to_numpy()
    return _finish(frame, names, factors, st, np.asarray(reps, dtype=np.int64), source,
                   since_boot_included, device, layout_of(names))
