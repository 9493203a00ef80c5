"""One run: validate, create the run directory, capture the OS around the driver, finalize, seal.

    engbench run iibench --engine rocksdb --set max_rows=100000 --set rocksdb.compaction=universal

Order of events (docs/run-format.md): the driver validates the resolved config (nothing is written
if it refuses) → the run directory and its manifest (`running`) → iostat, vmstat → the driver and
its process sampler → the driver ends (or is interrupted, or dies) → samplers stopped → manifest
finalized (`ok`, `failed` with the reason, `interrupted`) → SHA256SUMS and read-only files."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from . import capture, cgroups, children, driver, limits, machine, quiet, rundir, targets
from .params import RunRequest
from .progress import Progress

# When set (by the notebook executor), runs append their directory to this file and are sealed by
# the executor after it has saved the executed notebook into them.
SEAL_LATER_ENV = "ENGBENCH_SEAL_LATER"


@dataclass
class RunResult:
    run_dir: Path
    status: str
    error: str | None = None


class _Stopper:
    """SIGINT/SIGTERM → ask the driver to stop (it writes what it has, status `interrupted`);
    a second signal kills it. Signals are only counted and forwarded, never raised, so the run's
    own bookkeeping (stopping captures, finalizing, sealing) always completes."""

    def __init__(self):
        self.proc = None
        self.signals = 0
        self._old = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _handle(self, signum, frame):
        self.signals += 1
        self._forward()

    def attach(self, proc) -> None:
        """The driver has started: a signal that came while it was starting is passed on now."""
        self.proc = proc
        if self.signals:
            self._forward()

    def _forward(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT if self.signals == 1 else signal.SIGKILL)


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _manifest(run_dir: Path, req: RunRequest, resolved: dict, data_dir: Path, argv, started) -> dict:
    d = driver.describe()
    info = {e["name"]: e for e in d["engines"] + d.get("targets", [])}.get(req.engine, {})
    software = machine.software()
    software.update(driver_version=driver.describe().get("driver_version"),
                    engine_library=info.get("library"), engine_version=info.get("library_version"))
    return {
        "schema": 1, "run_id": run_dir.name, "status": "running", "error": None,
        "command_line": list(argv), "workload": req.workload, "engine": req.engine,
        "params": resolved.get("params"), "knobs": resolved.get("knobs"), "seed": resolved.get("seed"),
        "git": machine.git_state(), "started_utc": rundir.iso(started), "ended_utc": None,
        "client_window": None, "hardware": machine.hardware(data_dir.parent),
        "software": software, "capture": {}, "data_dir": str(data_dir), "engbench": rundir.owner(),
    }


def execute(req: RunRequest, out_dir: Path | None = None, argv=None, keep_data: bool = False,
            show_progress: bool = True, experiment: str | None = None, wait_quiet_s: float = 0) -> RunResult:
    out_dir = Path(out_dir) if out_dir else paths.raw_dir()
    housekeeping(out_dir)
    lim, _ = limits.split(req.knobs)
    # A server target (targets.py): connection knobs move to the config's `target` section.
    tgt = targets.session_for(req)
    if tgt:
        req = tgt.request
    # The stopper is installed for the whole run, finalization included: a signal only counts and
    # is forwarded to the driver, so nothing between creating the directory and sealing it can be
    # cut short (a second Ctrl-C kills the driver, never the bookkeeping).
    with _Stopper() as stopper:
        started = rundir.utc_now()
        # Validate with the final paths before creating anything (the driver creates nothing here).
        name_guess = f"{started:%Y%m%dT%H%M%SZ}_{req.workload}_{req.engine}_{machine.hostname()}"
        work = paths.work_dir()
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
        if stopper.signals:  # asked to stop before anything was written
            limits.finish(lim, group, None, "interrupted", None)
            raise KeyboardInterrupt
        try:
            run_dir = rundir.create(out_dir, req.workload, req.engine, started)
        except BaseException:
            limits.finish(lim, group, None, "failed", None)
            raise
        data_dir = work / run_dir.name
        manifest = {"schema": 1, "run_id": run_dir.name, "status": "running", "engbench": rundir.owner()}
        rundir.write_manifest(run_dir, manifest)  # from the first moment, the next engbench can tell who owns it
        tools, sampler, proc = [], None, None
        status, error = "failed", None
        try:
            data_dir.parent.mkdir(parents=True, exist_ok=True)
            drv_dir = run_dir / "driver"
            drv_dir.mkdir()
            if tgt:  # start (or reach) the server, snapshot it: run_dir/server/ (a private one in the group)
                with children.joining(group.procs_files() if group else []):
                    req = dataclasses.replace(req, target=tgt.start(run_dir, data_dir))
            config = req.config(data_dir, drv_dir)
            (drv_dir / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
            manifest = _manifest(run_dir, req, resolved, data_dir, argv or sys.argv, started)
            manifest["experiment"] = experiment
            if before is not None:
                manifest["machine_before"] = before
            if tgt:
                manifest["server"] = tgt.info
            manifest["run_limits"] = limits.record(lim, req.engine, resolved.get("knobs"), group)
            rundir.write_manifest(run_dir, manifest)
            if lim.drops_at_start():
                manifest["run_limits"]["caches_dropped"] = [limits.drop_caches()]

            tools = [capture.ToolCapture(n, a, run_dir / f"{n}.txt") for n, a in capture.TOOLS.items()]
            for t in tools:
                t.start()
            for t in tools:
                t.wait_for_first_report()
            if stopper.signals:
                status, error = "interrupted", "interrupted before the workload started; captures kept"
                return RunResult(run_dir, status, error)
            with open(drv_dir / "stdout.jsonl", "w") as out_log, open(drv_dir / "stderr.log", "w") as err:
                with children.joining(group.procs_files() if group else []):
                    proc = driver.start(drv_dir / "config.json", stdout=subprocess.PIPE, stderr=err)
                stopper.attach(proc)
                sampler = capture.ProcessSampler(proc.pid, run_dir / rundir.DRIVER_PROCESS)
                sampler.start()
                if group:  # the group's own memory and device I/O, every second: cgroup.csv
                    tools.append(limits.GroupCapture(group, run_dir / "cgroup.csv"))
                    tools[-1].start()
                with Progress(enabled=show_progress, label=f"{req.workload}/{req.engine}") as bar:
                    for line in proc.stdout:
                        out_log.write(line)
                        out_log.flush()
                        bar.update_from_line(line)
                rc = proc.wait()
            summary = _read_json(drv_dir / "summary.json") or {}
            # one more report each, covering the client's last second (from its end, when known)
            capture.wait_for_next_reports(tools, since=_client_end(summary))
            status, error = _outcome(rc, summary, drv_dir, stopper.signals)
        except BaseException as exc:  # engbench itself failed
            status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            error = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            _cleanup(sampler, tools, proc)
            if tgt:
                status, error = _finish_target(tgt, run_dir, manifest, status, error)
            status, error = limits.finish(lim, group, run_dir, status, error)
            if lim.drop_caches and "run_limits" in manifest:  # when each drop happened
                manifest["run_limits"]["caches_dropped"] = limits.dropped(
                    (manifest["run_limits"].get("caches_dropped") or [None])[0], run_dir)
            _finalize(run_dir, manifest, tools, sampler, status, error)
            if not keep_data and not (tgt and tgt.keep_server_dir):
                shutil.rmtree(data_dir, ignore_errors=True)
    return RunResult(run_dir, status, error)


def housekeeping(out_dir: Path) -> None:
    """What a dead engbench left: its runs marked `abandoned` and sealed, its cgroups removed."""
    for run_dir in rundir.mark_abandoned(out_dir):
        print(f"engbench: {run_dir.name} was left running by an engbench that is gone: marked abandoned",
              file=sys.stderr)
    for path in cgroups.clean_leftovers():
        print(f"engbench: removed the cgroup {path} left by an engbench that is gone", file=sys.stderr)


def _finish_target(tgt, run_dir, manifest, status, error):
    """After the driver: the server's after-snapshot, stop (a private server), the server dying
    → failed; then every file of the run directory and the manifest redacted."""
    try:
        status, error = tgt.finish(run_dir, status, error, _read_json(run_dir / "driver" / "summary.json"))
    except Exception as exc:  # noqa: BLE001 - the run is still finalized
        status, error = "failed", (error + "\n" if error else "") + f"server: {type(exc).__name__}: {exc}"
    finally:
        tgt.close()
    secrets = tgt.all_secrets()
    tgt.redact_tree(run_dir)
    manifest["server"] = tgt.info
    if tgt.warnings:  # recorded in the run, never dropped: processing puts them in runs.warnings
        manifest["warnings"] = list(dict.fromkeys((manifest.get("warnings") or []) + tgt.warnings))
        for w in tgt.warnings:
            print(f"engbench: warning: {w}", file=sys.stderr)
    manifest.update(targets.redact(dict(manifest), secrets))
    return status, (targets.redact(error, secrets) if error else error)


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


def _outcome(rc: int, summary: dict, drv_dir: Path, signals: int) -> tuple[str, str | None]:
    """The run's status and error from the driver's exit status, its summary and the signals."""
    if rc == 0 and not signals:
        return "ok", None
    stopped_by_signal = rc in (130, -signal.SIGINT, -signal.SIGTERM) or summary.get("status") == "interrupted"
    if signals and (stopped_by_signal or rc == 0):
        return "interrupted", "interrupted by a signal; partial captures kept"
    if signals >= 2 and rc == -signal.SIGKILL:
        return "interrupted", "killed after a second signal; partial captures kept"
    reason = summary.get("error") or (f"driver killed by signal {-rc}" if rc < 0 else f"driver exit status {rc}")
    tail = _tail(drv_dir / "stderr.log")
    return "failed", reason + (f"\n--- driver stderr (tail) ---\n{tail}" if tail else "")


def _client_end(summary: dict) -> float | None:
    """The driver's client window end (unix s) from its summary; None without one."""
    end = (summary.get("client") or {}).get("end_unix_s")
    return float(end) if isinstance(end, (int, float)) else None


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _finalize(run_dir, manifest, tools, sampler, status, error) -> None:
    summary = _read_json(run_dir / "driver" / "summary.json") or {}
    client = summary.get("client") or {}
    manifest.update(status=status, error=error, ended_utc=rundir.iso(rundir.utc_now()))
    if client:
        manifest["client_window"] = {"start_unix_s": client.get("start_unix_s"),
                                     "end_unix_s": client.get("end_unix_s")}
    manifest["capture"] = {t.name: t.describe() for t in tools}
    manifest["capture"]["process_sampler"] = {"interval_s": sampler.interval_s if sampler else None,
                                              "samples": sampler.samples if sampler else 0,
                                              "file": rundir.DRIVER_PROCESS}
    missing = [t.note for t in tools if not t.available] + (sampler.warnings if sampler else [])
    missing += [w for t in tools for w in getattr(getattr(t, "sampler", None), "warnings", [])]
    if missing:
        manifest["capture_warnings"] = missing
    rundir.write_manifest(run_dir, manifest)
    later = os.environ.get(SEAL_LATER_ENV)
    if later:
        with open(later, "a") as f:
            f.write(f"{run_dir}\n")
    else:
        rundir.seal(run_dir)
