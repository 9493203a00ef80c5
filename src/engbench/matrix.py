"""The experiment matrix: experiment YAMLs (notebooks/params/*.yaml) → the ordered list of
trials, and running one trial. A trial is one experiment file × engine × repetition, realized by
one run (not a *target*: that word names the server a run talks to, engbench.run.targets). The
Snakemake workflow (workflow/Snakefile) is made of trials, run in this order (`trials`); one
file's trials are in the order `experiments.run` uses (`interleave`).

A trial's identity is its key, `<experiment file stem>.<engine>.r<repetition>`, never the
timestamped name of the run directory that realizes it. Running a trial writes the key into the
run directory as `workflow.json` (with the fingerprint of the exact request: workload, engine,
parameters, knobs, seed) before the directory is sealed, so the raw directory alone says which
trials are done — also after runs were imported from other machines. A small marker file per
trial (`<state>/trials/<key>.json`, naming the run) is what Snakemake sees; `reconcile` rewrites
the markers from the raw directory: a marker whose run is gone, unsealed, tampered or not `ok` is
removed (the trial runs again), a verified run without a marker gets one (it is not run again).
A trial's run holds a machine-wide lock file (BENCH_LOCK), so runs never share a machine, even
when they come from two workflows.

    python -m engbench.matrix trials FILE.yaml ...               # the keys, in run order
    python -m engbench.matrix run FILE.yaml ENGINE REPETITION MARKER [--raw DIR] [--plan PLAN.json]

`engbench reproduce` orders its trials by a seeded plan instead (`planned_trials`,
engbench.run.rounds.Plan): each trial then carries its group, round and position, which its run's
manifest (`schedule`) and workflow.json record.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import paths, registry
from .run import driver, limits, params, rundir, runs
from .run import rounds
from .run.rounds import interleave

# One benchmark run per machine, across workflows and checkouts: a trial's run holds this lock
# (node-local: /run/lock is a tmpfs) for as long as its run lasts. ENGBENCH_BENCH_LOCK moves it.
BENCH_LOCK = "/run/lock/engbench-bench.lock" if os.path.isdir("/run/lock") else \
    os.path.join(tempfile.gettempdir(), "engbench-bench.lock")


@dataclass(frozen=True)
class Trial:
    experiment: str          # the experiment file's stem
    params_file: Path
    engine: str
    repetition: int
    request: params.RunRequest
    # its place in a reproduce plan (rounds.Plan.schedule: group, round, position, of, seed), or None
    schedule: dict | None = dataclasses.field(default=None, compare=False)

    @property
    def key(self) -> str:
        return f"{self.experiment}.{self.engine}.r{self.repetition}"

    @property
    def fingerprint(self) -> str:
        return _fingerprint(self.request)

    def realized_by(self, recorded: str) -> bool:
        """A run whose workflow.json records the fingerprint `recorded` realizes this trial: the
        request's fingerprint, or the one it had before its workload's parameters were renamed
        (Workload.renamed: a rename changes no run, so the runs recorded under the old names stay
        done; tests/test_shipped.py)."""
        then = registry.params_then(registry.get(self.request.workload), self.request.params)
        return recorded in (self.fingerprint, _fingerprint(dataclasses.replace(self.request, params=then)))


def _fingerprint(request: params.RunRequest) -> str:
    blob = json.dumps(dataclasses.asdict(request), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def experiment_trials(params_file: Path, engines: list[str] | None = None, repeat: int | None = None) -> list[Trial]:
    """One experiment file's trials in run order; `engines` replaces the file's engine list and
    `repeat` its number of repetitions."""
    params_file = Path(params_file)
    data = params.load_file(params_file)
    workload = data.get("workload")
    if not workload:
        raise params.ParamError(f"{params_file}: no `workload`: a matrix needs it to know what to run")
    engines = list(engines or data.get("engines") or ([data["engine"]] if data.get("engine") else []))
    if not engines:
        raise params.ParamError(f"{params_file}: no `engines` (and none given)")
    try:
        rounds = interleave(engines, int(repeat if repeat is not None else data.get("repeat", 1)))
    except ValueError as exc:
        raise params.ParamError(f"{params_file}: {exc}") from None
    return [Trial(params_file.stem, params_file, engine, rep, params.resolve(workload, engine, params_file=params_file))
            for rep, engine in rounds]


def trials(files: list[Path], engines: list[str] | None = None, validate: bool = True,
           repeat: int | None = None) -> list[Trial]:
    """Every experiment's trials in run order (tests/test_workflow.py, tests/test_reproduce.py):

    - the files of one workload form a group (a reproduction group: engbench.reproduce.GROUPS is
      one per workload), and the groups run one after another, in the order their first file is given;
    - within a group, round after round: repetition 1 of every file of the group (file after file,
      each file's engines in its own order), then repetition 2, ...

    So a configuration's (file x engine) repetitions are one round of its group apart: at most as
    many trials as the group has configurations (ycsb-rum's 15 in the reproduction; a few minutes,
    where round after round across all the files put them a whole third of the reproduction apart,
    ~26 min, and the machine's drift over that showed as spread between repetitions). And the
    configurations a claim compares (a cache size, a setting per file: always within one group)
    still share the machine's drift, round by round, as the engines of one file do. With
    `validate`, the driver checks every request first (as `experiments.run` does), and the run
    limits are checked against the engine caches, so a typo or a limit that cannot hold surfaces
    before the first run."""
    per_file = [experiment_trials(f, engines, repeat) for f in files]
    groups: dict[str, list[int]] = {}
    for i, ts in enumerate(per_file):
        groups.setdefault(ts[0].request.workload, []).append(i)
    out = [t for idx in groups.values()  # stable: a file's own order kept within a repetition
           for _, _, t in sorted(((t.repetition, i, t) for i in idx for t in per_file[i]), key=lambda x: x[:2])]
    seen: dict[str, Path] = {}
    for t in out:
        if t.key in seen:
            raise params.ParamError(f"trial {t.key} comes from both {seen[t.key]} and {t.params_file}: "
                                    "experiment files need distinct names")
        seen[t.key] = t.params_file
    if validate:
        _validate(out)
    return out


def _validate(ts: list[Trial]) -> None:
    """The driver's checks, then the run limits' (an engine cache the limit cannot hold), once per
    configuration (file x engine)."""
    for t in {(t.experiment, t.engine): t for t in ts}.values():
        try:
            resolved = driver.validate(t.request.config(Path("/nonexistent/data"), Path("/nonexistent/out")))
            limits.check_fit(limits.split(t.request.knobs)[0], t.engine, resolved.get("knobs"))
        except (driver.InvalidConfig, params.ParamError) as exc:
            raise params.ParamError(f"{t.params_file} on {t.engine}: {exc}") from None


def planned_trials(files: list[Path], plan: rounds.Plan, validate: bool = True) -> list[Trial]:
    """The trials of `files` in the order of a reproduce plan (rounds.Plan.schedule: group after
    group, round after round, each round in its seeded order); a trial's repetition is its round,
    and it carries its place in the plan (Trial.schedule, written into its run's manifest).
    Configurations of the plan whose file is not among `files` are left out (`--only`); a
    configuration of `files` the plan lacks is refused."""
    by_stem = {Path(f).stem: Path(f) for f in files}
    base = {}  # (experiment, engine) -> the repetition-1 trial (one request resolved per configuration)
    for f in by_stem.values():
        for t in experiment_trials(f, repeat=1):
            base[(t.experiment, t.engine)] = t
    missing = [k for k in base if plan.group_of(*k) is None]
    if missing:
        raise params.ParamError(f"{missing[0][0]} on {missing[0][1]} is in no group of the reproduce plan: "
                                "start a fresh plan")
    out = [dataclasses.replace(base[(s["experiment"], s["engine"])], repetition=s["round"], schedule=s)
           for s in plan.schedule() if (s["experiment"], s["engine"]) in base]
    if validate:
        _validate(out)
    return out


def verified_runs(raw: Path) -> dict[str, tuple[Path, str]]:
    """key → (run directory, fingerprint) of every workflow run under `raw` that is `ok`, sealed and
    intact; the newest when a key was run more than once."""
    out = {}
    for d in rundir.runs_in(raw):
        record = d / rundir.WORKFLOW_RECORD
        if not record.is_file() or rundir.read_manifest(d).get("status") != "ok" or rundir.check(d):
            continue
        info = json.loads(record.read_text())
        out[info["key"]] = (d, info["fingerprint"])
    return out


MARKERS = "trials"  # <state>/trials/<key>.json
# A state directory from before the rename (issue 29: the workflow's `target` became `trial`) has
# its markers in <state>/targets/. Nothing reads them: reconcile writes <state>/trials/ from the raw
# directory as for a fresh state (a verified run gets its marker again and is not run again) and
# deletes the stale markers (files that read as one), then the folder if that leaves it empty.
OLD_MARKERS = "targets"


def marker_path(state: Path, key: str) -> Path:
    return Path(state) / MARKERS / f"{key}.json"


def _write_marker(path: Path, trial: Trial, run_dir: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"key": trial.key, "fingerprint": trial.fingerprint,
                               "run_id": Path(run_dir).name}, indent=1) + "\n")
    os.replace(tmp, path)


def _drop_old_markers(state: Path) -> None:
    old = state / OLD_MARKERS
    if not old.is_dir():
        return
    for f in old.glob("*.json"):
        try:
            rec = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(rec, dict) and {"key", "fingerprint", "run_id"} <= rec.keys():
            f.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        old.rmdir()  # only when empty: anything else in it is not ours


def reconcile(all_trials: list[Trial], raw: Path, state: Path) -> dict[str, list[str]]:
    """Make the markers say what the raw directory holds (see the module's docstring). A marker
    that already names the right run is left alone (its time stamp is what Snakemake compares).
    A pre-rename <state>/targets/ folder's markers are deleted (OLD_MARKERS): the trials' markers
    are written under <state>/trials/ from the raw directory, as for a fresh state."""
    _drop_old_markers(Path(state))
    done = verified_runs(raw)
    changes = {"adopted": [], "dropped": []}
    for t in all_trials:
        marker = marker_path(state, t.key)
        run = done.get(t.key)
        if run and t.realized_by(run[1]):
            try:
                current = json.loads(marker.read_text())
            except (OSError, ValueError):
                current = {}
            if current.get("run_id") != run[0].name or current.get("fingerprint") != t.fingerprint:
                _write_marker(marker, t, run[0])
                changes["adopted"].append(t.key)
        elif marker.exists():
            marker.unlink()
            changes["dropped"].append(t.key)
    return changes


@contextlib.contextmanager
def machine_lock(log=lambda msg: print(msg, file=sys.stderr)):
    """Hold the machine-wide benchmark lock (waiting for it, and saying so, if another run has it)."""
    path = os.environ.get("ENGBENCH_BENCH_LOCK", BENCH_LOCK)
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"engbench.matrix: waiting for {path}: another benchmark run holds this machine")
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def run_trial(trial: Trial, raw: Path, marker: Path, show_progress: bool = False,
              wait_quiet_s: float = 0) -> Path:
    """Run one trial into `raw`, holding the machine lock: an ordinary `engbench run`, whose
    directory gets workflow.json before it is sealed; the marker is written only for an `ok` run.
    Returns the run directory."""
    record = {"key": trial.key, "experiment": trial.experiment, "experiment_file": str(trial.params_file),
              "engine": trial.engine, "repetition": trial.repetition, "fingerprint": trial.fingerprint}
    if trial.schedule:
        record["schedule"] = trial.schedule
    with machine_lock(), tempfile.TemporaryDirectory(prefix="engbench-trial-") as tmp:
        listing = Path(tmp) / "runs.txt"
        listing.touch()
        outer = os.environ.get(runs.SEAL_LATER_ENV)
        os.environ[runs.SEAL_LATER_ENV] = str(listing)
        result = None
        try:
            result = runs.execute(trial.request, out_dir=raw, show_progress=show_progress,
                                  experiment=params.description(trial.params_file), wait_quiet_s=wait_quiet_s,
                                  schedule=trial.schedule,
                                  argv=["engbench.matrix", "run", trial.key])
        finally:
            if outer is None:
                del os.environ[runs.SEAL_LATER_ENV]
            else:
                os.environ[runs.SEAL_LATER_ENV] = outer
            # a signal now would leave an unsealed directory: hold signals until the seal is on
            held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            try:
                for line in listing.read_text().splitlines():
                    (Path(line) / rundir.WORKFLOW_RECORD).write_text(json.dumps(record, indent=1) + "\n")
                    rundir.seal(Path(line))
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
    if result.status != "ok":
        raise RuntimeError(f"{trial.key}: run {result.run_dir.name} ended {result.status}: {result.error}")
    _write_marker(Path(marker), trial, result.run_dir)
    return result.run_dir


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engbench.matrix", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("trials", help="list the trials' keys in run order")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--engines", help="comma-separated engines replacing each file's list")
    p = sub.add_parser("run", help="run one trial and write its marker")
    p.add_argument("file", type=Path)
    p.add_argument("engine")
    p.add_argument("repetition", type=int)
    p.add_argument("marker", type=Path)
    p.add_argument("--raw", type=Path, default=None, help="default data/raw or ENGBENCH_RAW_DIR")
    p.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                   help="wait for a quiet machine first (engbench.run.quiet)")
    p.add_argument("--plan", type=Path, default=None, metavar="PLAN.json",
                   help="a reproduce plan (engbench.run.rounds): the run's manifest records its round and position")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "trials":
            for t in trials(args.files, args.engines.split(",") if args.engines else None):
                print(t.key)
            return 0
        match = [t for t in experiment_trials(args.file, [args.engine], repeat=args.repetition) if t.repetition == args.repetition]
        if not match:
            raise params.ParamError(f"{args.file} has no repetition {args.repetition}")
        if args.plan:
            plan = rounds.read(args.plan)
            if plan is None:
                raise params.ParamError(f"--plan {args.plan}: no such file")
            where = [s for s in plan.schedule() if (s["experiment"], s["engine"], s["round"])
                     == (match[0].experiment, args.engine, args.repetition)]
            if not where:
                raise params.ParamError(f"{match[0].key} is not in the plan {args.plan}")
            match[0] = dataclasses.replace(match[0], schedule=where[0])
        print(run_trial(match[0], args.raw or paths.raw_dir(), args.marker, wait_quiet_s=args.wait_quiet))
        return 0
    except (params.ParamError, driver.InvalidConfig, rounds.PlanError) as exc:
        print(f"engbench.matrix: refused, nothing written: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(f"engbench.matrix: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
