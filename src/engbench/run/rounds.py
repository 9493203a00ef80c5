"""The order of repeated runs, shared by `experiments.run` and the workflow (engbench.matrix).

Two orders:

- `interleave(items, repeat)`: a fixed order, round after round (experiments.run, matrix.trials).
- `Plan`: randomized interleaved rounds (`engbench reproduce`; issue 44; Abedi & Brecht, ICPE 2017,
  "randomized multiple interleaved trials"). Configurations (experiment file stem, engine) are
  cut into groups; group g runs `rounds[g]` rounds, and round r runs every configuration of g
  once, in the order

      order(g, r) = configs[g] permuted by numpy.random.default_rng([seed, r, crc32(g)])

  so a slow spell of the machine falls on every side of a comparison alike. A round's order
  depends only on the seed, the group's name and configurations, and the round number: rounds
  added later (`add_rounds`) leave every earlier round's order as it was, and a plan read back
  from its file (PLAN_FILE, written before the first run) gives the same order again.

Enough rounds where it matters (issue 44 item 3; `more_rounds`, a pure function of the findings
table and the plan): a group gets rounds up to the largest `rounds_needed` of its claims judged
"inconclusive here" whose `rounds_needed` is within the cap; each such claim is recorded in the
group's `reasons` (claim, interval, rounds_needed, rounds before and after), and a claim above the
cap, or with no `rounds_needed`, adds nothing. Never fewer rounds than planned.
"""

from __future__ import annotations

import json
import os
import secrets
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import verdicts

PLAN_FILE = "plan.json"  # in the reproduce state directory
MAX_ROUNDS = 10          # a group's rounds, extra rounds included, unless the caller sets another cap


def interleave(items: list, repeat: int) -> list[tuple[int, object]]:
    """(repetition, item) in run order: round after round, each round runs every item once, so
    slow drift of a shared machine spreads over all items rather than landing on one."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    return [(rep, item) for rep in range(1, repeat + 1) for item in items]


class PlanError(ValueError):
    """A plan that cannot be made or extended as asked (the message says what to do)."""


def new_seed() -> int:
    return secrets.randbits(32)


@dataclass
class Plan:
    seed: int
    # group name -> {"configs": [[experiment, engine], ...] (canonical order), "rounds": n,
    #                "reasons": [{claim, interval, rounds_needed, from, to}, ...] (rounds added for claims)}
    groups: dict[str, dict] = field(default_factory=dict)
    raw: str | None = None  # the raw directory the plan's runs go to

    def order(self, group: str, rnd: int) -> list[tuple[str, str]]:
        """The configurations of `group` in the order round `rnd` runs them."""
        configs = [tuple(c) for c in self.groups[group]["configs"]]
        rng = np.random.default_rng([self.seed, rnd, zlib.crc32(group.encode())])
        return [configs[i] for i in rng.permutation(len(configs))]

    def schedule(self) -> list[dict]:
        """Every planned run in run order: group after group (the plan's order), round after round,
        each round in its drawn order; each {group, round, rounds, position (1-based), of, seed,
        experiment, engine}."""
        out = []
        for g, spec in self.groups.items():
            n = len(spec["configs"])
            for r in range(1, spec["rounds"] + 1):
                out += [{"group": g, "round": r, "rounds": spec["rounds"], "position": i, "of": n,
                         "seed": self.seed, "experiment": e, "engine": eng}
                        for i, (e, eng) in enumerate(self.order(g, r), 1)]
        return out

    def group_of(self, experiment: str, engine: str) -> str | None:
        return next((g for g, s in self.groups.items() if [experiment, engine] in map(list, s["configs"])), None)

    def add_group(self, name: str, configs: list[tuple[str, str]], rounds: int, cap: int = MAX_ROUNDS) -> None:
        """A new group, or the same group again (its configurations must match the plan's)."""
        configs = [list(c) for c in configs]
        if name in self.groups:
            if self.groups[name]["configs"] != configs:
                raise PlanError(f"group {name!r} of the plan holds {self.groups[name]['configs']}, this call's "
                                f"{configs}: the claims or files changed since the plan was made; start a fresh "
                                "plan (delete the plan file, or reproduce --into a new directory)")
            if rounds > self.groups[name]["rounds"]:
                self.add_rounds(name, rounds - self.groups[name]["rounds"], cap)
            return
        taken = {tuple(c): g for g, s in self.groups.items() for c in s["configs"]}
        clash = [c for c in configs if tuple(c) in taken]
        if clash:
            raise PlanError(f"{clash[0]} is already in the plan's group {taken[tuple(clash[0])]!r}: the claims or "
                            "files changed since the plan was made; start a fresh plan")
        _check_rounds(name, rounds, cap)
        self.groups[name] = {"configs": configs, "rounds": rounds}

    def add_rounds(self, group: str, k: int, cap: int = MAX_ROUNDS) -> None:
        """Round `rounds+1` ... `rounds+k` for `group`; refused above `cap` rounds in all."""
        if group not in self.groups:
            raise PlanError(f"no group {group!r} in the plan; its groups: {', '.join(self.groups)}")
        if k < 0:
            raise PlanError(f"rounds to add to {group!r} must be >= 0, got {k}")
        _check_rounds(group, self.groups[group]["rounds"] + k, cap)
        self.groups[group]["rounds"] += k

    def extend_to(self, group: str, rounds: int, reasons: list[dict] = (), cap: int = MAX_ROUNDS) -> int:
        """Give `group` `rounds` rounds in all when it has fewer (idempotent: the same call again
        adds nothing, and a call asking fewer adds nothing), recording `reasons` (each with `from`
        and `to` filled in) when it adds; returns the rounds added."""
        if group not in self.groups:
            raise PlanError(f"no group {group!r} in the plan; its groups: {', '.join(self.groups)}")
        have = self.groups[group]["rounds"]
        if rounds <= have:
            return 0
        self.add_rounds(group, rounds - have, cap)
        self.groups[group].setdefault("reasons", []).extend({**r, "from": have, "to": rounds} for r in reasons)
        return rounds - have

    def to_json(self) -> dict:
        return {"seed": self.seed, "raw": self.raw, "groups": self.groups,
                # for a reader: each round's run order, "<experiment>.<engine>" (the trial key without the round)
                "order": {g: [[f"{e}.{eng}" for e, eng in self.order(g, r)] for r in range(1, s["rounds"] + 1)]
                          for g, s in self.groups.items()}}

    def write(self, path: Path) -> None:
        """Atomically (a reader never sees half a plan)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        d = self.to_json()
        text = json.dumps({k: v for k, v in d.items() if k not in ("groups", "order")}, indent=1)[:-2]
        parts = [f' "groups": {{\n' + ",\n".join(f"  {json.dumps(g)}: {json.dumps(s)}" for g, s in d["groups"].items())
                 + "\n }", ' "order": {\n' + ",\n".join(
                     f"  {json.dumps(g)}: [\n" + ",\n".join(f"   {json.dumps(r)}" for r in rs) + "\n  ]"
                     for g, rs in d["order"].items()) + "\n }"]
        tmp.write_text(text + ",\n" + ",\n".join(parts) + "\n}\n")  # one line per group and per round
        os.replace(tmp, path)


def _check_rounds(group: str, rounds: int, cap: int) -> None:
    if rounds < 1:
        raise PlanError(f"group {group!r}: rounds must be >= 1, got {rounds}")
    if rounds > cap:
        raise PlanError(f"group {group!r}: {rounds} rounds is above the cap of {cap}; raise the cap (--max-rounds) "
                        "or add fewer rounds")


def read(path: Path) -> Plan | None:
    """The plan in `path`, or None when there is none. Its recorded order must be the one its seed
    gives (a hand-edited order is refused, not silently replaced)."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        d = json.loads(path.read_text())
        p = Plan(int(d["seed"]), {g: {"configs": [list(c) for c in s["configs"]], "rounds": int(s["rounds"]),
                                      **({"reasons": list(s["reasons"])} if s.get("reasons") else {})}
                                  for g, s in d["groups"].items()}, d.get("raw"))
    except (ValueError, KeyError, TypeError) as exc:
        raise PlanError(f"{path} is not a reproduce plan ({exc}); delete it to start a fresh plan") from None
    if "order" in d and d["order"] != p.to_json()["order"]:
        raise PlanError(f"{path}: its recorded order is not the one its seed {p.seed} gives; delete it to start a "
                        "fresh plan")
    return p


def _number(x) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if x == x else None


def more_rounds(findings, plan: Plan, cap: int, configs_of: dict) -> dict[str, dict]:
    """{group: {"rounds": r, "reasons": [...]}} for the groups of `plan` that need more rounds,
    from `findings` (rows with id, verdict, low, high, rounds_needed: findings.csv's columns) and
    `configs_of` ({claim id: [(experiment, engine), ...]}: the configurations it compares). A
    claim counts when its verdict is "inconclusive here" (verdicts.INCONCLUSIVE), its rounds_needed
    n is a number with n <= `cap`, and its configurations lie in one group of the plan with fewer
    than n rounds; r is the largest such n of the group, each such claim a reason
    {claim, interval: [low, high], rounds_needed: n}. Pure: reads nothing else, changes nothing."""
    out: dict[str, dict] = {}
    rows = findings.to_dict("records") if hasattr(findings, "to_dict") else list(findings)
    for row in rows:
        if row.get("verdict") != verdicts.INCONCLUSIVE:
            continue
        need = _number(row.get("rounds_needed"))
        if need is None or need > cap:
            continue
        groups = {plan.group_of(e, eng) for e, eng in configs_of.get(row["id"], ())}
        if len(groups) != 1 or None in groups:
            continue
        g = groups.pop()
        if int(need) <= plan.groups[g]["rounds"]:
            continue
        entry = out.setdefault(g, {"rounds": 0, "reasons": []})
        entry["rounds"] = max(entry["rounds"], int(need))
        entry["reasons"].append({"claim": row["id"], "interval": [_number(row.get("low")), _number(row.get("high"))],
                                 "rounds_needed": int(need)})
    return out
