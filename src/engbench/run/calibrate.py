"""`engbench calibrate`: what the device under the data directory can do, measured with fio under
the same run limits a run would get (docs/run-format.md "Calibration runs").

Six short fio jobs on one small file in the work directory, direct I/O except the fsync job:
4 KiB random reads at queue depth 1 and 32, 4 KiB random writes (QD32), sequential 1 MiB reads and
writes (QD8), and 4 KiB buffered writes each followed by fsync (its latency p50/p99). The output
is a run directory like any other (workload `calibrate`, engine `fio`): manifest, iostat and
vmstat, `fio/<job>.json` as fio wrote it, and `summary.json` with the figures."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

from .. import install, paths
from . import capture, children, limits, machine, rundir, runs
from .params import RunRequest

FILE_SIZE = "128M"
RUNTIME_S = 2
COMMON = ["--ioengine=libaio", "--direct=1", f"--size={FILE_SIZE}", f"--runtime={RUNTIME_S}", "--time_based",
          "--randrepeat=0", "--norandommap", "--group_reporting"]
JOBS = {  # name → fio options beyond COMMON (later options win)
    "randread_qd1": ["--rw=randread", "--bs=4k", "--iodepth=1"],
    "randread_qd32": ["--rw=randread", "--bs=4k", "--iodepth=32"],
    "randwrite_qd32": ["--rw=randwrite", "--bs=4k", "--iodepth=32"],
    "seqread": ["--rw=read", "--bs=1M", "--iodepth=8"],
    "seqwrite": ["--rw=write", "--bs=1M", "--iodepth=8"],
    "fsync": ["--rw=write", "--bs=4k", "--iodepth=1", "--ioengine=psync", "--direct=0", "--fsync=1"],
}


def _pct(lat: dict, p: str) -> float | None:
    v = (lat.get("percentile") or {}).get(p)
    return None if v is None else v / 1000.0


def figures(results: dict) -> dict:
    """summary.json: the headline figures and, per job, iops, MB/s and latency p50/p99 (µs)."""
    jobs = {}
    for name, j in results.items():
        side = j["read"] if j["read"]["total_ios"] else j["write"]
        jobs[name] = {"iops": side["iops"], "mb_per_s": side["bw_bytes"] / 1e6,
                      "lat_p50_us": _pct(side["clat_ns"], "50.000000"), "lat_p99_us": _pct(side["clat_ns"], "99.000000")}
    sync = results.get("fsync", {}).get("sync", {}).get("lat_ns", {})
    g = lambda job, key: jobs.get(job, {}).get(key)  # noqa: E731
    return {"randread_qd1_iops": g("randread_qd1", "iops"), "randread_qd32_iops": g("randread_qd32", "iops"),
            "randwrite_qd32_iops": g("randwrite_qd32", "iops"), "seqread_mb_per_s": g("seqread", "mb_per_s"),
            "seqwrite_mb_per_s": g("seqwrite", "mb_per_s"), "fsync_p50_us": _pct(sync, "50.000000"),
            "fsync_p99_us": _pct(sync, "99.000000"), "jobs": jobs}


def fio_version() -> str | None:
    exe = shutil.which("fio")
    return subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip() if exe else None


def calibrate(sets=(), out_dir: Path | None = None, argv=None, jobs=tuple(JOBS)) -> runs.RunResult:
    try:  # set-up by need: fio is not part of the main job's set-up
        install.ensure("tools", "engbench calibrate", lambda: None if fio_version() else "no fio")
    except install.MissingPart as e:
        raise limits.LimitError(str(e)) from None
    req = RunRequest("calibrate", "fio", knobs=dict(s.split("=", 1) for s in sets if "=" in s))
    lim, rest = limits.split(req.knobs)
    if rest or any("=" not in s for s in sets):
        raise limits.LimitError(f"calibrate takes run limits only (run.{', run.'.join(limits.KEYS)}), got {list(sets)}")
    out_dir = Path(out_dir) if out_dir else paths.raw_dir()
    runs.housekeeping(out_dir)
    started, work = rundir.utc_now(), paths.work_dir()
    work.mkdir(parents=True, exist_ok=True)
    name = f"{started:%Y%m%dT%H%M%SZ}_calibrate_fio_{machine.hostname()}"
    group = limits.prepare(lim, "fio", {}, name, work)
    run_dir = rundir.create(out_dir, "calibrate", "fio", started)
    data_dir = work / run_dir.name
    params = {"file_size": FILE_SIZE, "runtime_s": RUNTIME_S, "jobs": {j: COMMON + JOBS[j] for j in jobs}}
    manifest = {"schema": 1, "run_id": run_dir.name, "status": "running", "error": None, "engbench": rundir.owner(),
                "command_line": list(argv or sys.argv), "workload": "calibrate", "engine": "fio", "params": params,
                "knobs": {}, "seed": None, "git": machine.git_state(), "started_utc": rundir.iso(started),
                "ended_utc": None, "client_window": None, "hardware": machine.hardware(work),
                "software": {**machine.software(), "fio": fio_version()}, "capture": {}, "data_dir": str(data_dir),
                "run_limits": limits.record(lim, "fio", {}, group)}
    rundir.write_manifest(run_dir, manifest)
    tools, status, error = [], "failed", None
    old_term = signal.signal(signal.SIGTERM, _interrupt) if threading.current_thread() is threading.main_thread() else None
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "fio").mkdir()
        tools = [capture.ToolCapture(n, a, run_dir / f"{n}.txt") for n, a in capture.TOOLS.items()]
        for t in tools:
            t.start()
        for t in tools:
            t.wait_for_first_report()
        if lim.drop_caches:
            limits.drop_caches()
        results = {j: _fio(j, data_dir / "fio.dat", run_dir / "fio" / f"{j}.json", group) for j in jobs}
        (run_dir / "summary.json").write_text(json.dumps(figures(results), indent=2, sort_keys=True) + "\n")
        status = "ok"
    except KeyboardInterrupt:
        status, error = "interrupted", "interrupted by a signal; partial fio output kept"
        raise
    except Exception as exc:  # noqa: BLE001 - the run directory is still finalized
        error = f"{type(exc).__name__}: {exc}"
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        for t in tools:
            t.stop()
        status, error = limits.finish(lim, group, run_dir, status, error)
        runs.finalize(run_dir, manifest, tools, None, status, error)
        shutil.rmtree(data_dir, ignore_errors=True)
    return runs.RunResult(run_dir, status, error)


def _interrupt(signum, frame):
    """SIGTERM ends a calibration like Ctrl-C: fio stopped, captures kept, the directory sealed."""
    raise KeyboardInterrupt


def _fio(job: str, filename: Path, output: Path, group) -> dict:
    argv = ["fio", f"--name={job}", f"--filename={filename}", *COMMON, *JOBS[job],
            "--output-format=json", f"--output={output}"]
    with children.joining(group.procs_files() if group else []):
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=children.die_with_parent)
    try:
        _, err = proc.communicate(timeout=RUNTIME_S * 10 + 60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"fio {job} failed ({proc.returncode}): {err.strip()[-500:]}")
    return json.loads(output.read_text())["jobs"][0]
