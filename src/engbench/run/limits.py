"""Run limits: `run.memory_limit`, `run.read_iops`, `run.write_iops`, `run.read_bps`,
`run.write_bps`, `run.drop_caches`, `run.cgroup` and `run.reopen_after_load` (docs/run-format.md
"Run limits").

`run.cgroup: true` gives a run its own cgroup without any limit, so that its device I/O and CPU
time are counted apart from the rest of the machine (cgroup.csv): every reproduction run has one.
`run.reopen_after_load: true` is not a limit either: the engine closed and opened again between the
load and the measured phase, as a restarted server.

They are written like knobs (`--set run.memory_limit=256MB`, `knobs: {run.read_iops: 150}` in an
experiment file or a notebook) but never reach the driver: `split` takes them out of the knobs.
`prepare` checks everything before the run directory exists (values, the engine's cache under
the memory limit with room for the process, root, the controllers, the device) and makes the
run's cgroup; `finish` keeps the group's counters in the run directory (limits.json), turns an
OOM kill into "out of memory under run.memory_limit=…", and removes the group."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from . import cgroups
from .capture import CgroupSampler
from .errors import ParamError
from .machine import block_device, memory_bytes
from .units import parse_size

PREFIX = "run."
SIZE_KEYS = ("memory_limit", "read_bps", "write_bps")
COUNT_KEYS = ("read_iops", "write_iops")
KEYS = ("memory_limit", "read_iops", "write_iops", "read_bps", "write_bps", "drop_caches", "cgroup",
        "reopen_after_load")
BOOL_TEXT = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
MiB = 1 << 20
# Memory the process needs beside the engine's cache (driver: code, threads, buffers; a MariaDB
# server: its own buffers and threads). An engine cache above limit - room is refused.
ROOM = {"default": 32 * MiB, "lmdb": 12 * MiB, "wiredtiger": 96 * MiB, "mariadb": 160 * MiB}
MARIADB_DEFAULT_CACHE = {"mariadb-innodb": 128 * MiB, "mariadb-myrocks": 512 * MiB + 128 * MiB}
DROP_CACHES = Path("/proc/sys/vm/drop_caches")
# run.drop_caches: when the page cache is dropped. `start`: before the driver starts; `between`: by
# the driver itself, between the workload's load (setup) and its measured phase (config key
# drop_caches_after_load, docs/driver.md); `both`. true/false are kept for `start`/none.
DROP_MODES = ("none", "start", "between", "both")
DROP_ALIASES = {"true": "start", "yes": "start", "1": "start", "false": "none", "no": "none", "0": "none"}
DROP_WHEN = {"start": "before the driver starts", "between": "between the load and the measured phase",
             "both": "before the driver starts and between the load and the measured phase"}


class LimitError(ParamError):
    """A run limit that is malformed or cannot be honoured here (refused, nothing written)."""


@dataclass(frozen=True)
class RunLimits:
    memory_limit: int | None = None
    read_iops: int | None = None
    write_iops: int | None = None
    read_bps: int | None = None
    write_bps: int | None = None
    drop_caches: str | None = None  # "start" | "between" | "both"; None: never
    cgroup: bool = False  # a group of its own even without a limit (its counters: cgroup.csv)
    reopen_after_load: bool = False  # the driver's reopen_after_load (KV engines only)
    written: tuple = ()  # (key, value as written) pairs, for messages and the manifest

    def any_group_limit(self) -> bool:
        return any(getattr(self, k) for k in ("memory_limit",) + COUNT_KEYS + ("read_bps", "write_bps"))

    def needs_group(self) -> bool:
        return self.cgroup or self.any_group_limit()

    def drops_at_start(self) -> bool:
        return self.drop_caches in ("start", "both")

    def drops_between(self) -> bool:
        return self.drop_caches in ("between", "both")

    def as_written(self, key: str) -> str:
        return dict(self.written).get(key, "")

    def group_limits(self) -> dict:
        out = {k: getattr(self, k) for k in COUNT_KEYS + ("read_bps", "write_bps")}
        return {**out, "memory": self.memory_limit}


def _positive(key: str, value) -> int:
    try:
        n = parse_size(value) if key in SIZE_KEYS else int(str(value))
    except ValueError:
        n = None
    if n is None or n <= 0:
        unit = "a size (bytes, or e.g. 256MB, 1GiB)" if key in SIZE_KEYS else "a positive integer"
        raise LimitError(f"run.{key} must be {unit}, got {value!r}")
    return n


def _bool(key: str, value) -> bool:
    text = str(value).strip().lower()
    if text not in BOOL_TEXT:
        raise LimitError(f"run.{key} must be true or false, got {value!r}")
    return BOOL_TEXT[text]


def _drop_mode(value) -> str | None:
    """run.drop_caches as written → "start" | "between" | "both" | None (none)."""
    text = str(value).strip().lower()
    mode = DROP_ALIASES.get(text, text)
    if mode not in DROP_MODES:
        raise LimitError(f"run.drop_caches must be one of {', '.join(DROP_MODES)} (true = start, false = none), "
                         f"got {value!r}")
    return None if mode == "none" else mode


def split(knobs: dict) -> tuple[RunLimits, dict]:
    """(the run limits, the knobs for the driver). Unknown `run.*` keys and bad values are refused."""
    raw = {k[len(PREFIX):]: v for k, v in (knobs or {}).items() if k.startswith(PREFIX)}
    rest = {k: v for k, v in (knobs or {}).items() if not k.startswith(PREFIX)}
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise LimitError(f"unknown run limit {', '.join(PREFIX + k for k in unknown)}; "
                         f"valid: {', '.join(PREFIX + k for k in KEYS)}")
    values = {k: (_drop_mode(v) if k == "drop_caches" else _bool(k, v) if k in ("cgroup", "reopen_after_load")
                  else _positive(k, v)) for k, v in raw.items()}
    return RunLimits(**values, written=tuple(sorted((k, str(v)) for k, v in raw.items()))), rest


def driver_knobs(knobs: dict) -> dict:
    """The knobs without the run limits (params.RunRequest.config hands these to the driver)."""
    return split(knobs)[1]


def driver_config(knobs: dict) -> dict:
    """The driver config keys a run limit needs (params.RunRequest.config adds them):
    `drop_caches_after_load: true` for run.drop_caches=between|both, `reopen_after_load: true` for
    run.reopen_after_load=true; nothing otherwise, so the configs of other runs stay as they were."""
    lim = split(knobs)[0]
    return {**({"drop_caches_after_load": True} if lim.drops_between() else {}),
            **({"reopen_after_load": True} if lim.reopen_after_load else {})}


# The knobs that size each KV engine's own caches, as (knob, how many of it the engine may hold):
# RocksDB's block cache plus the two memtables a column family may hold. An engine with none (LMDB:
# the OS page cache is its cache; null) says so with (). Every engine the driver registers has an
# entry (tests/test_layout.py): a new engine states its caches here, or a memory limit would not
# count them. The server targets' caches: MARIADB_DEFAULT_CACHE and engine_memory.
ENGINE_CACHES = {"wiredtiger": (("cache_size", 1),), "wiredtiger-lsm": (("cache_size", 1),),
                 "rocksdb": (("block_cache_size", 1), ("write_buffer_size", 2)),
                 "sqlite": (("cache_size", 1),), "lmdb": (), "null": ()}


def engine_memory(engine: str, knobs: dict) -> int:
    """The memory the engine's own caches take at most, from the driver's resolved knobs:

        Σ over ENGINE_CACHES[engine] of size(knob) × count

    (a MariaDB target: its cache_size, plus MyRocks' 128 MiB of other buffers, or the server
    default of MARIADB_DEFAULT_CACHE when unset)."""
    k = {key.split(".", 1)[1]: v for key, v in (knobs or {}).items() if "." in key}
    if engine in MARIADB_DEFAULT_CACHE:
        cache = parse_size(k.get("cache_size", 0))
        return cache + (128 * MiB if engine == "mariadb-myrocks" else 0) if cache else MARIADB_DEFAULT_CACHE[engine]
    return sum(parse_size(k.get(knob, 0)) * n for knob, n in ENGINE_CACHES.get(engine, ()))


def room(engine: str) -> int:
    kind = "mariadb" if engine in MARIADB_DEFAULT_CACHE else engine.split("-", 1)[0]
    return ROOM.get(kind, ROOM["default"])


def check_fit(lim: RunLimits, engine: str, knobs: dict) -> None:
    """The engine's caches (engine_memory) plus room for the process fit under run.memory_limit;
    without a limit, the caches alone fit in the machine's memory (MemTotal): a cache is a buffer
    the engine may fill, and one beyond the machine ends in the OOM killer, not a measurement."""
    if not lim.memory_limit:
        need, total = engine_memory(engine, knobs), memory_bytes()
        if total and need > total:
            raise LimitError(f"{engine}'s cache ({need} bytes from {_cache_knob(engine)}) is more than this "
                             f"machine's memory ({total} bytes); lower the cache")
        return
    need, spare = engine_memory(engine, knobs), room(engine)
    if need + spare > lim.memory_limit:
        raise LimitError(f"run.memory_limit={lim.as_written('memory_limit')} ({lim.memory_limit} bytes) cannot "
                         f"hold {engine}'s cache ({need} bytes from its cache knobs) plus {spare} bytes for the "
                         f"process; " + (f"lower the cache ({_cache_knob(engine)}) or raise the limit" if need
                                         else "raise the limit"))


def _cache_knob(engine: str) -> str:
    if engine in MARIADB_DEFAULT_CACHE:
        return "mariadb.cache_size"
    ns = engine.split("-", 1)[0]
    return " / ".join(f"{ns}.{knob}" for knob, _ in ENGINE_CACHES.get(engine, ()))


def disk_of(path: Path) -> str | None:
    """MAJ:MIN of the whole disk under `path` (throttles apply to disks, not partitions)."""
    dev = block_device(path)
    if not dev.get("disk"):
        return None
    try:
        return Path(f"/sys/class/block/{dev['disk']}/dev").read_text().strip()
    except OSError:
        return None


def prepare(lim: RunLimits, engine: str, knobs: dict, name: str, data_parent: Path) -> "cgroups.RunGroup | None":
    """Everything checked, the group made (or None when no limit needs one). Raises LimitError."""
    check_fit(lim, engine, knobs)
    if lim.reopen_after_load and engine == "fio":
        raise LimitError("run.reopen_after_load: a calibration has no engine to reopen")
    if lim.drops_between() and engine == "fio":
        raise LimitError(f"run.drop_caches={lim.as_written('drop_caches')}: a calibration has no load phase to "
                         f"drop the cache after; use run.drop_caches=start")
    if lim.drop_caches and not (os.geteuid() == 0 and os.access(DROP_CACHES, os.W_OK)):
        raise LimitError(f"run.drop_caches={lim.as_written('drop_caches')} needs root: {DROP_CACHES} is not "
                         f"writable by uid {os.geteuid()}")
    if not lim.needs_group():
        return None
    data_parent.mkdir(parents=True, exist_ok=True)
    group = cgroups.RunGroup(f"{os.getpid()}-{name}", lim.group_limits(), device=disk_of(data_parent))
    try:
        return group.create()
    except cgroups.CgroupError as exc:
        raise LimitError(f"run limits {', '.join(f'run.{k}={v}' for k, v in lim.written)} cannot be honoured: {exc}") from None


def drop_caches() -> dict:
    """sync, then drop the page cache, dentries and inodes (echo 3 > /proc/sys/vm/drop_caches).
    Returns when and how long, with the machine's page cache (/proc/meminfo Cached) before and
    after, the same fields as the driver's summary.json `drop_caches` for the `between` drop."""
    import time
    out = {"when": "start", "cached_kb_before": _cached_kb(), "start_unix_s": time.time()}
    subprocess.run(["sync"], check=False)
    t1 = time.time()
    DROP_CACHES.write_text("3\n")
    t2 = time.time()
    return {**out, "sync_seconds": t1 - out["start_unix_s"], "drop_seconds": t2 - t1, "end_unix_s": t2,
            "cached_kb_after": _cached_kb()}


def _cached_kb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Cached:"):
            return int(line.split()[1])
    return -1


def dropped(start: dict | None, run_dir: Path) -> list:
    """The manifest's `run_limits.caches_dropped`: the drops that happened, in order — engbench's
    before the driver (`start`) and the driver's between load and measured phase (`after_load`,
    from driver/summary.json; absent when the run ended before its measured phase)."""
    out = [start] if start else []
    try:
        after = json.loads((Path(run_dir) / "driver" / "summary.json").read_text()).get("drop_caches")
    except (OSError, ValueError):
        after = None
    return out + ([after] if after else [])


def record(lim: RunLimits, engine: str, knobs: dict, group) -> dict:
    """The manifest's `run_limits`."""
    d = {k: v for k, v in asdict(lim).items() if k != "written"}
    return {**d, "as_written": dict(lim.written), "engine_cache_bytes": engine_memory(engine, knobs),
            "process_room_bytes": room(engine), "cgroup": group.describe() if group else None,
            "drop_caches_when": DROP_WHEN.get(lim.drop_caches)}


def finish(lim: RunLimits, group, run_dir: Path, status: str, error: str | None) -> tuple[str, str | None]:
    """After the driver (and server) stopped: counters into limits.json, OOM → failed, group removed."""
    if group is None:
        return status, error
    try:
        counters, kills = group.counters(), group.oom_kills()
        if run_dir is not None:
            (Path(run_dir) / "limits.json").write_text(json.dumps(
                {"cgroup": group.describe(), "oom_kills": kills, "counters": counters}, indent=2, sort_keys=True) + "\n")
        if kills and status != "interrupted":
            oom = (f"out of memory under run.memory_limit={lim.as_written('memory_limit')} "
                   f"({kills} OOM kill(s) in the run's cgroup; counters in limits.json)")
            status, error = "failed", oom + (f"\n{error}" if error else "")
    finally:
        try:
            group.remove()
        except OSError as exc:  # the run is still finalized; the next engbench retries the removal
            error = (f"{error}\n" if error else "") + f"cgroup not removed: {exc}"
    return status, error


class GroupCapture:
    """cgroup.csv beside iostat.txt and vmstat.txt: stopped, described and checked like them."""

    name = "cgroup"
    available = True
    note = None

    def __init__(self, group, path: Path):
        self.sampler = CgroupSampler(group, path)

    def start(self) -> None:
        self.sampler.start()

    def stop(self) -> None:
        self.sampler.stop()

    def describe(self) -> dict:
        return {"file": self.sampler.path.name, "interval_s": self.sampler.interval_s,
                "samples": self.sampler.samples, "columns": self.sampler.columns, "available": True}
