"""`engbench calibrate`: what the device under the data directory can do, measured with fio under
the same run limits a run would get (docs/run-format.md "Calibration runs").

Six short fio jobs (fio.JOBS) on one small file in the work directory, direct I/O except the fsync job:
4 KiB random reads at queue depth 1 and 32, 4 KiB random writes (QD32), sequential 1 MiB reads and
writes (QD8), and 4 KiB buffered writes each followed by fsync (its latency p50/p99). The output
is a run directory like any other (workload `calibrate`, engine `fio`): manifest, iostat and
vmstat, `fio/<job>.json` as fio wrote it, and `summary.json` with the figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .. import install, paths
from . import children, fio, limits, machine, rundir, runs
from .fio import COMMON, FILE_SIZE, JOBS, RUNTIME_S, figures
from .params import RunRequest


def calibrate(sets=(), out_dir: Path | None = None, argv=None, jobs=tuple(JOBS)) -> runs.RunResult:
    """One calibration run through the lifecycle of every run (runs.recording): refused before
    anything is written, the group made, the directory created, iostat and vmstat (and cgroup.csv
    under limits) around the fio jobs, finalized and sealed. A signal is passed on to the fio job running (runs.Stopper; a
    second one kills it): no further job, status `interrupted`."""
    try:  # set-up by need: fio is not part of the main job's set-up
        install.ensure("tools", "engbench calibrate", lambda: None if fio.version() else "no fio")
    except install.MissingPart as e:
        raise limits.LimitError(str(e)) from None
    req = RunRequest("calibrate", "fio", knobs=dict(s.split("=", 1) for s in sets if "=" in s))
    lim, rest = limits.split(req.knobs)
    if rest or any("=" not in s for s in sets):
        raise limits.LimitError(f"calibrate takes run limits only (run.{', run.'.join(limits.KEYS)}), got {list(sets)}")
    out_dir = Path(out_dir) if out_dir else paths.raw_dir()
    runs.housekeeping(out_dir)
    with runs.Stopper() as stopper:
        started, work = rundir.utc_now(), paths.work_dir()
        work.mkdir(parents=True, exist_ok=True)
        name = f"{started:%Y%m%dT%H%M%SZ}_calibrate_fio_{machine.hostname()}"
        group = limits.prepare(lim, "fio", {}, name, work)
        with runs.recording(out_dir, work, "calibrate", "fio", started, lim, group, stopper) as rec:
            params = {"file_size": FILE_SIZE, "runtime_s": RUNTIME_S, "jobs": {j: COMMON + JOBS[j] for j in jobs}}
            try:
                rec.describe(argv or sys.argv, params, {}, None, {**machine.software(), "fio": fio.version()},
                             run_limits=limits.record(lim, "fio", {}, group))
                rec.data_dir.mkdir(parents=True, exist_ok=True)
                (rec.run_dir / "fio").mkdir()
                rec.start_captures()
                rec.capture_group(group)  # under limits: the group's own memory and device I/O, cgroup.csv
                if lim.drop_caches:
                    rec.manifest["run_limits"]["caches_dropped"] = [limits.drop_caches()]
                results = {}
                for j in jobs:
                    if stopper.signals:
                        break
                    results[j] = _fio(j, rec.data_dir / "fio.dat", rec.run_dir / "fio" / f"{j}.json", group, stopper)
                if not stopper.signals:
                    (rec.run_dir / "summary.json").write_text(json.dumps(figures(results), indent=2, sort_keys=True) + "\n")
                    uncounted = uncounted_reads(results, group.sample().get("read_ios") if group else None)
                    if uncounted:
                        raise RuntimeError(uncounted)
                    rec.status = "ok"
            except Exception as exc:  # noqa: BLE001 - the run directory is still finalized
                rec.error = f"{type(exc).__name__}: {exc}"
            if stopper.signals:
                rec.status, rec.error = "interrupted", "interrupted by a signal; partial fio output kept"
    return runs.RunResult(rec.run_dir, rec.status, rec.error)


COUNTED_AT_LEAST = 0.9  # of fio's direct reads, the share the run's cgroup must have counted


def uncounted_reads(results: dict, group_reads: int | None) -> str | None:
    """Why the run's group did not count the calibration's device reads, None when it did: every
    fio job here reads with direct I/O, so each read is a device read of the group's own, and

        counted = group_reads / Σ_jobs fio's read total_ios     must be ≥ COUNTED_AT_LEAST

    (a group without I/O counters, group_reads None, or no reads: nothing to check). A kernel
    that does not count them (cgroups.COUNTING_IOPS) would give every run under it zero device
    reads of its own, and the regime gates would judge those."""
    fio_reads = sum(int((j.get("read") or {}).get("total_ios") or 0) for j in results.values())
    if group_reads is None or not fio_reads or group_reads >= COUNTED_AT_LEAST * fio_reads:
        return None
    return (f"the run's cgroup counted {group_reads:,} device reads of fio's {fio_reads:,} direct reads: "
            "this kernel does not count a group's own device I/O, so runs under its limits would report "
            "none (engbench.run.cgroups.COUNTING_IOPS)")


def _fio(job: str, filename: Path, output: Path, group, stopper: runs.Stopper) -> dict:
    argv = fio.argv(job, filename, f"--output={output}")
    with children.joining(group.procs_files() if group else []):
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=children.die_with_parent)
    stopper.attach(proc)  # a signal now reaches fio (SIGINT, then SIGKILL), not this process
    try:
        _, err = proc.communicate(timeout=RUNTIME_S * 10 + 60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"fio {job} failed ({proc.returncode}): {err.strip()[-500:]}")
    return json.loads(output.read_text())["jobs"][0]
