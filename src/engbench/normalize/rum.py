"""RUM figures (read, update, memory/space amplification). Each is NaN when its denominator is
0 or unknown: a ratio to nothing is not a number."""


def _ratio(num, den) -> float:
    if num is None or den is None or den != den or den <= 0:
        return float("nan")
    return float(num) / float(den)


def read_amplification(device_bytes_read, logical_bytes_read) -> float:
    """read amp = device bytes read (iostat rkB × 1024 over the window) / logical bytes the
    workload's reads returned (driver totals logical_bytes_read)."""
    return _ratio(device_bytes_read, logical_bytes_read)


def write_amplification(device_bytes_written, logical_bytes_written) -> float:
    """write amp = device bytes written (iostat wkB × 1024 over the window; discards excluded) /
    logical bytes inserted or updated (driver totals logical_bytes_written)."""
    return _ratio(device_bytes_written, logical_bytes_written)


def space_amplification(bytes_on_disk, logical_bytes_stored) -> float:
    """space amp = bytes on disk (allocated, du) / logical bytes stored (live documents)."""
    return _ratio(bytes_on_disk, logical_bytes_stored)


def why_no_ratio(name: str, measured, logical, measured_what: str, logical_what: str) -> str:
    """Why ``name`` (read amp, write amp, space amp) = measured / logical is NaN, or "" when it is
    a number: the logical bytes are unknown (not recorded), 0 (nothing to divide by: e.g. a
    workload that reads nothing has no read amplification), or the measured bytes are unknown."""
    def na(v):
        return v is None or v != v
    if na(logical):
        return f"{name}: {logical_what} not recorded"
    if logical <= 0:
        return f"{name}: no {logical_what} (nothing to divide by)"
    if na(measured):
        return f"{name}: {measured_what} unknown"
    return ""
