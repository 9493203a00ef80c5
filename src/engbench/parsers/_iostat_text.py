"""The reference iostat text parser: one pass over the lines, every refusal worded with its
line. The fast path in iostat.py gives way to it for anything unusual.

A report, as sysstat 12.x prints it: an optional timestamp (-t), an optional avg-cpu block, then
device blocks (a header, one row per device, a blank line). The header has ``Device`` first, or
last with --pretty (-h): each row then ends with the device name. --pretty on the extended layout
also splits a report into sub-reports (r/s..., w/s..., d/s..., f/s... %util), one block each, all
listing the same devices: the headers of such a file repeat as a cycle, the blocks of one cycle
make one report, and their columns are joined side by side, device by device (same names in the
same order, else refused). Values may carry -h suffixes (see _human); group rows (-g) are
named as iostat names them (see group_row)."""

import io
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._human import to_numbers, value_kind
from ._iostat_json import parse_json
from ._iostat_layout import columns, finish, layout_of, require_throughput
from .errors import ParseError
from .timefmt import looks_like_stamp, parse_stamps


@dataclass
class _Block:
    head: int                  # line index of the header
    stamp: int                 # line index of the timestamp printed before it, or -1
    rows: list = field(default_factory=list)  # line indices of its device rows


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
    blocks = _blocks(lines, first, source)
    k = _cycle(blocks, lines, source)
    parts = _parts(blocks[:k], lines, source)
    names = [n for p in parts for n in p[1]]
    require_throughput(names, source, blocks[0].head + 1)
    frame = _rows(blocks, k, parts, lines, source)
    reports = [blocks[r * k] for r in range(len(blocks) // k)]
    rep_of_row = np.repeat(np.arange(len(reports), dtype=np.int64), [len(b.rows) for b in reports])
    has_ts = [b.stamp >= 0 for b in reports]
    if any(has_ts) and not all(has_ts):
        raise ParseError(source, "some reports have a timestamp and others not",
                         reports[has_ts.index(False)].head + 1)
    if all(has_ts):
        st = parse_stamps([lines[b.stamp] for b in reports], [b.stamp + 1 for b in reports],
                          source, tz=tz, dayfirst=dayfirst)
        ns = st.dt.as_unit("ns").astype("int64").to_numpy()[rep_of_row]
        stamps = pd.to_datetime(ns, unit="ns", utc=True).array
    else:
        stamps = pd.Series(pd.NaT, index=range(len(frame)), dtype="datetime64[ns, UTC]").array
    return finish(frame, names, [1.0] * len(names), stamps, rep_of_row, source,
                  since_boot_included, device, layout_of(names))


def _blocks(lines, first, source):
    """Device blocks in file order, each with its timestamp; anything else is refused."""
    blocks, pending, block = [], -1, None
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if block is not None:
            if line:
                block.rows.append(i)
                continue
            block = None
            continue
        if not line:
            continue
        c = line[0]
        if (c == "D" and line.startswith("Device")) or (
                c in " \t" and not lines[i - 1].startswith("avg-cpu:") and line.split()[-1] == "Device"):
            block = _Block(i, pending)  # plain header, or --pretty's (`... %util Device`)
            blocks.append(block)
            pending = -1
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
    if not blocks:
        raise ParseError(source, "no 'Device' header: no device reports (iostat -c output?)")
    if not any(b.rows for b in blocks):
        raise ParseError(source, "no device rows")
    return blocks


def _cycle(blocks, lines, source) -> int:
    """How many blocks make one report: 1, or the --pretty sub-reports of the extended layout
    (the headers repeat with that period). A header out of the cycle is a layout change."""
    heads = [lines[b.head] for b in blocks]
    k = next((j for j in range(1, len(heads)) if heads[j] == heads[0]), len(heads))
    for j, b in enumerate(blocks):
        if heads[j] != heads[j % k] or (k > 1 and heads[j].startswith("Device")):
            raise ParseError(source, "the iostat layout changes inside the file", b.head + 1)
        if j % k and b.stamp >= 0:
            raise ParseError(source, "a timestamp between the sub-reports of a report", b.stamp + 1)
    if len(blocks) % k:
        raise ParseError(source, f"truncated file: the last report has {len(blocks) % k} of its "
                         f"{k} sub-reports", blocks[-1].head + 1)
    return k


def _parts(blocks, lines, source):
    """The headers of one report → [(pretty, names, factors)]; a column in two parts is refused."""
    parts, seen = [], []
    for b in blocks:
        head = lines[b.head]
        toks = head.split()
        pretty = not head.startswith("Device")
        names, factors = columns(toks[:-1] if pretty else toks[1:], source, b.head + 1, seen)
        parts.append((pretty, names, factors))
        seen += names
    return parts


def split_row(line: str, pretty: bool):
    """Device row → (device name as printed, value tokens): the name is the first field, or the
    last one with --pretty."""
    toks = line.split()
    if not toks:
        return "", []
    return (toks[-1], toks[:-1]) if pretty else (toks[0], toks[1:])


def group_row(line: str, name: str, pretty: bool) -> bool:
    """Is this the row of a group (-g NAME)? iostat names a group " NAME" and prints names with
    "%-13s" (the row then starts with a blank) or, with --pretty, as " %s" after a value, which
    never ends in a blank (the row then ends in "  NAME")."""
    if pretty:
        return line.rstrip()[:-len(name)].endswith("  ")
    return line[:1] in (" ", "\t")


def _rows(blocks, k, parts, lines, source):
    """Rows of every report, the sub-reports of one report joined device by device → frame of
    ``device`` and the columns, float64 in the output units."""
    reports = [blocks[r * k:(r + 1) * k] for r in range(len(blocks) // k)]
    for group in reports:
        for b in group[1:]:
            if len(b.rows) != len(group[0].rows):
                raise ParseError(source, f"sub-report with {len(b.rows)} devices, the first part of "
                                 f"its report has {len(group[0].rows)}", b.head + 1)
    tables = []
    for p, part in enumerate(parts):
        idx = [i for group in reports for i in group[p].rows]
        t = _part_rows([lines[i] for i in idx], idx, part, source)
        if tables:
            other = (t["device"] != tables[0]["device"]).to_numpy()
            if other.any():
                j = int(np.flatnonzero(other)[0])
                raise ParseError(source, f"device {t['device'][j]!r} where the first sub-report "
                                 f"of the report has {tables[0]['device'][j]!r}", idx[j] + 1)
            t = t.drop(columns="device")
        tables.append(t)
    return tables[0] if len(tables) == 1 else pd.concat(tables, axis=1)


def _part_rows(rows, idx, part, source):
    """The rows of one sub-report (all reports; ``idx`` their line indices) → frame of
    ``device`` and its columns in the output units. read_csv tokenizes (plain numbers straight to
    float, as the fast path does, or -h values as strings for _human); rows it cannot read one
    per line are split here, which also words a refusal with its line."""
    pretty, names, factors = part
    cols = names + ["device"] if pretty else ["device"] + names
    text = "\n".join(rows)
    table = _read(text, len(rows), cols, names, {"device": str, **{n: "float64" for n in names}})
    if table is None:
        table = _read(text, len(rows), cols, names, str)
    if table is None:
        table = _split(rows, idx, pretty, names, source)
    if pretty or text[:1] in (" ", "\t") or "\n " in text or "\n\t" in text:  # groups?
        table["device"] = pd.Series([" " + d if group_row(r, d, pretty) else d
                                     for r, d in zip(rows, table["device"])], dtype=str)
    elif table["device"].dtype == object:
        table["device"] = table["device"].astype(str)
    for name, factor in zip(names, factors):
        col = table[name]
        if col.dtype == np.float64:
            if factor != 1.0:
                table[name] = col * factor
            continue
        vals, bad = to_numbers(col.tolist(), value_kind(name), factor)
        if bad >= 0:
            raise ParseError(source, f"not a number in column {name} ({col.iloc[bad]!r} is not one "
                             f"iostat prints there): {rows[bad][:60]!r}", idx[bad] + 1)
        table[name] = vals
    return table


def _read(text, n, cols, names, dtype):
    """read_csv of ``n`` whitespace-separated rows, or None unless it gives exactly one complete
    row per line (finite numbers, no missing field)."""
    try:
        t = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, names=cols, dtype=dtype,
                        na_filter=False, engine="c")
    except (ValueError, pd.errors.ParserError):
        return None
    if not isinstance(t.index, pd.RangeIndex) or len(t) != n:
        return None
    if dtype is str:
        return None if (t == "").to_numpy().any() or t.isna().to_numpy().any() else t
    return t if all(np.isfinite(t[n].to_numpy()).all() for n in names) else None


def _split(rows, idx, pretty, names, source):
    """Rows split one by one; a row with more or fewer values than the header is refused."""
    out = {"device": []}
    out.update({n: [] for n in names})
    for line, i in zip(rows, idx):
        dev, toks = split_row(line, pretty)
        if len(toks) != len(names):
            what = "short" if len(toks) < len(names) else "garbled"
            raise ParseError(source, f"{what} device row ({len(toks) + 1} fields, header has "
                             f"{len(names) + 1}{'; truncated?' if what == 'short' else ''}): "
                             f"{line[:60]!r}", i + 1)
        out["device"].append(dev)
        for n, t in zip(names, toks):
            out[n].append(t)
    return pd.DataFrame(out, dtype=object)
