"""Reading a capture with a bound: the parsers take a regular file of at most MAX_BYTES, and refuse
anything else (a device such as /dev/zero, a FIFO, a directory) before reading a byte of it, so a
wrong path ends at once with a sentence instead of filling the memory or waiting on a pipe."""

import os
import stat
from pathlib import Path

from .errors import ParseError

# A day of iostat at 1 s is ~100 MB (_lines.py); 1 GiB holds about ten days of it.
MAX_BYTES = 1 << 30


def read_capture(path) -> bytes:
    """The bytes of the capture file `path`; ParseError when it is missing, not a regular file, or
    larger than MAX_BYTES."""
    path = Path(path)
    try:
        st = os.stat(path)  # stat, not open: opening a FIFO would wait for a writer
    except FileNotFoundError:
        raise ParseError(path, "no such file: give the path of an iostat or vmstat capture") from None
    except OSError as exc:
        raise ParseError(path, f"cannot be read ({exc.strerror}): check the path and its permissions") from None
    if not stat.S_ISREG(st.st_mode):
        raise ParseError(path, "not a regular file (a device, pipe or directory): give a capture file "
                               "written by iostat or vmstat")
    if st.st_size > MAX_BYTES:
        raise ParseError(path, f"larger than {MAX_BYTES >> 20} MiB ({st.st_size} bytes): not a capture "
                               "engbench parses; cut it into parts")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ParseError(path, f"cannot be read ({exc.strerror}): check the path and its permissions") from None
    if len(raw) > MAX_BYTES:  # it grew while being read
        raise ParseError(path, f"larger than {MAX_BYTES >> 20} MiB: not a capture engbench parses; cut it into parts")
    return raw
