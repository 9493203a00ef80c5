"""What a run depends on, read from the machine: hardware, the block device under the data
directory, software versions, and the state of the git checkout. Every function returns plain
JSON-able data and never raises for a missing fact (it records None instead)."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

from .. import paths
from ..version import __version__


def _read(path: str | Path) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _cmd(*argv: str) -> str | None:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (out.stdout + out.stderr).strip() if out.returncode == 0 else None


def cpu_model() -> str | None:
    text = _read("/proc/cpuinfo") or ""
    m = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
    return m.group(1).strip() if m else platform.processor() or None


def memory_bytes() -> int | None:
    m = re.search(r"^MemTotal:\s+(\d+) kB", _read("/proc/meminfo") or "", re.M)
    return int(m.group(1)) * 1024 if m else None


def block_device(path: Path) -> dict:
    """The block device holding `path`, named as /proc/diskstats (and so iostat) names it.

    `name` is the device of the filesystem (a partition if there is one); `disk` is the whole disk
    whose queue settings (scheduler, rotational) and model apply."""
    dev = os.stat(path).st_dev
    sysdir = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if not sysdir.exists():  # e.g. overlay or tmpfs: no block device behind it
        return {"name": None, "disk": None, "model": None, "vendor": None, "scheduler": None, "rotational": None,
                "major_minor": f"{os.major(dev)}:{os.minor(dev)}"}
    real = sysdir.resolve()
    name = real.name
    disk_dir = real.parent if (real / "partition").exists() else real
    sched = _read(disk_dir / "queue" / "scheduler")
    active = re.search(r"\[(\S+)\]", sched or "")
    model = _read(disk_dir / "device" / "model")
    vendor = _read(disk_dir / "device" / "vendor")
    rot = _read(disk_dir / "queue" / "rotational")
    return {
        "name": name,
        "disk": disk_dir.name,
        "model": model,
        "vendor": vendor,
        "scheduler": active.group(1) if active else sched,
        "rotational": None if rot is None else rot == "1",
        "major_minor": f"{os.major(dev)}:{os.minor(dev)}",
    }


def filesystem(path: Path) -> dict:
    """Mount point, type and options of the filesystem holding `path` (from /proc/self/mounts)."""
    path = path.resolve()
    best = None
    for line in (_read("/proc/self/mounts") or "").splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        mnt = parts[1].replace("\\040", " ")
        if (path == Path(mnt) or Path(mnt) in path.parents) and (best is None or len(mnt) > len(best[1])):
            best = parts[:4]
    if best is None:
        return {"mount_point": None, "fstype": None, "options": None, "source": None}
    return {"source": best[0], "mount_point": best[1], "fstype": best[2], "options": best[3]}


def hardware(data_path: Path) -> dict:
    return {
        "cpu_model": cpu_model(),
        "ncpu": os.cpu_count(),
        "memory_bytes": memory_bytes(),
        "data_device": block_device(data_path),
        "filesystem": filesystem(data_path),
    }


def _first_line(text: str | None) -> str | None:
    return text.splitlines()[0].strip() if text else None


def software() -> dict:
    return {
        "kernel": platform.release(),
        "os": _read_os_release(),
        "python": sys.version.split()[0],
        "engbench": __version__,
        "sysstat": _first_line(_cmd("iostat", "-V")),
        "procps": _first_line(_cmd("vmstat", "-V")),
    }


def _read_os_release() -> str | None:
    m = re.search(r'^PRETTY_NAME="?([^"\n]+)"?', _read("/etc/os-release") or "", re.M)
    return m.group(1) if m else None


def git_state(repo: Path = paths.REPO) -> dict:
    commit = _cmd("git", "-C", str(repo), "rev-parse", "HEAD")
    status = _cmd("git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def boot_id() -> str | None:
    return _read("/proc/sys/kernel/random/boot_id")


def hostname() -> str:
    return re.sub(r"[^A-Za-z0-9.-]", "-", platform.node() or "host")


def machine_key(hardware: dict | None) -> str:
    """A short, stable name for the hardware a run was measured on, from its manifest's `hardware`:
    `<ncpu>cpu-<memory GiB>g-<filesystem type>-<8 hex digits>`, the digits hashing the CPU model,
    CPU count, memory (rounded to whole GiB: the kernel's total moves a little between boots), the
    data device's model, rotational flag and I/O scheduler, and the filesystem's type and mount
    options. Host names and device/mount names are left out: two identical machines share a key,
    and runs are grouped by what was measured on, never averaged across different hardware."""
    hw = hardware or {}
    dev = hw.get("data_device") or {}
    fs = hw.get("filesystem") or {}
    gib = round((hw.get("memory_bytes") or 0) / 2**30)
    identity = {"cpu_model": hw.get("cpu_model"), "ncpu": hw.get("ncpu"), "memory_gib": gib,
                "device_model": dev.get("model"), "rotational": dev.get("rotational"),
                "scheduler": dev.get("scheduler"), "fstype": fs.get("fstype"), "options": fs.get("options")}
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:8]
    return f"{hw.get('ncpu') or '?'}cpu-{gib}g-{fs.get('fstype') or 'unknown'}-{digest}"
