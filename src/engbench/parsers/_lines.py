"""Vectorized line bookkeeping for the fast paths of the text parsers.

A capture of a day at 1 s is ~10^6 lines; a Python loop over them (and `str.split` into a list of
line strings) costs more than parsing the numbers. These helpers work on the raw bytes with numpy:
one pass finds every newline, after which line classification is array arithmetic.

The fast paths built on them are STRICT: whenever something is unusual they give up (return
None) and the parser runs its per-line reference loop, which is the only code that words
``file:line`` errors. A fast path therefore never has to reproduce an error message, only to
accept exactly what the reference loop would accept and return the same frame."""

import io

import numpy as np
import pandas as pd


def universal_newlines(raw: bytes) -> bytes:
    """CRLF and CR → LF, as reading the file in text mode did."""
    if raw.find(b"\r") < 0:
        return raw
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


_CHUNK = 1 << 20


def newlines(buf) -> np.ndarray:
    """Offsets of the newline bytes of ``buf``, found 1 MiB at a time: one whole-file boolean
    temporary (100 MB for a day of iostat) costs more in fresh pages (THP compaction on a VM)
    than the comparison itself."""
    if len(buf) <= _CHUNK:
        return np.flatnonzero(buf == 10)
    tmp = np.empty(_CHUNK, dtype=bool)
    out = []
    for a in range(0, len(buf), _CHUNK):
        part = buf[a:a + _CHUNK]
        t = tmp[:len(part)]
        np.equal(part, 10, out=t)
        out.append(np.flatnonzero(t) + a)
    return np.concatenate(out)


class Lines:
    """Line table of ``raw`` as ``raw.split(b"\\n")`` would cut it: ``starts``/``ends`` (byte
    offsets, end exclusive, newline excluded) and ``first`` (first byte, 0 for an empty line)."""

    __slots__ = ("raw", "buf", "starts", "ends", "first", "n")

    def __init__(self, raw: bytes):
        self.raw = raw
        self.buf = buf = np.frombuffer(raw, dtype=np.uint8)
        nl = newlines(buf)
        n = len(nl) + 1
        self.n = n
        self.starts = starts = np.empty(n, dtype=np.int64)
        starts[0] = 0
        starts[1:] = nl + 1
        self.ends = ends = np.empty(n, dtype=np.int64)
        ends[:-1] = nl
        ends[-1] = len(raw)
        self.first = first = np.zeros(n, dtype=np.uint8)
        nonempty = ends > starts
        first[nonempty] = buf[starts[nonempty]]

    def line(self, i) -> bytes:
        return self.raw[self.starts[i]:self.ends[i]]

    def has_prefix(self, idx, prefix: bytes) -> np.ndarray:
        """For the line numbers ``idx`` (0-based): does the line start with ``prefix``?"""
        idx = np.asarray(idx, dtype=np.int64)
        k = len(prefix)
        out = np.zeros(len(idx), dtype=bool)
        if k == 0:
            out[:] = True
            return out
        long_enough = (self.ends[idx] - self.starts[idx]) >= k
        sel = idx[long_enough]
        if len(sel):
            got = self.buf[self.starts[sel][:, None] + np.arange(k)]
            out[long_enough] = (got == np.frombuffer(prefix, dtype=np.uint8)).all(axis=1)
        return out

    def equals(self, idx, line: bytes) -> np.ndarray:
        """For the line numbers ``idx``: is the line exactly ``line``?"""
        idx = np.asarray(idx, dtype=np.int64)
        out = (self.ends[idx] - self.starts[idx]) == len(line)
        if out.any():
            head = self.has_prefix(idx[out], line[:16])
            cand = idx[out][head]
            same = np.array([self.raw[s:e] == line for s, e in
                             zip(self.starts[cand].tolist(), self.ends[cand].tolist())], dtype=bool)
            res = np.zeros(int(out.sum()), dtype=bool)
            res[np.flatnonzero(head)] = same
            out[out] = res
        return out

    def join(self, mask) -> bytes:
        """The lines selected by the boolean ``mask``, joined by newlines (runs of consecutive
        lines are copied as one slice)."""
        d = np.diff(mask.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
        first = np.flatnonzero(d == 1)
        last = np.flatnonzero(d == -1) - 1
        mv = memoryview(self.raw)  # slices without copies; join copies once
        return b"\n".join([mv[a:b] for a, b in zip(self.starts[first].tolist(),
                                                    self.ends[last].tolist())])

    def joined(self, idx) -> bytes:
        """The lines ``idx`` joined by newlines (one slice per line)."""
        mv = memoryview(self.raw)
        return b"\n".join([mv[a:b] for a, b in zip(self.starts[idx].tolist(),
                                                    self.ends[idx].tolist())])

    def fixed_width(self, idx):
        """The lines ``idx`` as a 2-D uint8 array when they all have the same length, else None."""
        idx = np.asarray(idx, dtype=np.int64)
        if not len(idx):
            return None
        lens = self.ends[idx] - self.starts[idx]
        w = int(lens[0])
        if w == 0 or (lens != w).any():
            return None
        return self.buf[self.starts[idx][:, None] + np.arange(w)]

    def no_trailing_blank(self, idx) -> bool:
        """No line of ``idx`` (all non-empty) ends in a space or tab."""
        last = self.buf[self.ends[idx] - 1]
        return not ((last == 32) | (last == 9)).any()


def same_shape(arr) -> bool:
    """Every row of the uint8 matrix ``arr`` has digits where its first row has digits and the
    first row's bytes everywhere else. (A row then matches any pattern built of ``\\d`` and
    non-digit literals/classes that the first row matches.)"""
    dig = (arr >= 48) & (arr <= 57)
    d0 = dig[0]
    return bool(dig[:, d0].all() and (arr[:, ~d0] == arr[0, ~d0]).all())


def whitespace_sep(rows: bytes, no_trailing_blank: bool) -> dict:
    """read_csv separator options equivalent to ``sep=r"\\s+"`` for ``rows``.

    ``sep=" ", skipinitialspace=True`` tokenizes ~1.5x faster and splits identically when spaces
    are the only whitespace, no line ends in one (a trailing space would be an extra, empty
    field: the caller knows from its line table) and there are no quotes; otherwise the regex
    separator is kept."""
    if (no_trailing_blank and rows.find(b"\t") < 0 and rows.find(b"\r") < 0
            and rows.find(b"\x0b") < 0 and rows.find(b"\x0c") < 0 and rows.find(b'"') < 0):
        return {"sep": " ", "skipinitialspace": True}
    return {"sep": r"\s+"}


def read_rows(rows: bytes, cols, dtype, no_trailing_blank=False):
    """``rows`` (newline-joined, ASCII) → frame with ``cols``, or None when read_csv does not
    return exactly one row per line with every column (the caller then falls back).

    ``na_filter=False`` (~15% faster: no token is compared with the NA words): an empty or NA-ish
    number is then an error, hence a fallback, as the reference refuses it too; a string column
    holding an NA word (the reference would read NaN) also falls back."""
    try:
        frame = pd.read_csv(io.BytesIO(rows), header=None, names=cols, dtype=dtype, engine="c",
                            na_filter=False, **whitespace_sep(rows, no_trailing_blank))
    except (ValueError, pd.errors.ParserError):
        return None
    if not isinstance(frame.index, pd.RangeIndex):
        return None
    for c in cols:
        if not pd.api.types.is_numeric_dtype(frame[c]) and frame[c].isin(_NA_WORDS).any():
            return None
    return frame


try:
    from pandas._libs.parsers import STR_NA_VALUES as _NA_WORDS
except ImportError:  # pragma: no cover - the same list, as pandas documents it
    _NA_WORDS = {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
                 "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}
_NA_WORDS = list(_NA_WORDS)
