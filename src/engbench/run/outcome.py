"""A run's status and error from how its driver ended (runs.execute): the exit status, its summary,
the signals engbench got, and two causes the exit status alone hides, said in words:

- the kernel's OOM killer: a SIGKILL the user did not send, with the `oom_kill` counter that covers
  the driver (its memory cgroup's, else /proc/vmstat's; cgroups.oom_counter) higher than when the
  driver started (OomWatch) → "the kernel's OOM killer ended the driver ...";
- a full disk under the engine's data directory or the run directory (disk.full: few bytes free,
  or the driver saying "No space left") → "the disk under <path> is full (N bytes free): ...",
  whatever the engine made of it (RocksDB aborts with signal 6, LMDB says "Input/output error").

The driver's own words follow on the next lines, with the tail of its stderr."""

from __future__ import annotations

import errno
import signal
from pathlib import Path

from . import cgroups, disk


class OomWatch:
    """The OOM-kill counter covering a process, read when it starts and compared at its end."""

    def __init__(self, pid: int):
        self.file = cgroups.oom_counter(pid)
        self.before = cgroups.oom_kills_in(self.file)

    def kills(self) -> int:
        after = cgroups.oom_kills_in(self.file)
        return after - self.before if after is not None and self.before is not None else 0


def tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def outcome(rc: int, summary: dict, drv_dir: Path, signals: int, data_dir: Path | None = None,
            oom: OomWatch | None = None) -> tuple[str, str | None]:
    """The run's status and error from the driver's exit status, its summary and the signals."""
    if rc == 0 and not signals:
        return "ok", None
    stopped_by_signal = rc in (130, -signal.SIGINT, -signal.SIGTERM) or summary.get("status") == "interrupted"
    if signals and (stopped_by_signal or rc == 0):
        return "interrupted", "interrupted by a signal; partial captures kept"
    if signals >= 2 and rc == -signal.SIGKILL:
        return "interrupted", "killed after a second signal; partial captures kept"
    reason = summary.get("error") or (f"driver killed by signal {-rc}" if rc < 0 else f"driver exit status {rc}")
    log = tail(Path(drv_dir) / "stderr.log")
    kills = oom.kills() if oom is not None and rc == -signal.SIGKILL else 0
    if kills:
        reason = (f"the kernel's OOM killer ended the driver (signal 9; oom_kill in {oom.file} rose by {kills}): "
                  "the machine or the driver's cgroup ran out of memory: lower the workload's counts or the "
                  f"engine's cache and buffer sizes, or give it more memory\n({reason})")
    else:
        where = [Path(p) for p in (data_dir, drv_dir) if p is not None]
        full = next((p for p in where if disk.is_full(p)), None)
        if full is None and where and disk.nospace_text(reason + "\n" + log):
            full = where[0]  # the driver says so, the engine preallocating: its data directory
        if full is not None:
            reason = f"{disk.full(full, exc=OSError(errno.ENOSPC, 'No space left on device'))}\n({reason})"
    return "failed", reason + (f"\n--- driver stderr (tail) ---\n{log}" if log else "")
