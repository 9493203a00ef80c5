"""`engbench reproduce`: every reproduction experiment (notebooks/params/repro_*.yaml, one per
claim group of the source documents: engbench.findings), run through the Snakemake workflow
(workflow/Snakefile, local profile: one benchmark run at a time), then processed and built into the
paper, whose Findings section judges each claim.

Order: randomized interleaved rounds (issue 44; Abedi & Brecht, ICPE 2017). The configurations
(experiment file x engine) are cut into interleaved groups (`interleaved_groups`): configurations
that any claim compares (a finding's picks, engbench.findings.catalog) or that one file runs
together (its engines) are in one group (connected components), and the configurations of one
`--only` group left alone by that are one group more. Every interleaved group lies inside one
`--only` group (GROUPS, one per workload); it is named after it (`iibench`), with `.1`, `.2`, ...
when the `--only` group holds more than one. A group runs in rounds: each round runs every
configuration of the group once, in an order drawn from a recorded seed (engbench.run.rounds.Plan:
numpy's default_rng of seed, round and group), so a slow spell of the machine falls on every side
of a comparison alike; groups run one after another. A group's rounds are its files' repetitions
(3; `--repeat`), plus the extra rounds asked for it (`--extra-rounds GROUP=K`, up to a cap of
`--max-rounds` rounds in all). A trial's repetition is its round, and its run's manifest records
its group, round and position in the round (`schedule`).

The plan (`<state>/plan.json`, PLAN_FILE) is written before the first run and printed (seed and
groups); a second call keeps it: same seed, same order, the same rounds unless more are asked for.

Enough rounds where it matters (issue 44 item 3): after the planned rounds the runs are processed
and the findings judged; a group with a claim "inconclusive here" whose rounds_needed lies within
`--max-rounds` gets rounds up to it (rounds.more_rounds, a pure function of findings.csv and the
plan; the plan records each claim, its interval and rounds_needed), which run, are processed and
judged again, until no claim asks for more within the cap; then the paper, whose Findings table
prints each claim's repetitions (findings.csv `rounds`: the ok runs it rests on). The extra rounds
of a group run after every group's planned ones (one workflow call each), each round interleaved as
the others. `--no-extra-rounds`: the planned rounds only.

Resumable: a trial whose run is sealed, verified and `ok` in the raw directory is never run
again (engbench.matrix.reconcile), so a second call after an interruption runs only what is
missing; a call with nothing missing only rebuilds what is out of date.

Progress: one line per finished run, with the runs left and an estimate of the time left, from
the durations of the runs already done (this call's, else the raw directory's own record of the
same trials, else DEFAULT_SECONDS per workload).

The plan (its groups, rounds and the extra rounds claims ask for) is plan.py; this module runs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from .. import importer, matrix, paths
from .. import registry
from ..run import calibrate, limits, machine, params, rounds, rundir
from .plan import (GROUPS, add_needed_rounds, claim_configs, file_configs,  # noqa: F401 (importable
                   describe_plan, interleaved_groups, make_plan, only_group, only_group_seed,  # from here as
                   plan_path)                                                            # before the split)

PREFIX = "repro_"
# A run's wall seconds before a run of the same trial exists (Workload.seconds_per_run; else 60).
DEFAULT_SECONDS = {w.name: w.seconds_per_run for w in map(registry.get, registry.order()) if w.seconds_per_run}
SNAKEFILE = paths.REPO / "workflow" / "Snakefile"
PROFILE = paths.REPO / "workflow" / "profiles" / "local"


def experiment_files(only: list[str] | None = None, params_dir: Path | None = None) -> list[Path]:
    """The reproduction's experiment files, all or those of the `only` groups (GROUPS: a name, a
    source document's number like "003", or a file stem). Refuses an unknown name."""
    d = Path(params_dir) if params_dir else paths.REPO / "notebooks" / "params"
    files = sorted(d.glob(f"{PREFIX}*.yaml"))
    if not only:
        return files
    out = []
    for name in only:
        prefix = next((pre for g, (seed, pre) in GROUPS.items() if name in (g, seed)), None)
        sel = [f for f in files if (f.stem.startswith(prefix) if prefix else f.stem == name)]
        if not sel:
            valid = ", ".join(f"{g} ({seed})" for g, (seed, _) in GROUPS.items())
            raise params.ParamError(f"--only {name!r}: no such experiment; valid: {valid}, or a file stem "
                                    f"of {d}/{PREFIX}*.yaml")
        out += [f for f in sel if f not in out]
    return out


def _seconds(run_dir: Path) -> float | None:
    try:
        m = rundir.read_manifest(run_dir)
        t0 = time.mktime(time.strptime(m["started_utc"][:19], "%Y-%m-%dT%H:%M:%S"))
        t1 = time.mktime(time.strptime(m["ended_utc"][:19], "%Y-%m-%dT%H:%M:%S"))
        return max(0.0, t1 - t0)
    except (KeyError, TypeError, ValueError, OSError):
        return None


def plan(files: list[Path], raw: Path, repeat: int | None = None, rounds_plan: rounds.Plan | None = None) -> dict:
    """{"trials", "done", "todo": [Trial], "estimate_s", "per_trial_s": {key: s}, "plan"} — what a
    call would run (in the order of `rounds_plan`, default `make_plan` of a fresh state), and how
    long that should take (durations of done runs of the same experiment and engine, else
    DEFAULT_SECONDS)."""
    rp = rounds_plan or make_plan(files, raw, state=Path("/nonexistent"), repeat=repeat)
    trials = matrix.planned_trials(files, rp, validate=True)
    done = matrix.verified_runs(raw)
    seen: dict[tuple, list] = {}
    for t in trials:
        got = done.get(t.key)
        if got and t.realized_by(got[1]):
            s = _seconds(got[0])
            if s is not None:
                seen.setdefault((t.experiment, t.engine), []).append(s)
    todo = [t for t in trials if not (done.get(t.key) and t.realized_by(done[t.key][1]))]
    est = {t.key: (sum(seen[(t.experiment, t.engine)]) / len(seen[(t.experiment, t.engine)])
                   if (t.experiment, t.engine) in seen else DEFAULT_SECONDS.get(t.request.workload, 60))
           for t in todo}
    return {"trials": trials, "done": len(trials) - len(todo), "todo": todo, "per_trial_s": est,
            "estimate_s": sum(est.values()), "plan": rp}


def minutes(s: float) -> str:
    return f"{s / 60:.0f} min" if s >= 90 else f"{s:.0f} s"


# Each run first waits up to this long for a quiet machine (engbench.run.quiet; the findings' quiet
# gate judges the run's own window afterwards): shipped runs are measured with nothing else running.
# $ENGBENCH_WAIT_QUIET or `engbench reproduce --wait-quiet` sets it (0: no wait, as the tests do).
WAIT_QUIET_S = 300


def wait_quiet_default() -> float:
    return float(os.environ.get("ENGBENCH_WAIT_QUIET") or WAIT_QUIET_S)


DEVICE_LIMITS = ("memory_limit", "read_iops", "write_iops", "read_bps", "write_bps")  # tables.devices.device_key


def device_limit_sets(trials) -> list[dict]:
    """The distinct device limits (memory, IOPS and bytes/s throttles) the trials run under: each
    needs a calibration of the device under the same limits (tables.devices.device_key)."""
    out = []
    for t in trials:
        lim = limits.split(t.request.knobs)[0]
        d = {k: getattr(lim, k) for k in DEVICE_LIMITS if getattr(lim, k)}
        if d not in out:
            out.append(d)
    return sorted(out, key=lambda d: sorted(d.items()))


def calibrated(raw: Path, device_limits: dict) -> Path | None:
    """An ok calibration run in `raw` of this machine and data device under exactly these limits."""
    work = paths.work_dir()
    work.mkdir(parents=True, exist_ok=True)
    here = importer.machine_key(machine.hardware(work))
    for d in sorted(Path(raw).glob("*_calibrate_fio_*"), reverse=True):
        try:
            m = rundir.read_manifest(d)
        except (OSError, ValueError):
            continue
        rl = m.get("run_limits") or {}
        if (m.get("status") == "ok" and importer.machine_key(m.get("hardware") or {}) == here
                and all((rl.get(k) or None) == device_limits.get(k) for k in DEVICE_LIMITS)):
            return d
    return None


def calibrate_missing(trials, raw: Path, out=sys.stderr) -> list[Path]:
    """Calibrate the device (engbench calibrate) under every set of device limits the trials use and
    `raw` holds no calibration for yet: the runs' device use (runs.read_iops_use ...) and the paper's
    Device section compare each run with it. Returns the new calibration runs."""
    made = []
    for lim in device_limit_sets(trials):
        if calibrated(raw, lim):
            continue
        sets = [f"run.{k}={v}" for k, v in lim.items()]
        print(f"engbench reproduce: calibrating the device ({', '.join(sets) or 'no limits'})", file=out, flush=True)
        res = calibrate.calibrate(sets, out_dir=raw, argv=["engbench.reproduce", "calibrate", *sets])
        if res.status == "interrupted":  # a signal (passed on to fio, runs.Stopper): the user stops it all
            raise KeyboardInterrupt
        if res.status != "ok":
            raise RuntimeError(f"calibration {res.run_dir.name} ended {res.status}: {res.error}")
        made.append(res.run_dir)
    return made


_FINISHED = re.compile(r"Finished jobid: \d+ \(Rule: (\w+)\)")
_KEY = re.compile(r"wildcards: key=(\S+)")


def command(files: list[Path], repeat: int | None, paper: Path | None, state: Path | None,
            wait_quiet: float | None = None, plan_file: Path | None = None, targets: list | None = None) -> list[str]:
    wq = wait_quiet_default() if wait_quiet is None else wait_quiet
    cfg = [f"experiments={','.join(map(str, files))}", f"wait_quiet={wq:g}"]
    cfg += [f"plan={plan_file}"] if plan_file else []
    cfg += [f"repeat={repeat}"] if repeat is not None else []
    cfg += [f"paper={paper}"] if paper else []
    cfg += [f"state={state}"] if state else []
    return [sys.executable, "-m", "snakemake", "-s", str(SNAKEFILE), "--profile", str(PROFILE),
            *map(str, targets or []), "--config", *cfg]


def judged(processed: Path | None = None):
    """The findings table `engbench process` wrote (findings.csv of the processed directory)."""
    import pandas as pd
    return pd.read_csv(Path(processed or paths.processed_dir()) / "findings.csv")


def run(files: list[Path], repeat: int | None = None, paper: Path | None = None, state: Path | None = None,
        out=sys.stderr, wait_quiet: float | None = None, seed: int | None = None,
        extra: dict[str, int] | None = None, max_rounds: int = rounds.MAX_ROUNDS, more: bool = True,
        judge=judged, configs_of: dict | None = None) -> int:
    """Plan (the state's plan kept, else a new one: `make_plan`), write the plan before the first
    run, say what will run and for how long, run the workflow with a progress line per finished
    run, and return its exit status (2: refused, nothing run).

    With `more` (the default; `--no-extra-rounds` turns it off), the planned rounds are run and
    processed first, then the findings are judged (`judge()`: the findings.csv process wrote) and
    every group with a claim "inconclusive here" whose rounds_needed is within `max_rounds` gets
    rounds up to it (add_needed_rounds, recorded in the plan with the claims); those are run,
    processed and judged again, until no claim asks for more within the cap; then the paper.
    `configs_of` ({claim id: configurations}) defaults to the findings' picks (claim_configs)."""
    raw = paths.raw_dir()
    try:
        rp = make_plan(files, raw, state, repeat, seed, extra, max_rounds)
        p = plan(files, raw, repeat, rp)
    except (rounds.PlanError, params.ParamError) as exc:
        print(f"engbench reproduce: refused, nothing run: {exc}", file=out)
        return 2
    plan_file = plan_path(state)
    rp.write(plan_file)
    print(f"engbench reproduce: plan {plan_file}: {describe_plan(rp, files)}", file=out)
    print(f"engbench reproduce: {len(files)} experiment files, {len(p['trials'])} runs: {p['done']} already sealed "
          f"in {raw}, {len(p['todo'])} to run (estimated {minutes(p['estimate_s'])}), then process"
          + (", the findings (more rounds where a claim is inconclusive here, up to "
             f"{max_rounds})" if more else "") + " and the paper", file=out)
    try:
        calibrate_missing(p["trials"], raw, out)
    except (params.ParamError, RuntimeError) as exc:
        print(f"engbench reproduce: the device calibration failed: {exc}", file=out)
        return 1
    started = time.monotonic()

    def judge_first(p):  # the runs and process, not the paper: every marker asked for itself, as rule all
        # does (Snakemake takes a missing marker behind an up-to-date runs.parquet for nothing to do)
        markers = [matrix.marker_path(Path(state or paths.work_dir() / "workflow"), t.key) for t in p["trials"]]
        return [*markers, paths.processed_dir() / "runs.parquet"]
    rc = _workflow(command(files, repeat, paper, state, wait_quiet, plan_file, judge_first(p) if more else None), p, out)
    while rc == 0 and more:
        try:
            added = add_needed_rounds(rp, judge(), max_rounds, out, configs_of)
        except (OSError, ValueError, KeyError, rounds.PlanError) as exc:
            print(f"engbench reproduce: the findings could not be judged for more rounds ({exc}); the paper "
                  "without them", file=out)
            added = 0
        if added:
            rp.write(plan_file)
            p = plan(files, raw, repeat, rp)
            print(f"engbench reproduce: plan {plan_file}: {describe_plan(rp, files)}; {len(p['todo'])} more runs "
                  f"(estimated {minutes(p['estimate_s'])})", file=out)
        rc = _workflow(command(files, repeat, paper, state, wait_quiet, plan_file, judge_first(p) if added else None),
                       p, out)
        more = bool(added)
    if rc == 0:
        print(f"engbench reproduce: done in {minutes(time.monotonic() - started)}: "
              f"{paths.processed_dir() / 'findings.csv'}, {(paper or paths.REPO / 'paper') / 'build' / 'paper.html'}",
              file=out)
    return rc


def _workflow(cmd: list[str], p: dict, out) -> int:
    """Run one workflow call (`cmd`), a progress line per finished run of the plan `p`."""
    n, left = len(p["trials"]), dict(p["per_trial_s"])
    started, ran, current, expected = time.monotonic(), 0, None, 0.0
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    log = []
    try:
        for line in proc.stdout:
            log.append(line)
            m = _KEY.search(line)
            if m:
                current = m.group(1)
            m = _FINISHED.search(line)
            if m and m.group(1) == "run":
                ran += 1
                expected += left.pop(current, 0.0)
                # the remaining runs' expected durations, scaled by how this call's runs compared
                # with what was expected of them (a loaded machine runs everything slower)
                scale = (time.monotonic() - started) / expected if expected else 1.0
                print(f"engbench reproduce: [{p['done'] + ran}/{n}] {current} done; {len(left)} left, "
                      f"~{minutes(scale * sum(left.values()))}", file=out)
            elif m:
                print(f"engbench reproduce: {m.group(1)} done", file=out)
            elif "engbench workflow:" in line:  # "adopted N trial(s): key, key, ...": the count is enough
                print(f"engbench reproduce: {line.split(':', 2)[1].strip()}", file=out)
            elif "Error in rule" in line or "refused" in line:
                print(f"engbench reproduce: {line.rstrip()}", file=out)
        rc = proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        print("engbench reproduce: interrupted; sealed runs are kept, a second call runs what is missing",
              file=out)
        return 130
    if rc != 0:
        print("".join(log[-30:]), file=out, end="")
        print(f"engbench reproduce: the workflow ended with status {rc}; sealed runs are kept, a second call "
              "runs what is missing", file=out)
    return rc


__all__ = ["experiment_files", "interleaved_groups", "make_plan", "plan", "run", "command", "add_needed_rounds",
           "GROUPS"]
