"""Rules fixed before the data, and the history of every rule changed after runs existed.

Each finding's rule (what it measures, the direction, the threshold, its gates and its minimum
counts) is written once, in its workload folder's findings.py (workloads/<name>/findings.py), with
a version. RULES_LOCK (rules.lock.json beside this file) holds, per finding, the version and a
fingerprint of that rule; tests/test_regime.py fails when a rule's fingerprint changes without a
new version, so a rule cannot move silently. A new version keeps the old rule here (CHANGES): the
old metric and rule, when it changed and why, and the paper shows the verdict under each, on the
same runs.

    fingerprint(finding) -> str          hash of what decides a verdict: the picks (experiment, engine,
                                         value, selection), the rule function's source
                                         (with the functions of its module it calls), the minimum counts,
                                         the gates of every compared configuration (judge.gates_of: the
                                         experiment's, kept to the claim's, and its own) and the experiment
                                         files' content (notebooks/params/<stem>.yaml: their sizes)
    CHANGES                              [Change], oldest first
    verdicts(tables) -> DataFrame        id, version, changed, commit, why, old rule, new rule,
                                         verdict under the old rule, verdict under the new

The decision method under every rule (rulebook.rules: how samples become a verdict) is recorded the
same way, once for all findings: METHOD_CHANGES, each with the method before and after; the lock
holds the method (key "_method"; tests/test_rules_interval.py fails when rules.METHOD moves without
a MethodChange), and method_verdicts(tables) gives every finding's verdict under the old method and
the new on the same runs (the old method stays callable: rules.decided_by).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import hashlib
import inspect
import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import paths
from ..rulebook import measure, rules
from .catalog import FINDINGS, GATES, MODULE_OF
from .judge import evaluate, gates_of

RULES_LOCK = Path(__file__).with_name("rules.lock.json")
COLUMNS = ["id", "version", "changed", "commit", "runs_then", "why", "old_rule", "new_rule", "old_verdict",
           "old_why", "new_verdict"]


def _code_names(code) -> set:
    names = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            names |= _code_names(c)
    return names


def _own_source(f) -> str:
    """A function's source: a lambda's own expression (ast.unparse of the lambda the module's source has on
    its first line, so the arguments written beside it are not part of it), a def's text; a function
    without source by its qualified name."""
    try:
        if f.__name__ == "<lambda>":
            tree = ast.parse(Path(inspect.getsourcefile(f)).read_text())
            found = [ast.unparse(n) for n in ast.walk(tree)
                     if isinstance(n, ast.Lambda) and n.lineno == f.__code__.co_firstlineno]
            if found:
                return "\n".join(found)
        return textwrap.dedent(inspect.getsource(f)).strip()
    except (OSError, TypeError):
        return getattr(f, "__qualname__", repr(f))


def rule_source(fn) -> str:
    """The source of a rule function (inspect.getsource, dedented) and of every function of its own
    module that it calls, by name, down the calls; a function without source by its qualified name."""
    out, seen, todo = [], set(), [fn]
    while todo:
        f = todo.pop(0)
        if id(f) in seen:
            continue
        seen.add(id(f))
        out.append(_own_source(f))
        code, glob = getattr(f, "__code__", None), getattr(f, "__globals__", {})
        for name in sorted(_code_names(code)) if code else ():
            g = glob.get(name)
            if inspect.isfunction(g) and g.__module__ == f.__module__:
                todo.append(g)
    return "\n".join(out)


def experiment_hash(stem: str) -> str:
    """sha256 (16 hex digits) of notebooks/params/<stem>.yaml, "absent" when there is none."""
    path = paths.REPO / "notebooks" / "params" / f"{stem}.yaml"
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else "absent"


def _gate_doc(g) -> list:
    return [g.quantity, g.lo, g.hi, sorted(g.engines) if g.engines else None]


def fingerprint(finding) -> str:
    """What decides a verdict (module docstring); the claim's words, labels, the rule in words
    (rule_text: how it decides, said to the reader; since 2026-11-29, when every rule text was reworded for
    the interval method with no rule changed) and the gates' prose are not part of it."""
    parts = [[p.experiment, p.engine, p.value, sorted(p.where.items())] for p in finding.picks]
    needs = [[p.experiment, p.engine, p.value, _gate_doc(g)] for p, g in finding.needs]
    cfgs = sorted({(p.experiment, p.engine) for p in finding.picks})
    gates = {f"{e} {g}": [_gate_doc(x) for x in gates_of(finding, e, g, GATES)] for e, g in cfgs}
    sizes = {e: experiment_hash(e) for e in sorted({p.experiment for p in finding.picks})}
    doc = {"picks": parts, "needs": needs, "rule_source": rule_source(finding.rule),
           "gates": gates, "experiments": sizes}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:16]


def lock(findings_list) -> dict:
    return {f.id: {"version": f.version, "fingerprint": fingerprint(f)} for f in findings_list} | \
        {"_method": rules.METHOD}


def read_lock() -> dict:
    return json.loads(RULES_LOCK.read_text()) if RULES_LOCK.is_file() else {}


@dataclass(frozen=True)
class Change:
    """A rule replaced after runs existed: the old one, kept to show its verdict beside the new."""
    id: str                     # the finding
    version: int                # the version this change made (the old rule was version - 1)
    changed: str                # when (UTC date) and by which commit
    commit: str
    runs_then: str              # which runs existed when it changed
    why: str
    old_rule: str               # the old rule in words
    old_value: dict             # new metric column → old metric column, for every pick that changed
    old_fn: Callable | None = None   # the old rule function when it differs (None: the same as now)
    old_where: dict = field(default_factory=dict)   # row selection the old picks used instead (e.g. a snapshot)
    old_picks: Callable | None = None   # the old rule's picks when it compared other configurations: a
                                     # function of the module that states the finding (its named picks)
    old_gates: dict | None = None    # {experiment: gates} the old rule was judged under instead of GATES'
    old_regime: object = "same"      # the finding's regime selection before (Finding.regime), "same": as now
    old_recorded: str = ""           # the verdict recorded then, when the old form's runs are not the shipped
                                     # ones (an experiment resized after its data): shown, not recomputed


_SHIPPED_1 = "the first shipped reproduction (87 runs, measured 2026-11-23 13:00–14:15 UTC beside builds and tests)"
_WHY_OWN_IO = ("iostat counts every user of the shared disk: while the runs measured, builds and tests wrote to "
               "it too. The driver process's own task I/O accounting counts only the run's.")
_WHY_OWN_CPU = ("vmstat's us+sy is the whole machine's CPU, shared with builds and tests while the runs "
                "measured; the driver process's own CPU counts only the run's.")
_C1 = ("2026-11-23", "1171125")


def _io(old):
    return {f"proc_{old}": old}


CHANGES: list[Change] = [
    Change("003-kbw-lsm-below-btree", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB written per 200k inserts (iostat), LSM below B-tree at every memory size, repetitions apart",
           {"proc_wkb_per_200k": "wkb_per_200k"}),
    Change("003-kbw-btree-grows", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB written per 200k inserts (iostat), rises at every step, >= 1.5, ends apart",
           {"proc_wkb_per_200k": "wkb_per_200k"}),
    Change("003-kbr-btree-grows", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB read per 200k inserts (iostat), rises at every step, >= 2, ends apart",
           {"proc_rkb_per_200k": "rkb_per_200k"}),
    Change("003-kbr-lsm-flat-when-small", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB read per 200k inserts (iostat), the two capped sizes within 1.25x",
           {"proc_rkb_per_200k": "rkb_per_200k"}),
    Change("000-wt-zlib-cpu", 2, *_C1, _SHIPPED_1, _WHY_OWN_CPU,
           "CPU µs per transaction (vmstat us+sy, Mcpu/t), zlib >= 2x snappy, repetitions apart",
           {"driver_cpu_us_per_op": "mcpu_per_op"}),
    Change("000-rocks-writes-most-load", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB written per insert during the load (iostat), RocksDB above WiredTiger, repetitions apart",
           {"loads:proc_wkb_per_op": "loads:wkb_per_op"}),
    Change("000-rocks-writes-least-query", 2, *_C1, _SHIPPED_1, _WHY_OWN_IO,
           "KB written per transaction (iostat), RocksDB below WiredTiger, repetitions apart",
           {"proc_wkb_per_op": "wkb_per_op"}),
    Change("001-one-read-per-update", 2, *_C1, _SHIPPED_1,
           "iostat's r/s counts every reader of the shared disk; the run's cgroup counts only the run's reads.",
           "disk reads per update (iostat r/s ÷ updates/s), about 1 (0.8–1.25) at every client count",
           {"steps:cg_r_per_op": "steps:r_per_op"}),
    Change("001-single-writer-flat", 2, *_C1, _SHIPPED_1,
           "The claim is \"does not increase\": SQLite's rate falls with 32 clients, which is no increase but "
           "failed \"flat\"; the rule now says what the words say (at most 1.25x), and the change flipped its "
           "verdict on the runs that existed.",
           "flat for each engine: 32 clients within 1.25x of 1 client", {},
           old_fn=lambda s, picks: _flat_pairs(s, picks)),
]


_C2 = ("2026-11-26", "this change (issue 26)")
_BEFORE_2 = "the shipped reproduction of 2026-11-23 (128 runs, measured beside builds and tests); changed before its re-measurement"

CHANGES += [
    Change("003-kbr-lsm-flat-when-small", 3, *_C2, _BEFORE_2,
           "The words are \"does not grow\", as 001's: a smaller rate at the small cache is no growth but failed "
           "\"flat\"; the rule now says what the words say.",
           "KB read per 200k inserts (task I/O), the two capped sizes within 1.25x (flat)", {},
           old_fn=lambda s, picks: _flat_pairs(s, picks)),
    Change("000-rocks-writes-most-load", 3, *_C2, _BEFORE_2,
           "\"The summary is the same as it was for the cached database\": the source says it of the IO-bound load "
           "too, so the claim is tested on both loads.",
           "KB written per insert during the cached load (task I/O), RocksDB above WiredTiger", {},
           old_fn=lambda s, picks: _first_pair_greater(s, picks)),
    Change("000-wt-space-after-query", 2, *_C2, _BEFORE_2,
           "size_gb counts every file of the data directory, WiredTiger's ~200 MiB of preallocated log files "
           "too, which decided the verdict; the source compares database sizes: data + index (table_bytes).",
           "database size at the end of the run (GiB allocated, every file), WiredTiger >= 1.5x RocksDB",
           {"table_bytes": "size_gb"}),
    Change("004-hot-stays-in-cache", 2, *_C2, _BEFORE_2,
           "The source's \"after\" row is taken right after the index build; engbench's \"after\" snapshot "
           "follows the hot scan, which reloads the hot collection. The snapshot right after the pass is \"mid\".",
           "bytes of the hot collection in cache in the \"after\" snapshot (after the hot scan)", {},
           old_where={"snapshot": "after"}),
    Change("004-fewer-hot-evictions", 2, *_C2, _BEFORE_2,
           "As 004-hot-stays-in-cache: the source's \"after\" is right after the index build (engbench's \"mid\").",
           "unmodified hot pages evicted in the \"after\" snapshot (after the hot scan)", {},
           old_where={"snapshot": "after"}),
]

_C3 = ("2026-11-26", "this change (issue 26, after the quiet re-measurement)")
_QUIET = ("the quiet re-measurement of 2026-11-26 (138 runs); changed after it: the experiment files sized for "
          "the source's regime run LMDB at the large cache only, as the source ran mmapv1 at 144G only")


CHANGES += [
    Change("003-mmap-rate-lower", 2, *_C3, _QUIET,
           "The rule compared LMDB with the B-tree at every cache size; the reproduction runs LMDB at the large "
           "cache only (the source ran mmapv1 only at 144G), so the old rule found no run to judge.",
           "LMDB below the B-tree at every cache size, repetitions apart", {},
           old_fn=lambda s, picks: _all_less(s, picks),
           old_picks=lambda m: tuple(m.Q["lmdb"] + m.Q["wiredtiger"])),
    Change("003-mmap-reads-more", 2, *_C3, _QUIET,
           "The words say \"at 144G\"; the rule compared the medium cache, where the reproduction runs no LMDB.",
           "LMDB >= 1.5x the B-tree's and the LSM's KB read at the medium cache", {},
           old_fn=lambda s, picks: _first_greater_than_rest(s, picks, 1.5),
           old_picks=lambda m: tuple(m.R[e][1] for e in ("lmdb", "wiredtiger", "wiredtiger-lsm"))),
]


CHANGES += [
    Change("000-similar-space-after-load", 2, *_C3, _QUIET,
           "The rule read loads:table_bytes, a column no run has (the driver measures the data directory when a "
           "run ends); the claim is now not testable, with that reason, instead of \"too few repeats\".",
           "data + index bytes right after the load, RocksDB and WiredTiger within 1.25x", {},
           old_fn=lambda s, picks: _flat(s, picks), old_picks=lambda m: tuple(m.LOADSIZE)),
]


# issue 43's rows (the loosened gates, the resized experiments, and every rule, gate and regime selection
# it changed): engbench.findings.changes_43, numbered on from the rows above
from . import changes_43  # noqa: E402

CHANGES += changes_43.numbered(CHANGES, changes_43.rows(Change))
CHANGES += changes_43.numbered(CHANGES, __import__(__package__ + ".changes_004", fromlist=["rows"]).rows(Change))  # 004 resized


def _flat(samples, picks):
    return rules.flat(samples, [p.label for p in picks])


def _all_less(samples, picks):
    half = len(picks) // 2
    return rules.all_of([rules.less(samples, picks[i].label, picks[half + i].label) for i in range(half)])


def _first_greater_than_rest(samples, picks, factor):
    return rules.all_of([rules.greater(samples, picks[0].label, p.label, factor) for p in picks[1:]])


def _first_pair_greater(samples, picks):
    return rules.greater(samples, picks[0].label, picks[1].label)


def _flat_pairs(samples, picks):
    pairs = [picks[i:i + 2] for i in range(0, len(picks), 2)]
    return rules.all_of([rules.flat(samples, [p.label for p in ps]) for ps in pairs])


def old_picks(finding, change: Change) -> tuple:
    if change.old_picks is not None:
        return tuple(change.old_picks(MODULE_OF[finding.id]))
    return tuple(dataclasses.replace(p, value=change.old_value.get(p.value, p.value),
                                     where={**p.where, **change.old_where} if p.where else p.where)
                 for p in finding.picks)


def old_verdict(tables: dict, finding, change: Change) -> dict:
    """The verdict of a rule's old form on the same runs, judged as the new (judge.evaluate: gates,
    minimum counts, the compared engines' memory): its old picks, rule function, gates (old_gates
    replace those experiments' gates) and regime selection; the recorded verdict when the old form's
    runs are not the shipped ones (old_recorded)."""
    if change.old_recorded:
        return {"verdict": change.old_recorded, "why": "as recorded then (data/processed/findings.csv): the runs "
                "of the old experiment files are not the shipped ones"}
    picks = old_picks(finding, change)
    old = dataclasses.replace(finding, picks=picks,
                              regime=finding.regime if change.old_regime == "same" else change.old_regime)
    rule = (lambda s: change.old_fn(s, picks)) if change.old_fn else finding.rule
    gates = {**GATES, **change.old_gates} if change.old_gates is not None else None
    return evaluate(tables, old, gates=gates, rule=rule)


def verdicts(tables: dict, findings_list) -> pd.DataFrame:
    """The verdict of each changed rule under its old and its new form, on the same runs."""
    by_id = {f.id: f for f in findings_list}
    rows = []
    for c in CHANGES:
        f = by_id.get(c.id)
        if f is None:
            continue
        old = old_verdict(tables, f, c)
        rows.append({"id": c.id, "version": c.version, "changed": c.changed, "commit": c.commit,
                     "runs_then": c.runs_then, "why": c.why, "old_rule": c.old_rule, "new_rule": f.rule_text,
                     "old_verdict": old["verdict"], "old_why": old["why"],
                     "new_verdict": evaluate(tables, f)["verdict"]})
    return pd.DataFrame(rows, columns=COLUMNS)


@dataclass(frozen=True)
class MethodChange:
    """The decision method of every rule replaced after runs existed (rules.METHODS names them):
    each finding's verdict under the old method and the new is shown on the same runs."""
    old: str                    # the method before (rules.decided_by(old) still decides by it)
    new: str
    changed: str
    commit: str
    runs_then: str
    why: str
    old_text: str               # the old method in words
    new_text: str


METHOD_CHANGES: list[MethodChange] = [
    MethodChange("v1", "interval", "2026-11-29", "this change (issue 44)",
                 "the quiet re-measurement of 2026-11-26 and the runs after it (data/processed); changed before the "
                 "interleaved re-measurement",
                 "The old method decided on whether the repetitions' ranges overlapped: 0.7 % apart was \"holds\", and "
                 "with 3 repetitions a side it could not tell a 0.7 % effect from a 5x one nor say how sure it was. "
                 "Every verdict now rests on the effect's interval, and a claim the repetitions cannot decide says so.",
                 "ratio of the means against the factor; for \"more\" every repetition of one side beyond every one of "
                 "the other; flat: largest / smallest mean within the tolerance",
                 "the effect's interval (Fieller, 95 %; equivalence claims 90 %, two one-sided tests) wholly on the "
                 "claim's side: holds; wholly off it: does not hold; else inconclusive here"),
    MethodChange("interval", "smallest-effect", "2026-11-29", "this change (issue 43/44 follow-ups, H10)",
                 "the shipped runs in data/processed on 2026-11-29 (before the equal-memory and interleaved "
                 "re-measurement)",
                 "A bare \"more\" or \"faster\" had threshold 1.0: with no effect at all its interval straddles 1 for "
                 "ever (never refuted), and with enough rounds a 0.3 % effect would hold (004-hot-stays-in-cache 1.003, "
                 "002-journal-on-cpu-low 1.006). Its threshold is now 1 + the smallest effect that matters, 10 %: the "
                 "machine's own A/A spread, measured before these data (benchmarks/host_noise.py: two identical "
                 "configurations' 5-pair median ratio 0.91-1.12 with both CPUs busy). rules_extra.below decided on "
                 "every repetition under the bound, any_of and at_least carried no effect: now by the interval too.",
                 "as \"interval\", a bare directional claim against 1.0; below: every repetition under the bound; "
                 "any_of / at_least: no effect shown",
                 "a bare directional claim holds when its 95 % interval lies wholly above 1.1 and does not hold when "
                 "wholly at or below it; below: the mean over the bound, its 95 % interval wholly under 1; any_of / "
                 "at_least show the deciding part's effect"),
]
METHOD_COLUMNS = ["id", "changed", "commit", "old_method", "new_method", "old_verdict", "old_why", "new_verdict",
                  "new_why", "threshold", "effect", "low", "high", "level", "rounds"]


def method_verdicts(tables: dict, findings_list) -> pd.DataFrame:
    """Every finding's verdict under the old and the new method of each METHOD_CHANGES, on the same
    runs (judge.evaluate under rules.decided_by)."""
    rows = []
    for c in METHOD_CHANGES:
        for f in findings_list:
            with rules.decided_by(c.old):
                old = evaluate(tables, f)
            with rules.decided_by(c.new):
                new = evaluate(tables, f)
            rows.append({"id": f.id, "changed": c.changed, "commit": c.commit, "old_method": c.old,
                         "new_method": c.new, "old_verdict": old["verdict"], "old_why": old["why"],
                         "new_verdict": new["verdict"], "new_why": new["why"],
                         **{k: new[k] for k in ("threshold", "effect", "low", "high", "level", "rounds")}})
    return pd.DataFrame(rows, columns=METHOD_COLUMNS)


def main(argv=None) -> int:
    """`python -m engbench.findings.history --lock`: write rules.lock.json from the findings as they are
    (after adding a new finding, or a new version with its Change)."""
    ap = argparse.ArgumentParser(prog="python -m engbench.findings.history", description=main.__doc__)
    ap.add_argument("--lock", action="store_true", help="write rules.lock.json")
    if ap.parse_args(argv).lock:
        RULES_LOCK.write_text(json.dumps(lock(FINDINGS), indent=1, sort_keys=True) + "\n")
        print(RULES_LOCK)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
