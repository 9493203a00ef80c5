"""The run's own control group: the driver (and a private server) inside, engbench, iostat and
vmstat outside. cgroup v2 (`memory.max`, `io.max`) where the unified hierarchy has the
controllers, else cgroup v1 (`memory.limit_in_bytes`, `blkio.throttle.*_device`).

Groups live under `<root>/engbench/` (v2) or `<root>/{memory,blkio}/engbench/` (v1), named
`<engbench pid>-<run id>`, so the next engbench can remove what a killed one left behind.
`<root>` is /sys/fs/cgroup, or ENGBENCH_CGROUP_ROOT (tests point it at a root that cannot be
written, to see the refusal)."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT_ENV = "ENGBENCH_CGROUP_ROOT"
PARENT = "engbench"
V1_FILES = {"memory": "memory.limit_in_bytes", "read_iops": "blkio.throttle.read_iops_device",
            "write_iops": "blkio.throttle.write_iops_device", "read_bps": "blkio.throttle.read_bps_device",
            "write_bps": "blkio.throttle.write_bps_device"}
V2_IO_KEYS = {"read_iops": "riops", "write_iops": "wiops", "read_bps": "rbps", "write_bps": "wbps"}
# Counters kept in the run directory (limits.json): what the group used and how often it hit the limit.
V1_COUNTERS = {"memory": ["memory.failcnt", "memory.max_usage_in_bytes", "memory.oom_control", "memory.stat"],
               "blkio": ["blkio.throttle.io_serviced", "blkio.throttle.io_service_bytes"]}
V2_COUNTERS = ["memory.events", "memory.peak", "memory.stat", "io.stat"]
# cgroup.csv, sampled every second (capture.CgroupSampler): the group's own memory, its own I/O on
# the data device (v1 blkio.throttle.io_serviced/_bytes, v2 io.stat) and the CPU time its members
# used (v1 cpuacct.usage, v2 cpu.stat usage_usec; nanoseconds), cumulative counters. cgroup.csv
# files written before cpu_ns existed lack that column.
SAMPLE_COLUMNS = ["mem_bytes", "mem_file_bytes", "mem_anon_bytes", "mem_limit_hits",
                  "read_ios", "write_ios", "read_bytes", "write_bytes", "cpu_ns"]
CPU_V1 = "cpuacct"  # the v1 controller whose cpuacct.usage counts the group's CPU time
# A v1 group's blkio.throttle.io_serviced/_bytes count its I/O on a device only once blk-throttle is
# active on that device's queue, and on Linux 6.18.44 it became active only when a throttle rule was
# first written for the device (in any group): measured 2026-11-27 on a fresh boot, a whole
# reproduction's groups (fio's direct reads of the device calibrations included) counted 0 reads
# while iostat saw ~1.9 per insert; 2,000 direct 4-KiB reads in a new group counted 0, and after a
# rule was written, 2,000 (and from then on in every group, with or without a rule). So every
# group writes a rule on its device for the IOPS it does not limit: UINT_MAX IOs per second, the
# kernel's "no limit", which activates the counting and throttles nothing.
COUNTING_IOPS = 4294967295


class CgroupError(RuntimeError):
    """A limit cannot be honoured here; the message names what is missing."""


def root() -> Path:
    return Path(os.environ.get(ROOT_ENV) or "/sys/fs/cgroup")


def version(base: Path | None = None) -> int:
    """2 when the unified hierarchy at the root has the memory and io controllers, else 1."""
    base = base or root()
    try:
        ctrl = (base / "cgroup.controllers").read_text().split()
    except OSError:
        return 1
    return 2 if {"memory", "io"} <= set(ctrl) else 1


@dataclass
class RunGroup:
    """One run's group: `create()` (with its limits), `procs_files()` for joining it at exec,
    `counters()`, `remove()` (kills what is still inside first). `limits` are the RunLimits
    fields that map onto the group: memory (bytes), read_iops, write_iops, read_bps, write_bps."""

    name: str
    limits: dict
    device: str | None = None  # "MAJ:MIN" of the data directory's disk, for the io throttles
    base: Path = field(default_factory=root)
    dirs: list = field(default_factory=list)

    @property
    def v(self) -> int:
        return version(self.base)

    def _needs_io(self) -> bool:
        return any(self.limits.get(k) for k in V2_IO_KEYS)

    def _parents(self) -> list[Path]:
        if self.v == 2:
            return [self.base / PARENT]
        out = []
        if self.limits.get("memory") or (self.base / "memory" / "memory.usage_in_bytes").exists():
            out.append(self.base / "memory" / PARENT)  # also without a limit: the group's own memory counts
        if self._needs_io() or (self.base / "blkio" / "blkio.throttle.io_serviced").exists():
            out.append(self.base / "blkio" / PARENT)  # also without a throttle: the group's own I/O counts
        if (self.base / CPU_V1 / "cpuacct.usage").exists():
            out.append(self.base / CPU_V1 / PARENT)  # the group's own CPU time (other_cpu_pct)
        return out

    def create(self) -> "RunGroup":
        """Make the group(s) and write every limit; on any failure remove what was made and raise
        CgroupError naming what is missing."""
        if self._needs_io() and not self.device:
            raise CgroupError("run.*_iops/_bps: the data directory is on no block device (tmpfs, overlay?): "
                              "nothing to throttle")
        try:
            for parent in self._parents():
                group = parent / self.name
                for attempt in (1, 2):  # another run's cleanup may rmdir an empty parent in between
                    self._mkparent(parent)
                    try:
                        group.mkdir()
                        break
                    except FileNotFoundError:
                        if attempt == 2:
                            raise
                self.dirs.append(group)
            self._write_limits()
        except BaseException:
            self.remove()
            raise
        return self

    def _mkparent(self, parent: Path) -> None:
        ctrl = parent.parent
        probe = "cgroup.controllers" if self.v == 2 else {"memory": "memory.limit_in_bytes",
                                                           CPU_V1: "cpuacct.usage"}.get(ctrl.name, "blkio.throttle.io_serviced")
        if not (ctrl / probe).exists():
            what = "memory" if ctrl.name == "memory" or self.limits.get("memory") else "blkio/io"
            raise CgroupError(f"no {what} cgroup controller at {ctrl} (no {probe}); "
                              f"a cgroup v1 {ctrl.name} mount or cgroup v2 with memory+io is needed" + _v2_note(self.base))
        try:
            parent.mkdir(exist_ok=True)
            if self.v == 2:
                _write(parent / "cgroup.subtree_control", "+memory +io")
                _write(parent / "cgroup.subtree_control", "+cpu", missing_ok=True)  # CPU time: cpu.stat
        except OSError as exc:
            raise CgroupError(f"cannot create a cgroup under {ctrl}: {exc.strerror or exc} "
                              f"(limits need root and a writable cgroup hierarchy)") from exc

    def _write_limits(self) -> None:
        mem = self.limits.get("memory")
        if self.v == 2:
            group = self.dirs[0]
            if mem:
                _write(group / "memory.max", str(mem))
                _write(group / "memory.swap.max", "0", missing_ok=True)
            io = " ".join(f"{V2_IO_KEYS[k]}={v}" for k, v in self.limits.items() if k in V2_IO_KEYS and v)
            if io:
                _write(group / "io.max", f"{self.device} {io}")
            return
        for group in self.dirs:
            kind = group.parent.parent.name
            if kind == "memory":
                if mem:
                    _write(group / V1_FILES["memory"], str(mem))
            elif kind == "blkio":
                for k in V2_IO_KEYS:
                    if self.limits.get(k):
                        _write(group / V1_FILES[k], f"{self.device} {self.limits[k]}")
                if self.device:  # the group's own I/O counts only once the device has had a rule (COUNTING_IOPS)
                    for k in ("read_iops", "write_iops"):
                        if not self.limits.get(k):
                            try:
                                _write(group / V1_FILES[k], f"{self.device} {COUNTING_IOPS}", missing_ok=True)
                            except CgroupError:
                                pass  # a device the kernel will not throttle: no limit was asked for

    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self) -> set[int]:
        out = set()
        for f in self.procs_files():
            try:
                out |= {int(x) for x in Path(f).read_text().split()}
            except OSError:
                pass
        return out

    def counters(self) -> dict:
        """The group's usage and failure counters as the kernel prints them, file by file."""
        out = {}
        for group in self.dirs:
            names = V2_COUNTERS if self.v == 2 else V1_COUNTERS.get(group.parent.parent.name, [])
            for n in names:
                try:
                    out[n] = (group / n).read_text()
                except OSError:
                    continue
        return out

    def sample(self) -> dict:
        """SAMPLE_COLUMNS now (None where this hierarchy has no such counter)."""
        out = dict.fromkeys(SAMPLE_COLUMNS)
        for group in self.dirs:
            kind = "v2" if self.v == 2 else group.parent.parent.name
            if kind in ("memory", "v2"):
                stat = _kv(_read(group / "memory.stat"))
                out["mem_bytes"] = _int(_read(group / ("memory.current" if kind == "v2" else "memory.usage_in_bytes")))
                out["mem_file_bytes"] = stat.get("file" if kind == "v2" else "total_cache")
                out["mem_anon_bytes"] = stat.get("anon" if kind == "v2" else "total_rss")
                out["mem_limit_hits"] = (_kv(_read(group / "memory.events")).get("max") if kind == "v2"
                                         else _int(_read(group / "memory.failcnt")))
            if kind == "v2":
                io = next((_kv(line.split(" ", 1)[1].replace("=", " ")) for line in _read(group / "io.stat").splitlines()
                           if line.split(" ", 1)[0] == self.device), {})
                out.update(read_ios=io.get("rios", 0), write_ios=io.get("wios", 0),
                           read_bytes=io.get("rbytes", 0), write_bytes=io.get("wbytes", 0))
            if kind == "v2":
                usec = _kv(_read(group / "cpu.stat")).get("usage_usec")
                out["cpu_ns"] = usec * 1000 if usec is not None else None
            elif kind == CPU_V1:
                out["cpu_ns"] = _int(_read(group / "cpuacct.usage"))
            elif kind == "blkio":
                for unit, f in (("ios", "blkio.throttle.io_serviced"), ("bytes", "blkio.throttle.io_service_bytes")):
                    rows = {tuple(x.split()[:2]): int(x.split()[2]) for x in _read(group / f).splitlines()
                            if len(x.split()) == 3}
                    out[f"read_{unit}"] = rows.get((self.device, "Read"), 0)
                    out[f"write_{unit}"] = rows.get((self.device, "Write"), 0)
        return out

    def oom_kills(self) -> int:
        """OOM kills inside the group (v1 memory.oom_control `oom_kill`, v2 memory.events)."""
        c = self.counters()
        for text in (c.get("memory.events", ""), c.get("memory.oom_control", "")):
            for line in text.splitlines():
                k, _, v = line.partition(" ")
                if k == "oom_kill":
                    return int(v)
        return 0

    def remove(self, timeout: float = 10.0) -> None:
        """SIGKILL whatever is still inside, wait for it to leave, rmdir. Idempotent."""
        kill_and_remove(self.dirs, timeout)
        self.dirs = [d for d in self.dirs if d.exists()]

    def describe(self) -> dict:
        return {"version": self.v, "paths": [str(d) for d in self.dirs], "device": self.device}


def _v2_note(base: Path) -> str:
    """Why a cgroup v2 root was not used: its controllers (memory and io are missing when the kernel
    has them bound to v1 hierarchies, as on this machine)."""
    try:
        ctrl = (base / "cgroup.controllers").read_text().split()
    except OSError:
        return ""
    missing = sorted({"memory", "io"} - set(ctrl))
    return (f"; {base} is cgroup v2 with controllers [{' '.join(ctrl) or 'none'}], without "
            f"{' and '.join(missing)} (bound to a cgroup v1 hierarchy?)")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _int(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def _kv(text: str) -> dict:
    """`name number` pairs, one or more per line (memory.stat, memory.events, io.stat fields)."""
    parts, out = text.split(), {}
    for k, v in zip(parts[::2], parts[1::2]):
        if v.isdigit():
            out[k] = int(v)
    return out


def _write(path: Path, text: str, missing_ok: bool = False) -> None:
    try:
        with open(path, "w") as f:
            f.write(text)
    except FileNotFoundError:
        if not missing_ok:
            raise CgroupError(f"{path}: no such control file (controller not enabled here)") from None
    except OSError as exc:
        raise CgroupError(f"cannot write {text!r} to {path}: {exc.strerror or exc}") from exc


def kill_and_remove(dirs, timeout: float = 10.0) -> None:
    for d in dirs:
        d = Path(d)
        end = time.monotonic() + timeout
        while d.exists():
            try:
                pids = [int(x) for x in (d / "cgroup.procs").read_text().split()]
            except OSError:
                pids = []
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                d.rmdir()
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)
        _remove_parent_if_empty(d.parent)


def _remove_parent_if_empty(parent: Path) -> None:
    """engbench's parent group goes with its last run group, so a run leaves no cgroup behind; one
    that still holds another run's group is busy and stays (rmdir of a non-empty cgroup fails)."""
    if parent.name != PARENT:
        return
    try:
        parent.rmdir()
    except OSError:
        pass


def _owner_alive(group: Path) -> bool:
    pid_text = group.name.split("-", 1)[0]
    if not pid_text.isdigit():
        return True  # not ours to judge
    import psutil
    try:
        started = psutil.Process(int(pid_text)).create_time()
    except psutil.Error:
        return False
    return started <= group.stat().st_mtime + 1  # a later process with a reused pid is not the owner


def leftovers(base: Path | None = None) -> list[Path]:
    """Groups under engbench/ whose engbench process is gone (SIGKILLed, OOM-killed, crashed)."""
    base = base or root()
    parents = [base / PARENT] if version(base) == 2 else [base / c / PARENT for c in ("memory", "blkio", CPU_V1)]
    out = []
    for parent in parents:
        try:
            out += [g for g in sorted(parent.iterdir()) if g.is_dir() and not _owner_alive(g)]
        except OSError:
            continue
    return out


def clean_leftovers(base: Path | None = None) -> list[str]:
    """Remove the groups a dead engbench left; returns their paths (recorded by the caller)."""
    gone = []
    for g in leftovers(base):
        try:
            kill_and_remove([g])
            gone.append(str(g))
        except OSError:
            continue
    return gone


def oom_counter(pid: int) -> Path | None:
    """The file whose `oom_kill` counts kernel OOM kills of process `pid`: its memory cgroup's
    memory.oom_control (v1) or memory.events (v2; "processes belonging to this cgroup killed by any
    kind of OOM killer"), else the machine's /proc/vmstat. Read while `pid` is alive (its
    /proc/<pid>/cgroup); None when none can be read."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        _, ctrls, path = line.split(":", 2)
        if "memory" in ctrls.split(","):
            f = root() / "memory" / path.lstrip("/") / "memory.oom_control"
        elif ctrls == "" and version() == 2:
            f = root() / path.lstrip("/") / "memory.events"
        else:
            continue
        if oom_kills_in(f) is not None:
            return f
    f = Path("/proc/vmstat")
    return f if oom_kills_in(f) is not None else None


def oom_kills_in(path: Path | None) -> int | None:
    """The `oom_kill` count in a memory.events / memory.oom_control / /proc/vmstat file."""
    if path is None:
        return None
    try:
        text = Path(path).read_text()
    except OSError:
        return None
    for line in text.splitlines():
        k, _, v = line.partition(" ")
        if k == "oom_kill":
            return _int(v)
    return None
