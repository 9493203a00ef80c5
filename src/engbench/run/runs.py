"""One run: validate, create the run directory, capture the OS around the driver, finalize, seal.

    engbench run iibench --engine rocksdb --set max_rows=100000 --set rocksdb.compaction=universal

Order of events (docs/run-format.md): the driver validates the resolved config (nothing is written
if it refuses) → the run directory and its manifest (`running`) → iostat, vmstat → the driver and
its process sampler → the driver ends (or is interrupted, or dies) → samplers stopped → manifest
finalized (`ok`, `failed` with the reason, `interrupted`) → SHA256SUMS and read-only files.

The lifecycle is public so that every kind of run goes through it (`engbench calibrate` too,
run/calibrate.py): `Stopper` (signals counted and forwarded, never raised) around
`recording(...)` (create the directory → the caller's captures → stop them, limits' counters,
finalize, seal), with `Recording.describe` for the manifest, `start_captures`, `capture_group`
and `finalize`. What a dead engbench left is finished by the next one (`housekeeping`, from
run/housekeeping.py, with the claim each run writes in the work directory); the status and error
from how the driver ended are run/outcome.py's."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from . import (capture, children, disk, driver, engine_files, limits, machine, quiet, rundir, speed, targets,
               vm_memory, ycsb_output)
from .housekeeping import Claim, housekeeping
from .outcome import OomWatch, outcome
from .params import RunRequest
from .progress import Progress
from .stopper import Stopper  # noqa: F401 - public here: runs.Stopper
from .servers.redact import redact

# When set (by the notebook executor), runs append their directory to this file and are sealed by
# the executor after it has saved the executed notebook into them.
SEAL_LATER_ENV = "ENGBENCH_SEAL_LATER"


@dataclass
class RunResult:
    run_dir: Path
    status: str
    error: str | None = None


def _software(req: RunRequest) -> dict:
    """machine.software() with the driver's version and the engine's library and its version."""
    d = driver.describe()
    info = {e["name"]: e for e in d["engines"] + d.get("targets", [])}.get(req.engine, {})
    software = machine.software()
    software.update(driver_version=d.get("driver_version"),
                    engine_library=info.get("library"), engine_version=info.get("library_version"))
    return software


@dataclass
class Recording:
    """A run directory between its creation and its seal (see `recording`): the manifest, what the
    caller started beside the run (capture tools, process sampler, child process) and the run's
    status and error as the caller decides them; `recording` stops, finalizes and seals with them."""

    run_dir: Path
    data_dir: Path
    started: object  # datetime (UTC)
    workload: str
    engine: str
    manifest: dict
    status: str = "failed"
    error: str | None = None
    tools: list = field(default_factory=list)
    sampler: object = None
    proc: object = None
    keep_data: bool = False
    # (status, error) -> (status, error), run after the captures stop and before the limits' finish
    after_stop: list = field(default_factory=list)

    def describe(self, argv, params, knobs, seed, software: dict, **extra) -> None:
        """The manifest saying what the run is (docs/run-format.md), status still `running`; written.
        The command line with every URI's password redacted (the secret is never written, not even
        while the run goes: a SIGKILL leaves nothing to scrub)."""
        self.manifest = {
            "schema": 1, "run_id": self.run_dir.name, "status": "running", "error": None,
            "command_line": redact(list(argv), from_env=False), "workload": self.workload, "engine": self.engine,
            "params": params, "knobs": knobs, "seed": seed,
            "git": machine.git_state(), "started_utc": rundir.iso(self.started), "ended_utc": None,
            "client_window": None, "hardware": machine.hardware(self.data_dir.parent),
            "software": software, "capture": {}, "data_dir": str(self.data_dir), "engbench": rundir.owner(),
            "memory_management": {**vm_memory.memory_management(),
                                  "damon_paged_out_bytes_at_start": vm_memory.damon_applied_bytes()},
            **extra}
        rundir.write_manifest(self.run_dir, self.manifest)

    def start_captures(self) -> None:
        """iostat and vmstat (capture.TOOLS) started into the run directory; their first reports waited for."""
        self.tools = [capture.ToolCapture(n, a, self.run_dir / f"{n}.txt") for n, a in capture.TOOLS.items()]
        for t in self.tools:
            t.start()
        for t in self.tools:
            t.wait_for_first_report()

    def capture_group(self, group) -> None:
        """With a run group: its own memory and device I/O every second, cgroup.csv (limits.GroupCapture)."""
        if group:
            self.tools.append(limits.GroupCapture(group, self.run_dir / "cgroup.csv"))
            self.tools[-1].start()


@contextmanager
def recording(out_dir: Path, work: Path, workload: str, engine: str, started, lim, group, stopper: Stopper):
    """The lifecycle of every run directory. Before: a signal already counted → nothing is made,
    the group (limits.prepare) removed, KeyboardInterrupt. Then the directory is created
    (rundir.create) with a first manifest naming its engbench, and the caller records the run in
    it (Recording). After, whatever happened: everything the caller started stopped, the
    `after_stop` steps, limits.finish (counters, OOM → failed, group removed), the start drop's
    and the driver's drop times, `keep_records` (the engine's own files, a ycsb run's YCSB
    output), `finalize` (manifest, seal) and the data directory removed
    unless kept. An exception from the caller is recorded (`interrupted` for KeyboardInterrupt,
    else `failed`) and raised again after all that."""
    if stopper.signals:  # asked to stop before anything was written
        limits.finish(lim, group, None, "interrupted", None)
        raise KeyboardInterrupt
    try:
        run_dir = rundir.create(out_dir, workload, engine, started)
    except BaseException:
        limits.finish(lim, group, None, "failed", None)
        raise
    rec = Recording(run_dir, Path(work) / run_dir.name, started, workload, engine,
                    {"schema": 1, "run_id": run_dir.name, "status": "running", "engbench": rundir.owner()})
    try:  # from the first moment, the next engbench can tell who owns it
        rundir.write_manifest(run_dir, rec.manifest)
        claim = Claim.make(work, run_dir)  # and, if this run cannot finalize its directory, why
    except OSError as exc:  # nothing recorded yet: nothing kept
        limits.finish(lim, group, None, "failed", None)
        (run_dir / rundir.MANIFEST).unlink(missing_ok=True)
        shutil.rmtree(run_dir, ignore_errors=True)
        raise disk.DiskError(disk.full(run_dir.parent, exc=exc) or disk.full(work, exc=exc)
                             or f"cannot start a run directory in {run_dir.parent}: {exc}") from None
    try:
        yield rec
    except BaseException as exc:  # engbench itself failed
        rec.status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
        rec.error = disk.full(run_dir, exc=exc) or f"{type(exc).__name__}: {exc}"
        raise
    finally:
        _close(rec, lim, group, claim)


def _close(rec: Recording, lim, group, claim: Claim) -> None:
    """`recording`'s end, each step on its own so that a failing one (a full disk) stops none of the
    rest; a run directory that cannot be finalized gets its reason kept in its claim (for the next
    engbench's housekeeping) and said on stderr with its run id (RunNotFinalized)."""
    run_dir = rec.run_dir
    _cleanup(rec.sampler, rec.tools, rec.proc)
    failures = []

    def step(fn):
        try:
            fn()
        except OSError as exc:
            failures.append(exc)

    def after_stop():
        for st in rec.after_stop:
            rec.status, rec.error = st(rec.status, rec.error)

    def finish_limits():
        rec.status, rec.error = limits.finish(lim, group, run_dir, rec.status, rec.error)
        if lim.drop_caches and "run_limits" in rec.manifest:  # when each drop happened
            rec.manifest["run_limits"]["caches_dropped"] = limits.dropped(
                (rec.manifest["run_limits"].get("caches_dropped") or [None])[0], run_dir)

    step(after_stop)
    step(finish_limits)
    notes = keep_records(rec)
    try:
        finalize(run_dir, rec.manifest, rec.tools, rec.sampler, rec.status, rec.error, notes)
        finalized = None
    except OSError as exc:
        finalized = exc
    if not rec.keep_data:
        shutil.rmtree(rec.data_dir, ignore_errors=True)
    if finalized is None:
        claim.release()
        return
    why = disk.full(run_dir, exc=finalized) or f"its manifest could not be written ({finalized})"
    reason = why + (f"\n{rec.error}" if rec.error and rec.error != why else "")
    kept = claim.give_up(reason)
    print(f"engbench: {run_dir.name}: could not finalize its run directory {run_dir}: {reason}\n"
          + (f"engbench: the reason is kept in {claim.path}; the next engbench marks the run failed with it"
             if kept else "engbench: the reason could not be kept anywhere else: this message is its only record"),
          file=sys.stderr, flush=True)
    raise RunNotFinalized(f"{run_dir.name}: run directory not finalized: {why}")


class RunNotFinalized(RuntimeError):
    """The run directory could not be finalized (its disk is full): the reason is on stderr and in
    its claim, for the next engbench."""


def execute(req: RunRequest, out_dir: Path | None = None, argv=None, keep_data: bool = False,
            show_progress: bool = True, experiment: str | None = None, wait_quiet_s: float = 0,
            schedule: dict | None = None) -> RunResult:
    out_dir = Path(out_dir) if out_dir else paths.raw_dir()
    work = paths.work_dir()
    # Where the run writes: refused before anything is written when it cannot hold a run (disk.py).
    disk.check_dir("ENGBENCH_WORK_DIR", work)
    disk.check_dir("--out (ENGBENCH_RAW_DIR)", out_dir, need=disk.MIN_START_BYTES)
    housekeeping(out_dir)
    lim, _ = limits.split(req.knobs)
    # A server target (targets.py): connection knobs move to the config's `target` section.
    tgt = targets.session_for(req)
    if tgt:
        req = tgt.request
    # The stopper is installed for the whole run, finalization included: a signal only counts and
    # is forwarded to the driver, so nothing between creating the directory and sealing it can be
    # cut short (a second Ctrl-C kills the driver, never the bookkeeping).
    with Stopper() as stopper:
        started = rundir.utc_now()
        # Validate with the final paths before creating anything (the driver creates nothing here).
        name_guess = f"{started:%Y%m%dT%H%M%SZ}_{req.workload}_{req.engine}_{machine.hostname()}"
        resolved = driver.validate(req.config(work / name_guess, out_dir / name_guess / "driver"))
        # Limits: checked and the run's cgroup made before the run directory exists (limits.py).
        group = limits.prepare(lim, req.engine, resolved.get("knobs"), name_guess, work)
        before = None
        if wait_quiet_s and not stopper.signals:  # a quiet machine first (quiet.py): what it saw goes in the manifest
            print(f"engbench: waiting up to {wait_quiet_s:g} s for a quiet machine (<= {quiet.QUIET_PCT:g} % of all "
                  f"CPUs busy for {quiet.SETTLE} s)", file=sys.stderr, flush=True)
            before = quiet.wait(wait_quiet_s)
            if not before["quiet"]:
                print(f"engbench: warning: the machine stayed busy ({before['busy_pct_last']} % of all CPUs); "
                      "running anyway, and the run records it", file=sys.stderr)
            # then how fast the machine is (speed.py): a slower machine is not a slower engine
            if not stopper.signals:
                before["speed"] = speed.probe(work)
        with recording(out_dir, work, req.workload, req.engine, started, lim, group, stopper) as rec:
            run_dir, data_dir = rec.run_dir, rec.data_dir
            rec.keep_data = keep_data
            if tgt:  # after the captures stop: the server's after-snapshot, stop, redaction (_finish_target)
                def finish_target(status, error):
                    status, error = _finish_target(tgt, run_dir, rec.manifest, status, error)
                    rec.keep_data = rec.keep_data or tgt.keep_server_dir
                    return status, error
                rec.after_stop.append(finish_target)
            data_dir.mkdir(parents=True, exist_ok=True)  # the driver's working directory
            drv_dir = run_dir / "driver"
            drv_dir.mkdir()
            if tgt:  # start (or reach) the server, snapshot it: run_dir/server/ (a private one in the group)
                with children.joining(group.procs_files() if group else []):
                    req = dataclasses.replace(req, target=tgt.start(run_dir, data_dir))
            # The driver runs in its data directory and is given relative paths: what it and the
            # engine write (config.resolved.json, summary.json, RocksDB's LOG) names no absolute path.
            config = req.config(Path("."), Path(os.path.relpath(drv_dir, data_dir)))
            (drv_dir / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
            extra = {"experiment": experiment, "run_limits": limits.record(lim, req.engine, resolved.get("knobs"), group)}
            if before is not None:
                extra["machine_before"] = before
            if schedule:  # its place in a reproduce plan: group, round, position in the round (engbench.run.rounds)
                extra["schedule"] = schedule
            if tgt:
                extra["server"] = tgt.info
            rec.describe(argv or sys.argv, resolved.get("params"), resolved.get("knobs"), resolved.get("seed"),
                         _software(req), **extra)
            if lim.drops_at_start():
                rec.manifest["run_limits"]["caches_dropped"] = [limits.drop_caches()]

            rec.start_captures()
            if stopper.signals:
                rec.status, rec.error = "interrupted", "interrupted before the workload started; captures kept"
                return RunResult(run_dir, rec.status, rec.error)
            with open(drv_dir / "stdout.jsonl", "w") as out_log, open(drv_dir / "stderr.log", "w") as err:
                with children.joining(group.procs_files() if group else []):
                    rec.proc = proc = driver.start(drv_dir / "config.json", stdout=subprocess.PIPE, stderr=err,
                                                   cwd=data_dir)
                stopper.attach(proc)
                oom = OomWatch(proc.pid)
                rec.sampler = capture.ProcessSampler(proc.pid, run_dir / rundir.DRIVER_PROCESS)
                rec.sampler.start()
                rec.capture_group(group)  # the group's own memory and device I/O, every second: cgroup.csv
                with Progress(enabled=show_progress, label=f"{req.workload}/{req.engine}") as bar:
                    for line in proc.stdout:
                        out_log.write(line)
                        out_log.flush()
                        bar.update_from_line(line)
                rc = proc.wait()
            summary = _read_json(drv_dir / "summary.json") or {}
            # one more report each, covering the client's last second (from its end, when known)
            capture.wait_for_next_reports(rec.tools, since=_client_end(summary))
            rec.status, rec.error = outcome(rc, summary, drv_dir, stopper.signals, data_dir, oom)
    return RunResult(rec.run_dir, rec.status, rec.error)


def _finish_target(tgt, run_dir, manifest, status, error):
    """After the driver: the server's after-snapshot, stop (a private server), the server dying
    → failed. Nothing is scrubbed: what engbench wrote holds no secret, and the tools' output is
    kept as written (targets.py "Secrets")."""
    try:
        status, error = tgt.finish(run_dir, status, error, _read_json(run_dir / "driver" / "summary.json"))
    except Exception as exc:  # noqa: BLE001 - the run is still finalized
        status, error = "failed", (error + "\n" if error else "") + f"server: {type(exc).__name__}: {exc}"
    finally:
        tgt.close()
    manifest["server"] = tgt.info
    if tgt.warnings:  # recorded in the run, never dropped: processing puts them in runs.warnings
        manifest["warnings"] = list(dict.fromkeys((manifest.get("warnings") or []) + tgt.warnings))
        for w in tgt.warnings:
            print(f"engbench: warning: {w}", file=sys.stderr)
    return status, (redact(error, from_env=False) if error else error)


def _cleanup(sampler, tools, proc) -> None:
    """Stop everything this run started, each step on its own, so one failure leaves no process."""
    steps = [sampler.stop] if sampler else []
    steps += [t.stop for t in tools]
    if proc is not None:
        steps.append(lambda: (proc.poll() is None and proc.kill(), proc.wait()))
    for step in steps:
        try:
            step()
        except Exception:  # noqa: BLE001 - keep stopping the rest
            pass


def _client_end(summary: dict) -> float | None:
    """The driver's client window end (unix s) from its summary; None without one."""
    end = (summary.get("client") or {}).get("end_unix_s")
    return float(end) if isinstance(end, (int, float)) else None


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def keep_records(rec: Recording) -> list[str]:
    """New files beside the captures, before the seal: the engine's own OPTIONS and LOG files from
    its data directory (engine_files) and a ycsb run's results in YCSB's formats (ycsb_output).
    What could not be written is returned as capture warnings: the run is finalized regardless."""
    notes = []
    for what, step in (("engine files", lambda: engine_files.keep(rec.engine, rec.data_dir, rec.run_dir)),
                       ("YCSB output", lambda: ycsb_output.write(rec.run_dir))):
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the run is still finalized and sealed
            notes.append(f"{what} not kept: {type(exc).__name__}: {exc}")
    return notes


def finalize(run_dir, manifest, tools, sampler, status, error, notes=()) -> None:
    """The manifest finalized (status, error, ended_utc, client_window from driver/summary.json when
    there is one, what each capture recorded, capture_warnings with `notes`) and written; then
    sealed, or queued for the notebook executor to seal ($ENGBENCH_SEAL_LATER)."""
    summary = _read_json(run_dir / "driver" / "summary.json") or {}
    client = summary.get("client") or {}
    manifest.update(status=status, error=error, ended_utc=rundir.iso(rundir.utc_now()))
    if client:
        manifest["client_window"] = {"start_unix_s": client.get("start_unix_s"),
                                     "end_unix_s": client.get("end_unix_s")}
    mm = manifest.get("memory_management")
    if mm is not None:  # what the VM's DAMON paged out while the run's manifest was open (vm_memory)
        end = vm_memory.damon_applied_bytes()
        start = mm.get("damon_paged_out_bytes_at_start")
        mm["damon_paged_out_bytes_at_end"] = end
        mm["damon_paged_out_during_run_bytes"] = end - start if end is not None and start is not None else None
    manifest["capture"] = {t.name: t.describe() for t in tools}
    manifest["capture"]["process_sampler"] = {"interval_s": sampler.interval_s if sampler else None,
                                              "samples": sampler.samples if sampler else 0,
                                              "file": rundir.DRIVER_PROCESS}
    missing = [t.note for t in tools if not t.available] + (sampler.warnings if sampler else [])
    missing += [w for t in tools for w in getattr(getattr(t, "sampler", None), "warnings", [])] + list(notes)
    if missing:
        manifest["capture_warnings"] = missing
    rundir.write_manifest(run_dir, manifest)
    later = os.environ.get(SEAL_LATER_ENV)
    if later:
        with open(later, "a") as f:
            f.write(f"{run_dir}\n")
    else:
        rundir.seal(run_dir)
