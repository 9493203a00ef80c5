"""The reference iostat text parser: one pass over the lines, every refusal worded with its
line. The fast path in iostat.py gives way to it for anything unusual."""

import numpy as np
import pandas as pd

from ._iostat_json import parse_json
from ._iostat_layout import finish, header, layout_of
from ._rows import rows_to_frame
from .errors import ParseError
from .timefmt import looks_like_stamp, parse_stamps


def parse_text(text, source, since_boot_included, device, tz, dayfirst):
    """The reference parser: one pass over the lines, every refusal worded with its line."""
    if not text.strip():
        raise ParseError(source, "empty file: no iostat reports")
    if text.lstrip().startswith("{"):
        return parse_json(text, source, since_boot_included, device, tz, dayfirst)
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
                names, factors = header(toks[1:], source, i + 1)
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
    return finish(frame, names, factors, stamps, np.asarray(dev_rep, dtype=np.int64), source,
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
