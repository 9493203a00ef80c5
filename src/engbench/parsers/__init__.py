"""Parsers for OS captures: pure functions from a capture file to a tidy pandas DataFrame."""

from . import _read  # noqa: F401  (MAX_BYTES: the size cap of a capture)
from .errors import ParseError
from .iostat import parse_iostat, parse_iostat_text, since_boot_from_argv
from .vmstat import parse_vmstat, parse_vmstat_text

__all__ = ["ParseError", "parse_iostat", "parse_iostat_text", "since_boot_from_argv",
           "parse_vmstat", "parse_vmstat_text"]
