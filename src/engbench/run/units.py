"""Sizes as a researcher writes them (a run limit, a server's cache setting): one parser for all."""

from __future__ import annotations

import re


def parse_size(value) -> int:
    """1048576, "256M", "256MB", "256MiB", "1G", "1.5GB" → bytes (binary multiples, as MariaDB)."""
    if isinstance(value, bool):
        raise ValueError(f"not a size: {value!r}")
    if isinstance(value, (int, float)):
        return int(value)
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", str(value), re.IGNORECASE)
    if not m:
        raise ValueError(f"not a size: {value!r} (expected bytes or e.g. 256M, 1GB)")
    mult = 1024 ** " kmgt".index(m.group(2).lower() or " ")
    return int(float(m.group(1)) * mult)
