"""Whitespace-separated rows under a known header → a typed frame, or a ParseError naming the
line. Shared by the iostat and vmstat text parsers (their reference, line-by-line path)."""

import io
import re

import pandas as pd

from .errors import ParseError


def rows_to_frame(source, rows: list[str], line_idx, cols: list[str], numeric: list[str], what: str,
              dtype: dict | None = None) -> pd.DataFrame:
    """Read `rows` with the header's column names `cols`; every column in `numeric` must be a
    number. A row with more or fewer fields than the header, or a non-number, is refused with
    "garbled <what> row" / "not a number in column …" and its line (line_idx[k] + 1)."""
    text = "\n".join(rows)
    try:
        frame = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, names=cols, dtype=dtype, engine="c")
    except pd.errors.ParserError as exc:
        m = re.search(r"line (\d+)", str(exc))
        k = int(m.group(1)) - 1 if m else 0
        raise ParseError(source, f"garbled {what} row ({len(rows[k].split())} fields, "
                         f"header has {len(cols)}): {rows[k][:60]!r}", line_idx[k] + 1) from exc
    except ValueError as exc:  # a non-number under a column declared float: find it
        frame = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, names=cols, dtype=str, engine="c")
        _refuse_non_numbers(source, frame, numeric, rows, line_idx)
        raise
    if not isinstance(frame.index, pd.RangeIndex):  # every row has more fields than the header
        raise ParseError(source, f"garbled {what} row (more fields than the header's {len(cols)}): "
                         f"{rows[0][:60]!r}", line_idx[0] + 1)
    _refuse_non_numbers(source, frame, [n for n in numeric if not pd.api.types.is_numeric_dtype(frame[n])],
                        rows, line_idx)
    return frame


def _refuse_non_numbers(source, frame, names, rows, line_idx) -> None:
    for name in names:
        bad = (pd.to_numeric(frame[name], errors="coerce").isna() & frame[name].notna()).to_numpy()
        if bad.any():
            k = int(bad.argmax())
            raise ParseError(source, f"not a number in column {name}: {rows[k][:60]!r}", line_idx[k] + 1)
