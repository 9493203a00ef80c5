"""Seeded interleaved rounds (engbench.run.rounds.Plan, engbench.reproduce.make_plan; issue 44): the
plan is deterministic for a seed and differs across seeds, every round of a group runs each of its
configurations once, a plan read back (a resumed reproduction) keeps its seed and order, and rounds
added later leave the earlier rounds as they were. No runs: the tiny experiment files only plan."""

import json

import pytest

from engbench import reproduce
from engbench.rulebook.measure import Pick
from engbench.run import rounds
import workflow_run as wf

CONFIGS = [("x", e) for e in ("a", "b", "c", "d", "e", "f")]


def _plan(seed, n=3):
    p = rounds.Plan(seed)
    p.add_group("g", CONFIGS, n)
    return p


def test_the_order_is_the_seeds():
    assert _plan(11).schedule() == _plan(11).schedule()            # deterministic for a seed
    orders = {tuple(tuple(_plan(s).order("g", r)) for r in (1, 2, 3)) for s in range(8)}
    assert len(orders) == 8                                         # 6! orders: 8 seeds give 8 plans
    p = _plan(11, n=5)
    assert len({tuple(p.order("g", r)) for r in range(1, 6)}) > 1  # the rounds are not all one order
    sched = p.schedule()
    for r in range(1, 6):                                           # every round holds every configuration once
        mine = [(s["experiment"], s["engine"]) for s in sched if s["round"] == r]
        assert sorted(mine) == sorted(CONFIGS)
        assert [s["position"] for s in sched if s["round"] == r] == list(range(1, 7))
    assert [s["round"] for s in sched] == sorted(s["round"] for s in sched)  # round after round


def test_rounds_added_later_keep_the_earlier_ones(tmp_path):
    p = _plan(3)
    before = p.schedule()
    p.add_rounds("g", 2)
    assert p.schedule()[:len(before)] == [{**s, "rounds": 5} for s in before]
    assert max(s["round"] for s in p.schedule()) == 5
    with pytest.raises(rounds.PlanError, match="above the cap of 6"):
        p.add_rounds("g", 2, cap=6)
    p.write(tmp_path / "plan.json")
    assert rounds.read(tmp_path / "plan.json").schedule() == p.schedule()
    d = json.loads((tmp_path / "plan.json").read_text())           # the order is there for a reader,
    d["order"]["g"][0].reverse()                                   # and a hand-edited one is refused
    (tmp_path / "plan.json").write_text(json.dumps(d))
    with pytest.raises(rounds.PlanError, match="not the one its seed"):
        rounds.read(tmp_path / "plan.json")


def test_groups_are_the_configurations_claims_compare(tmp_path, monkeypatch):
    a = wf.write_experiment(tmp_path / "repro_ta.yaml", engines=("sqlite", "lmdb"))
    b = wf.write_experiment(tmp_path / "repro_tb.yaml", engines=("sqlite",))
    c = wf.write_experiment(tmp_path / "repro_tc.yaml", engines=("lmdb",))
    d = wf.write_experiment(tmp_path / "repro_td.yaml", engines=("lmdb",))

    class F:
        def __init__(self, *picks):
            self.picks = [Pick("l", e, eng, "q") for e, eng in picks]
    # repro_ta's engines run together (one file), a claim links repro_tb to it; repro_tc and
    # repro_td are compared by nothing: each is its own group (no `--only` group: the stem names it)
    got = reproduce.interleaved_groups([a, b, c, d], findings=[F(("repro_ta", "lmdb"), ("repro_tb", "sqlite"))])
    assert got == {"repro_ta": [("repro_ta", "sqlite"), ("repro_ta", "lmdb"), ("repro_tb", "sqlite")],
                   "repro_tc": [("repro_tc", "lmdb")], "repro_td": [("repro_td", "lmdb")]}


def test_the_shipped_groups_lie_inside_the_only_groups():
    files = reproduce.experiment_files()
    groups = reproduce.interleaved_groups(files)
    # every configuration of the reproduction in exactly one group, every group inside one --only group
    configs = [c for f in files for c in reproduce.file_configs(f)]
    assert sorted(c for v in groups.values() for c in v) == sorted(configs)
    for g, v in groups.items():
        assert {reproduce.only_group(reproduce.paths.REPO / "notebooks" / "params" / f"{e}.yaml") for e, _ in v} \
            == {g.split(".")[0]}, g
    # and every claim's configurations share one group
    from engbench.findings.catalog import FINDINGS
    where = {c: g for g, v in groups.items() for c in v}
    for fd in FINDINGS:
        assert len({where[(p.experiment, p.engine)] for p in fd.picks}) <= 1, fd.id  # (no picks: not tested)
    assert groups["iibench"] and groups["linkbench"] and "ycsb-rum.1" in groups


def test_a_resumed_plan_keeps_its_seed_order_and_rounds(tmp_path):
    exp = wf.write_experiment(tmp_path / "repro_tiny.yaml", engines=("sqlite", "lmdb", "wiredtiger"), repeat=2)
    raw, state = tmp_path / "raw", tmp_path / "state"
    first = reproduce.make_plan([exp], raw, state)
    first.write(reproduce.plan_path(state))                       # written before the first run ...
    again = reproduce.make_plan([exp], raw, state)                 # ... and a second call keeps it
    assert (again.seed, again.schedule()) == (first.seed, first.schedule())
    assert [t.key for t in reproduce.plan([exp], raw, rounds_plan=again)["todo"]] == \
        [f"repro_tiny.{s['engine']}.r{s['round']}" for s in first.schedule()]
    with pytest.raises(rounds.PlanError, match="keeps its seed"):
        reproduce.make_plan([exp], raw, state, seed=first.seed + 1)
    # "add K rounds to group G": idempotent (the same call again adds nothing), never fewer
    more = reproduce.make_plan([exp], raw, state, extra={"repro_tiny": 2})
    assert more.groups["repro_tiny"]["rounds"] == 4 and more.schedule()[:6] == \
        [{**s, "rounds": 4} for s in first.schedule()]
    more.write(reproduce.plan_path(state))
    assert reproduce.make_plan([exp], raw, state, extra={"repro_tiny": 2}).schedule() == more.schedule()
    assert reproduce.make_plan([exp], raw, state).groups["repro_tiny"]["rounds"] == 4
    with pytest.raises(rounds.PlanError, match="never taken away"):
        reproduce.make_plan([exp], raw, state, extra={"repro_tiny": 1})
    with pytest.raises(rounds.PlanError, match="no such group"):
        reproduce.make_plan([exp], raw, state, extra={"nope": 1})
    with pytest.raises(rounds.PlanError, match="runs in"):          # another raw directory: another plan
        reproduce.make_plan([exp], tmp_path / "other", state)
    # a new plan with a given seed is that seed's, whoever makes it
    assert reproduce.make_plan([exp], raw, tmp_path / "s2", seed=first.seed).schedule() == first.schedule()


def test_more_rounds_where_a_claim_is_inconclusive_within_the_cap(tmp_path):
    # issue 44 item 3: a pure function of a findings table and the plan; hand-computed
    import pandas as pd
    nan = float("nan")
    p = rounds.Plan(5)
    p.add_group("g1", [("x", "a"), ("x", "b")], 3)
    p.add_group("g2", [("y", "a"), ("y", "b")], 3)
    p.add_group("g3", [("z", "a"), ("z", "b")], 5)
    inc = "inconclusive here"
    frame = pd.DataFrame([
        {"id": "c1", "verdict": inc, "low": 0.9, "high": 1.7, "rounds_needed": 5.0},   # g1 -> 5
        {"id": "c2", "verdict": inc, "low": 1.1, "high": 2.2, "rounds_needed": 7.0},   # g1 -> 7 (the most)
        {"id": "c3", "verdict": inc, "low": 0.5, "high": 3.0, "rounds_needed": 12.0},  # above the cap of 10
        {"id": "c4", "verdict": "holds", "low": 2.0, "high": 3.0, "rounds_needed": nan},
        {"id": "c5", "verdict": inc, "low": 0.1, "high": 9.0, "rounds_needed": nan},   # no number would decide it
        {"id": "c6", "verdict": inc, "low": 0.9, "high": 1.2, "rounds_needed": 4.0},   # g3 has 5 already
        {"id": "c7", "verdict": inc, "low": 0.8, "high": 1.01, "rounds_needed": 4.0},  # g2 -> 4
        {"id": "c8", "verdict": inc, "low": 0.8, "high": 1.3, "rounds_needed": 6.0},   # in no group of the plan
        {"id": "c9", "verdict": "not testable", "low": nan, "high": nan, "rounds_needed": 4.0},
    ])
    configs = {"c1": [("x", "a"), ("x", "b")], "c2": [("x", "b"), ("x", "a")], "c3": [("x", "a"), ("x", "b")],
               "c4": [("x", "a")], "c5": [("y", "a"), ("y", "b")], "c6": [("z", "a"), ("z", "b")],
               "c7": [("y", "a"), ("y", "b")], "c8": [("w", "a")], "c9": [("y", "a")]}
    before = p.to_json()
    got = rounds.more_rounds(frame, p, 10, configs)
    assert p.to_json() == before                                   # pure: the plan unchanged
    assert got == {"g1": {"rounds": 7, "reasons": [
                       {"claim": "c1", "interval": [0.9, 1.7], "rounds_needed": 5},
                       {"claim": "c2", "interval": [1.1, 2.2], "rounds_needed": 7}]},
                   "g2": {"rounds": 4, "reasons": [{"claim": "c7", "interval": [0.8, 1.01], "rounds_needed": 4}]}}
    six = rounds.more_rounds(frame, p, 6, configs)                 # a cap of 6: c2 (7) left out, c1 (5) decides g1
    assert {g: (d["rounds"], [r["claim"] for r in d["reasons"]]) for g, d in six.items()} == \
        {"g1": (5, ["c1"]), "g2": (4, ["c7"])}
    assert rounds.more_rounds(frame.iloc[:0], p, 10, configs) == {}
    # applied: the plan records why, and the same decision again adds nothing (idempotent)
    for g, d in got.items():
        assert p.extend_to(g, d["rounds"], d["reasons"], cap=10) == d["rounds"] - 3
    assert (p.groups["g1"]["rounds"], p.groups["g2"]["rounds"], p.groups["g3"]["rounds"]) == (7, 4, 5)
    assert p.groups["g1"]["reasons"][1] == {"claim": "c2", "interval": [1.1, 2.2], "rounds_needed": 7,
                                            "from": 3, "to": 7}
    assert rounds.more_rounds(frame, p, 10, configs) == {}
    assert p.extend_to("g1", 7, got["g1"]["reasons"]) == 0 and len(p.groups["g1"]["reasons"]) == 2
    p.write(tmp_path / "plan.json")                                # and the reasons survive a resume
    assert rounds.read(tmp_path / "plan.json").groups["g1"]["reasons"] == p.groups["g1"]["reasons"]
    with pytest.raises(rounds.PlanError, match="above the cap"):
        p.extend_to("g3", 11, [], cap=10)
