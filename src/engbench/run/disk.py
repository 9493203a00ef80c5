"""The file systems a run writes to: refused before anything is written when they cannot hold a run
(a pseudo file system such as /proc, a file where a directory is wanted, no free space), and a
failure said in words when one fills up during the run.

    check_dir("ENGBENCH_WORK_DIR", work)   -> raises DiskError naming the setting, or returns
    full(path)                             -> "the disk under <path> is full (N bytes free): ..." or None

A file system counts as full when its free bytes for an unprivileged writer (statvfs f_bavail)
are below FULL_FRACTION of its size or below FULL_BYTES, whichever is smaller: an engine that
preallocates fails with some space left, so "no byte left" would miss most full disks."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import ParamError

PSEUDO = {"proc", "sysfs", "cgroup", "cgroup2", "debugfs", "securityfs", "devpts", "tracefs", "configfs",
          "pstore", "bpf", "mqueue", "fusectl", "binfmt_misc", "hugetlbfs", "autofs", "efivarfs"}
FULL_FRACTION = 0.05
FULL_BYTES = 64 << 20
MIN_START_BYTES = 1 << 20  # less than this free under the run directory's parent: refused at start
ADVICE = "free space or set ENGBENCH_WORK_DIR/--out elsewhere"


class DiskError(ParamError):
    """A directory a run would write to cannot hold it: refused before anything is written."""


def _existing(path: Path) -> Path:
    """The path itself or its nearest existing ancestor."""
    p = Path(os.path.abspath(path))
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def fs_type(path: Path) -> str | None:
    """The file system type of the mount holding path (/proc/self/mounts, longest mount point)."""
    target = str(_existing(path))
    best, kind = "", None
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) < 3:
            continue
        mnt = parts[1].replace("\\040", " ")
        if (target == mnt or target.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
            best, kind = mnt, parts[2]
    return kind


def free_bytes(path: Path) -> tuple[int, int] | None:
    """(free bytes for an unprivileged writer, size in bytes) of the file system under path."""
    try:
        st = os.statvfs(_existing(path))
    except OSError:
        return None
    return st.f_bavail * st.f_frsize, st.f_blocks * st.f_frsize


def check_dir(setting: str, path: Path, need: int = 0) -> None:
    """Refuse (DiskError, one sentence naming `setting` and `path`) a directory a run cannot write:
    on a pseudo file system, below a file, not writable, or with less than `need` bytes free.
    Creates nothing."""
    path = Path(path)
    near = _existing(path)
    kind = fs_type(path)
    if kind in PSEUDO:
        raise DiskError(f"{setting}={path}: it is on a {kind} file system, which cannot hold a run's files: "
                        "set it to a directory on a disk")
    if not near.is_dir():
        raise DiskError(f"{setting}={path}: {near} is not a directory: set it to a directory")
    if not os.access(near, os.W_OK | os.X_OK):
        raise DiskError(f"{setting}={path}: {near} cannot be written by this user: set it to a writable directory")
    fb = free_bytes(path)
    if need and fb is not None and fb[0] < need:
        raise DiskError(f"the disk under {path} is full ({fb[0]} bytes free): {ADVICE}")


def is_full(path: Path) -> bool:
    fb = free_bytes(path)
    return fb is not None and fb[0] < min(FULL_BYTES, FULL_FRACTION * fb[1])


def full(path: Path, shown: str | None = None, exc: BaseException | None = None) -> str | None:
    """The sentence for a full disk under `path` (named `shown` if given), when it is full or `exc`
    is ENOSPC; else None."""
    fb = free_bytes(path)
    nospace = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
    if fb is None or not (nospace or is_full(path)):
        return None
    return f"the disk under {shown or path} is full ({fb[0]} bytes free): {ADVICE}"


def nospace_text(text: str) -> bool:
    """Whether a tool's message says the disk was full."""
    t = (text or "").lower()
    return "no space left" in t or "enospc" in t or "disk quota exceeded" in t
