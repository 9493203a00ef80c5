"""The plan of `engbench reproduce` (see engbench.reproduce's docstring): its `--only` groups
(GROUPS), the interleaved groups of configurations (`interleaved_groups`), the plan of a call
(`make_plan`: the state's kept, groups added, `--extra-rounds`) and the extra rounds that claims
"inconclusive here" ask for (`add_needed_rounds`). Running the plan is engbench.reproduce."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import paths, registry
from ..run import params, rounds

# The groups `--only` accepts: a name, or the source document's number, → file stems' prefix; each
# workload folder states its own (Workload.reproduction), in the registry's order.
GROUPS = {w.reproduction[0]: w.reproduction[1:] for w in map(registry.get, registry.order()) if w.reproduction}


def only_group(f: Path) -> str:
    """The `--only` group (GROUPS) a file belongs to, else the file's stem."""
    return next((g for g, (_, pre) in GROUPS.items() if Path(f).stem.startswith(pre)), Path(f).stem)


def file_configs(f: Path) -> list[tuple[str, str]]:
    """The (experiment, engine) configurations one experiment file runs: its stem with each engine."""
    data = params.load_file(f)
    engines = data.get("engines") or ([data["engine"]] if data.get("engine") else [])
    return [(Path(f).stem, e) for e in engines]


def _whole_groups(files: list[Path]) -> list[Path]:
    """`files` with the rest of their `--only` groups' files (same folder), so that a plan's groups
    are whole whichever files a call selects."""
    out = []
    for f in map(Path, files):
        g = only_group(f)
        pre = GROUPS[g][1] if g in GROUPS else None
        mates = sorted(f.parent.glob(f"{pre}*.yaml")) if pre else [f]
        out += [m for m in (mates if f in mates else [f, *mates]) if m not in out]
    return out


def interleaved_groups(files: list[Path], findings=None) -> dict[str, list[tuple[str, str]]]:
    """{group name: [(experiment stem, engine), ...]} of the configurations of `files` (see the
    module's docstring): connected components of "compared by one claim" (`findings`' picks;
    default engbench.findings.catalog.FINDINGS) or "run by one file", within each `--only` group;
    the lone configurations of an `--only` group (no claim, alone in their file) together form one
    more. Components keep the files' order; names `<only group>` or `<only group>.<i>`."""
    if findings is None:
        # local: the catalog loads every workload's findings module; only a plan needs it
        from ..findings.catalog import FINDINGS as findings
    configs = [c for f in files for c in file_configs(f)]
    home = {c: only_group(f) for f in files for c in file_configs(f)}
    link: dict = {}

    def root(c):
        while link.get(c, c) != c:
            c = link[c]
        return c

    def join(cs):
        for c in cs[1:]:
            a, b = root(cs[0]), root(c)
            if a != b:
                link[b] = a
    claimed = set()
    for f in files:
        join(file_configs(f))
    for fd in findings:
        picks = [c for c in dict.fromkeys((p.experiment, p.engine) for p in fd.picks) if c in home]
        claimed.update(picks)
        join(picks)
    comps: dict = {}
    for c in configs:
        comps.setdefault(root(c), []).append(c)
    parts: dict[str, list] = {}  # --only group -> its groups, a pool of its lone configurations last
    for v in comps.values():
        lone = len(v) == 1 and v[0] not in claimed
        g = home[v[0]] if not lone else (home[v[0]], "lone")
        parts.setdefault(g, []).append(v) if not lone else parts.setdefault(g, [[]])[0].extend(v)
    per_only: dict[str, list] = {}
    for g, vs in parts.items():
        per_only.setdefault(g[0] if isinstance(g, tuple) else g, []).extend(vs)
    out = {}
    for g, vs in per_only.items():
        vs.sort(key=lambda v: configs.index(v[0]))
        out.update({(g if len(vs) == 1 else f"{g}.{i}"): v for i, v in enumerate(vs, 1)})
    return out


def plan_path(state: Path | None) -> Path:
    """Where the plan lives: the workflow's state directory (the Snakefile's default when none)."""
    return Path(state or paths.work_dir() / "workflow") / rounds.PLAN_FILE


def make_plan(files: list[Path], raw: Path, state: Path | None = None, repeat: int | None = None,
              seed: int | None = None, extra: dict[str, int] | None = None,
              cap: int = rounds.MAX_ROUNDS) -> rounds.Plan:
    """The plan of this call, not written: the state's plan when there is one (its seed, groups and
    rounds), with the groups of `files` it lacks added (rounds: `repeat`, else the most any of the
    group's files asks for), `extra` = {group or `--only` group: K} giving a group K rounds beyond
    its base (idempotent: a second call with the same K adds nothing; fewer than planned is
    refused). A new plan draws its seed (or takes `seed`); a `seed` other than the plan's is refused."""
    path = plan_path(state)
    p = rounds.read(path)
    if p is not None and seed is not None and seed != p.seed:
        raise rounds.PlanError(f"--seed {seed}: the plan {path} has seed {p.seed}; a resumed reproduction keeps its "
                               "seed (delete the plan, or reproduce --into a new directory, for a new one)")
    if p is not None and p.raw and Path(p.raw) != Path(raw):
        raise rounds.PlanError(f"the plan {path} is for the runs in {p.raw}, this call's go to {raw}: use another "
                               "state directory (reproduce --into) or delete the plan")
    p = p or rounds.Plan(rounds.new_seed() if seed is None else int(seed), raw=str(raw))
    groups = interleaved_groups(_whole_groups(files))
    base = {}
    for g, configs in groups.items():
        stems = dict.fromkeys(e for e, _ in configs)
        base[g] = repeat if repeat is not None else max(
            int(params.load_file(next(f for f in _whole_groups(files) if f.stem == s)).get("repeat", 1)) for s in stems)
        p.add_group(g, configs, base[g], cap)
    for name, k in (extra or {}).items():
        targets = [g for g in groups if g == name or g.split(".")[0] == name or only_group_seed(g) == name]
        if not targets:
            raise rounds.PlanError(f"--extra-rounds {name}={k}: no such group; groups: {', '.join(groups)}")
        for g in targets:
            want = base[g] + int(k)
            if want < p.groups[g]["rounds"]:
                raise rounds.PlanError(f"--extra-rounds {name}={k}: the plan {path} already gives {g} "
                                       f"{p.groups[g]['rounds']} rounds ({base[g]} + "
                                       f"{p.groups[g]['rounds'] - base[g]}); rounds are never taken away")
            p.add_rounds(g, want - p.groups[g]["rounds"], cap)
    return p


def only_group_seed(group: str) -> str | None:
    """The source document's number of an interleaved group's `--only` group ("003" for iibench.2)."""
    return GROUPS.get(group.split(".")[0], (None,))[0]


def describe_plan(p: rounds.Plan, files: list[Path]) -> str:
    """The seed and each group of the plan that `files` touch: rounds and configurations."""
    stems = {Path(f).stem for f in files}
    lines = [f"order seed {p.seed}"]
    for g, s in p.groups.items():
        if any(e in stems for e, _ in s["configs"]):
            lines.append(f"  group {g}: {s['rounds']} rounds of {len(s['configs'])} configurations")
    return "\n".join(lines)


def claim_configs() -> dict:
    """{claim id: [(experiment, engine), ...]}: the configurations each finding compares (its picks)."""
    from ..findings.catalog import FINDINGS  # local: the catalog loads every workload's findings module
    return {f.id: list(dict.fromkeys((p.experiment, p.engine) for p in f.picks)) for f in FINDINGS}


def add_needed_rounds(rp: rounds.Plan, findings, cap: int, out=sys.stderr, configs_of: dict | None = None) -> int:
    """Extend `rp` where claims are inconclusive here within the cap (rounds.more_rounds), saying
    which group gets how many rounds for which claims; returns the rounds added (0: none needed)."""
    more = rounds.more_rounds(findings, rp, cap, claim_configs() if configs_of is None else configs_of)
    added = 0
    for g, d in more.items():
        k = rp.extend_to(g, d["rounds"], d["reasons"], cap)
        added += k
        why = "; ".join(f"{r['claim']} [{r['interval'][0]:.3g}, {r['interval'][1]:.3g}], n={r['rounds_needed']} "
                        "would decide" for r in d["reasons"])
        print(f"engbench reproduce: group {g}: {k} more rounds ({d['rounds']} in all, cap {cap}) for {why}",
              file=out)
    return added
