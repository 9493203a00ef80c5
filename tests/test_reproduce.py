"""`engbench reproduce` (src/engbench/reproduce/): the real workflow on a tiny matrix in a scratch
area, through reproduce.run — progress and the time left, then a second call that runs nothing,
then one run deleted and only it runs again — and its refusals."""

import io
import math
import shutil
import subprocess
import sys

import pytest

from engbench import reproduce
from engbench.run import params
import workflow_run as wf
from conftest import WORKFLOW

pytestmark = WORKFLOW


@pytest.fixture
def area(tmp_path, monkeypatch):
    for k, v in wf.env(tmp_path, {}).items():
        monkeypatch.setenv(k, v)
    return tmp_path


def _writable(path):
    subprocess.run(["chmod", "-R", "u+w", str(path)], check=True)


def test_reproduce_runs_reports_progress_and_resumes(area):
    exp = wf.write_experiment(area / "repro_tiny.yaml")
    kw = {"paper": area / "paper", "state": area / "state"}
    out = io.StringIO()
    assert reproduce.run([exp], **kw, out=out) == 0, out.getvalue()
    text = out.getvalue()
    assert "4 runs: 0 already sealed" in text and "4 to run (estimated" in text
    # the plan, written before the first run: seeded interleaved rounds (issue 44), its seed printed
    plan_file = area / "state" / "plan.json"
    plan = reproduce.rounds.read(plan_file)
    order = [f"repro_tiny.{s['engine']}.r{s['round']}" for s in plan.schedule()]
    assert f"order seed {plan.seed}" in text and sorted(order) == sorted(wf_order("repro_tiny"))
    assert f"[1/4] {order[0]} done; 3 left, ~" in text
    assert f"[4/4] {order[3]} done; 0 left" in text
    assert (area / "processed" / "findings.csv").is_file() and (area / "paper" / "build" / "paper.html").is_file()
    # the device it ran against is calibrated first, under the runs' device limits (none here), once
    assert "calibrating the device (no limits)" in text
    cals = sorted((area / "raw").glob("*_calibrate_fio_*"))
    assert len(cals) == 1 and reproduce.calibrated(area / "raw", {}) == cals[0]
    import pandas as pd
    assert len(pd.read_csv(area / "processed" / "devices.csv")) == 1
    runs = wf.workflow_runs(area / "raw")
    assert sorted(runs) == sorted(wf_order("repro_tiny"))
    # run in the plan's order, each manifest saying its round and its position in the round
    assert sorted(runs, key=lambda k: runs[k][0]["started_utc"]) == order
    for s in plan.schedule():
        got = runs[f"repro_tiny.{s['engine']}.r{s['round']}"][0]["schedule"]
        assert (got["group"], got["round"], got["position"], got["of"], got["seed"]) == \
            ("repro_tiny", s["round"], s["position"], 2, plan.seed)
    saved = plan_file.read_text()

    out = io.StringIO()                                   # again: nothing left to run
    assert reproduce.run([exp], **kw, out=out) == 0
    assert "4 already sealed" in out.getvalue() and "0 to run" in out.getvalue()
    assert "calibrating" not in out.getvalue() and len(list((area / "raw").glob("*_calibrate_fio_*"))) == 1
    assert "] repro_tiny" not in out.getvalue()
    assert wf.workflow_runs(area / "raw") == runs
    assert plan_file.read_text() == saved                 # the plan kept: same seed, same order

    gone = runs["repro_tiny.lmdb.r1"][0]["run_id"]        # one run lost: only it runs again
    _writable(area / "raw" / gone)
    shutil.rmtree(area / "raw" / gone)
    out = io.StringIO()
    assert reproduce.run([exp], **kw, out=out) == 0
    assert "3 already sealed" in out.getvalue() and "[4/4] repro_tiny.lmdb.r1 done" in out.getvalue()
    again = wf.workflow_runs(area / "raw")
    assert {k: v for k, v in again.items() if k != "repro_tiny.lmdb.r1"} == \
        {k: v for k, v in runs.items() if k != "repro_tiny.lmdb.r1"}
    # the estimate of a run already measured is that run's own duration, not the default
    assert plan_file.read_text() == saved
    plan = reproduce.plan([exp], area / "raw", repeat=3)
    assert sorted(t.key for t in plan["todo"]) == ["repro_tiny.lmdb.r3", "repro_tiny.sqlite.r3"]
    assert all(s < reproduce.DEFAULT_SECONDS["iibench"] for s in plan["per_trial_s"].values())


def wf_order(stem):
    return [f"{stem}.{e}.r{r}" for r in (1, 2) for e in ("sqlite", "lmdb")]


def test_the_reproduction_files_and_groups():
    files = reproduce.experiment_files()
    assert len(files) >= 14 and all(f.stem.startswith("repro_") for f in files)
    assert [f.stem for f in reproduce.experiment_files(["004"])] == \
        ["repro_cache_pollution_read_once_false", "repro_cache_pollution_read_once_true"]
    assert reproduce.experiment_files(["iibench"]) == [f for f in files if "iibench" in f.stem]
    rum = [f for f in files if f.stem.startswith("repro_ycsb_rum_")]
    assert len(rum) == 3 and reproduce.experiment_files(["ycsb-rum"]) == reproduce.experiment_files(["rum"]) == rum
    with pytest.raises(params.ParamError, match="valid: iibench"):
        reproduce.experiment_files(["ycsb"])
    # every file is a matrix whose trials validate (caches fit under their memory limits), and
    # every experiment has the 3 repeats a finding needs
    trials = reproduce.plan(files, reproduce.paths.REPO / "nonexistent-raw")["trials"]
    assert {t.repetition for t in trials} == {1, 2, 3}


# Repetitions of one configuration (file x engine) less than two rounds of its interleaved group
# apart (a round's order is drawn: first in one round, last in the next), and at most 2 x ROUND_S
# of estimated wall time (reproduce.DEFAULT_SECONDS) apart. ROUND_S is a third of a group's 45-min
# budget (issue 26: each group <= 45 min with 3 repetitions). The quiet reproduction of 2026-11-26,
# ordered round after round across all 22 files, had repetitions 46 runs (~26 min) apart, and its
# throughput drifted with them (0.95, 1.02, 1.06 of each configuration's median by repetition).
ROUND_S = 15 * 60


def test_repetitions_of_a_configuration_run_close_together():
    files = reproduce.experiment_files()
    trials = reproduce.plan(files, reproduce.paths.REPO / "nonexistent-raw")["trials"]
    seconds = [reproduce.DEFAULT_SECONDS.get(t.request.workload, 60) for t in trials]
    where: dict[tuple, list[int]] = {}
    for i, t in enumerate(trials):
        where.setdefault((t.experiment, t.engine), []).append(i)
    assert len(where) == len(trials) // 3 and all(len(v) == 3 for v in where.values())
    for config, places in where.items():
        assert [trials[i].repetition for i in places] == [1, 2, 3], config  # in order
        size = trials[places[0]].schedule["of"]
        for a, b in zip(places, places[1:]):
            assert b - a < 2 * size, f"{config}: repetitions {b - a} runs apart"
            assert sum(seconds[a:b]) <= 2 * ROUND_S, f"{config}: repetitions ~{sum(seconds[a:b]) / 60:.0f} min apart"
    # the groups run one after another, each whole: a claim's configurations share its rounds
    groups = [t.request.workload for t in trials]
    assert [g for i, g in enumerate(groups) if i == 0 or g != groups[i - 1]] == list(dict.fromkeys(groups))
    # and the configurations a claim compares (an interleaved group) interleave: every round of a
    # group holds each of its configurations once
    for g in dict.fromkeys(t.schedule["group"] for t in trials):
        mine = [t for t in trials if t.schedule["group"] == g]
        n = len(mine) // 3
        for r in range(3):
            assert {t.repetition for t in mine[r * n:(r + 1) * n]} == {r + 1}, g
            assert len({(t.experiment, t.engine) for t in mine[r * n:(r + 1) * n]}) == n, g


def test_cli_refuses_before_running_anything(tmp_path):
    run = lambda *a: subprocess.run([sys.executable, "-m", "engbench.cli", "reproduce", *a],  # noqa: E731
                                    capture_output=True, text=True,
                                    env={**wf.env(tmp_path), "PATH": "/usr/bin:/bin"})
    for args, needle in ((["--only", "nope"], "no such experiment"), (["--repeat", "0"], "--repeat must be >= 1")):
        out = run(*args)
        assert out.returncode == 2 and needle in out.stderr and "nothing run" in out.stderr
    assert not (tmp_path / "raw").exists()
    out = run("--plan", "--only", "bulk-insert")
    n = 3 * len(reproduce.experiment_files(["bulk-insert"]))  # one engine, 3 repetitions per file
    assert out.returncode == 0 and f"{n} runs, 0 sealed, {n} to run" in out.stderr
    assert len(out.stdout.splitlines()) == n


def test_into_a_fresh_directory_re_measures_everything(tmp_path):
    # the shipped data/raw holds the whole reproduction, sealed: a plain call would run nothing;
    # --into plans every run again, in a directory of its own
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "reproduce", "--plan", "--only", "004",
                          "--into", str(tmp_path / "mine")], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "6 runs, 0 sealed, 6 to run" in out.stderr
    assert not (tmp_path / "mine").exists()  # a plan writes nothing


def test_more_rounds_where_a_claim_is_inconclusive(area):
    # issue 44 item 3, end to end on real tiny runs: the decision is controlled by a made-up findings
    # frame (a claim comparing the tiny file's two engines, inconclusive here, 3 rounds would decide
    # it), whose `rounds` are what findings.csv's would be: a real rule's (rules.columns) on the
    # processed tables each time it is judged
    from engbench.rulebook import measure, rules
    from engbench.tables.processed import load_processed
    import pandas as pd
    exp = wf.write_experiment(area / "repro_tiny.yaml")            # 2 engines, 2 rounds planned
    seen = []

    def judge():
        tables = load_processed(area / "processed")
        got = measure.samples(tables, [measure.Pick(e, "repro_tiny", e, "q") for e in ("sqlite", "lmdb")])
        n = rules.columns(rules.greater(got, "sqlite", "lmdb"))["rounds"]
        seen.append(n)
        return pd.DataFrame([{"id": "tiny-claim", "verdict": "inconclusive here", "low": 0.9, "high": 1.4,
                              "rounds": n, "rounds_needed": 3.0}])
    configs = {"tiny-claim": [("repro_tiny", "sqlite"), ("repro_tiny", "lmdb")]}
    out = io.StringIO()
    kw = {"paper": area / "paper", "state": area / "state", "judge": judge, "configs_of": configs}
    assert reproduce.run([exp], **kw, out=out) == 0, out.getvalue()
    text = out.getvalue()
    # judged after 2 rounds (fewer than rules.MIN_REPEATS: the rule compares nothing, findings.csv's
    # rounds blank), then after the 3rd: 3 repetitions a side
    assert len(seen) == 2 and math.isnan(seen[0]) and seen[1] == 3
    assert "group repro_tiny: 1 more rounds (3 in all, cap 10) for tiny-claim [0.9, 1.4], n=3 would decide" in text
    assert "[6/6] repro_tiny." in text and (area / "paper" / "build" / "paper.html").is_file()
    plan = reproduce.rounds.read(area / "state" / "plan.json")
    assert plan.groups["repro_tiny"]["rounds"] == 3
    assert plan.groups["repro_tiny"]["reasons"] == [{"claim": "tiny-claim", "interval": [0.9, 1.4],
                                                     "rounds_needed": 3, "from": 2, "to": 3}]
    runs = wf.workflow_runs(area / "raw")
    assert sorted(runs) == sorted(f"repro_tiny.{e}.r{r}" for r in (1, 2, 3) for e in ("sqlite", "lmdb"))
    assert {runs[f"repro_tiny.{e}.r3"][0]["schedule"]["round"] for e in ("sqlite", "lmdb")} == {3}
    assert pd.read_csv(area / "processed" / "findings.csv").shape[0] > 0   # the real findings were judged too
    # again: nothing to add, nothing to run; --no-extra-rounds (more=False) never judges
    out = io.StringIO()
    assert reproduce.run([exp], **kw, out=out) == 0 and "0 to run" in out.getvalue() and seen[2:] == [3]
    assert reproduce.run([exp], **kw, more=False, out=io.StringIO()) == 0 and len(seen) == 3
    assert reproduce.rounds.read(area / "state" / "plan.json").groups["repro_tiny"]["rounds"] == 3
