"""How the kernel and the hypervisor manage this machine's memory, recorded in every run's manifest
(`memory_management`, docs/run-format.md): what decides whether a page a run left in the page
cache is still there a minute later, and what the first touch of freed memory costs.

Found on the machines the shipped runs were measured on (issue 26): a DAMON scheme pages out any
physical memory not accessed for 60 s (`pageout`, age >= 12 aggregation intervals of 5 s, at most
128 MiB/s); without swap only page-cache pages can go, so a file a run read more than a minute
earlier may be read from the device again. The virtio balloon reports free 2 MiB blocks to the
host (free page reporting). Both are invisible in iostat's configuration and in the run's limits;
the runs' own device counters (cgroup.csv) still count any read they cause.

Read-only, except `damon_applied_bytes`, which asks each running kdamond to refresh its scheme
statistics (writing `update_schemes_stats` to its `state` file, which changes nothing else).
Every function returns plain JSON-able data and never raises for a missing fact (None instead)."""

from __future__ import annotations

import re
from pathlib import Path

SYS = Path("/sys")
PROC = Path("/proc")
BALLOON_DEVICE_ID = "0x0005"  # virtio device id of a memory balloon
F_FREE_PAGE_HINT, F_REPORTING = 3, 5  # virtio balloon feature bits


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _int(path: Path) -> int | None:
    text = _read(path)
    return int(text) if text is not None and re.fullmatch(r"-?\d+", text) else None


def _bracketed(path: Path) -> str | None:
    """The selected mode of a sysfs choice file: `always [madvise] never` -> `madvise`."""
    text = _read(path)
    m = re.search(r"\[(\S+)\]", text or "")
    return m.group(1) if m else text


def _numbered(base: Path) -> list[Path]:
    """The numbered entries of a DAMON sysfs directory (kdamonds/0, contexts/0, schemes/0, ...)."""
    return sorted((p for p in base.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)) if base.is_dir() else []


def _kdamonds(sys_root: Path) -> list[Path]:
    return _numbered(sys_root / "kernel" / "mm" / "damon" / "admin" / "kdamonds")


def _schemes(sys_root: Path):
    """(kdamond, context, scheme) directories of every DAMON scheme."""
    for kd in _kdamonds(sys_root):
        for ctx in _numbered(kd / "contexts"):
            for sch in _numbered(ctx / "schemes"):
                yield kd, ctx, sch


def damon_schemes(sys_root: Path = SYS) -> list[dict]:
    """Every DAMON scheme of every kdamond: the kdamond's state, the monitored address space
    (`operations`: paddr = all physical memory), the action and the access pattern it acts on.

    min_age_s = access_pattern/age/min x aggr_us / 1e6 (DAMON counts a region's age in aggregation
    intervals); quota_bytes_per_s = quotas/bytes x 1000 / quotas/reset_interval_ms (None without a
    size quota)."""
    out = []
    for kd, ctx, sch in _schemes(sys_root):
        aggr_us = _int(ctx / "monitoring_attrs" / "intervals" / "aggr_us")
        pat = sch / "access_pattern"
        age_min = _int(pat / "age" / "min")
        q_bytes, q_reset = _int(sch / "quotas" / "bytes"), _int(sch / "quotas" / "reset_interval_ms")
        out.append({
            "kdamond": int(kd.name), "state": _read(kd / "state"), "operations": _read(ctx / "operations"),
            "action": _read(sch / "action"),
            "min_age_s": age_min * aggr_us / 1e6 if age_min is not None and aggr_us else None,
            "max_nr_accesses": _int(pat / "nr_accesses" / "max"),
            "quota_bytes_per_s": q_bytes * 1000 / q_reset if q_bytes and q_reset else None,
            "watermark_metric": _read(sch / "watermarks" / "metric")})
    return out


def _bit(bits: str, i: int) -> bool | None:
    return bits[i] == "1" if len(bits) > i else None


def balloon(sys_root: Path = SYS) -> dict | None:
    """The virtio memory balloon, if there is one: whether it reports free pages to the host
    (feature bit 5) or hints them (bit 3), and the buddy order of the blocks it reports
    (page_reporting_order: 9 = 2 MiB). The sysfs `features` file is one '0'/'1' per bit, bit 0 first."""
    for dev in sorted((sys_root / "bus" / "virtio" / "devices").glob("*")):
        if _read(dev / "device") != BALLOON_DEVICE_ID:
            continue
        bits = _read(dev / "features") or ""
        return {"device": dev.name, "free_page_reporting": _bit(bits, F_REPORTING),
                "free_page_hint": _bit(bits, F_FREE_PAGE_HINT),
                "page_reporting_order": _int(sys_root / "module" / "page_reporting" / "parameters"
                                             / "page_reporting_order")}
    return None


def memory_management(sys_root: Path = SYS, proc_root: Path = PROC) -> dict:
    """THP modes, swap, the DAMON schemes and the balloon (see the module's docstring)."""
    m = re.search(r"^SwapTotal:\s+(\d+) kB", _read(proc_root / "meminfo") or "", re.MULTILINE)
    thp = sys_root / "kernel" / "mm" / "transparent_hugepage"
    return {"thp_enabled": _bracketed(thp / "enabled"), "thp_defrag": _bracketed(thp / "defrag"),
            "swap_bytes": int(m.group(1)) * 1024 if m else None,
            "damon_schemes": damon_schemes(sys_root), "balloon": balloon(sys_root)}


def damon_applied_bytes(sys_root: Path = SYS) -> int | None:
    """Bytes every running kdamond's `pageout` schemes have paged out since they started (the sum
    of their stats/sz_applied, refreshed first); None when no kdamond runs a pageout scheme. The
    difference of two readings is what the VM took back between them."""
    running = [kd for kd in _kdamonds(sys_root) if _read(kd / "state") == "on"]
    try:
        for kd in running:
            (kd / "state").write_text("update_schemes_stats")
    except OSError:
        return None  # not root, or a kernel without it: the figure would be stale
    applied = [_int(sch / "stats" / "sz_applied") for kd, _, sch in _schemes(sys_root)
               if kd in running and _read(sch / "action") == "pageout"]
    applied = [a for a in applied if a is not None]
    return sum(applied) if applied else None
