"""`engbench reproduce [--only NAME ...] [--repeat N] [--seed S] [--extra-rounds GROUP=K ...] [--max-rounds N]
[--no-extra-rounds] [--plan] [--into DIR]`: every reproduction experiment (notebooks/params/repro_*.yaml)
through the workflow, in seeded interleaved rounds (engbench.reproduce), then process, more rounds
where a claim is inconclusive here (up to --max-rounds; not with --no-extra-rounds) and the paper
(its Findings section). Resumable (the plan and its seed are kept); prints the seed, progress and the
time left. Exit status: 0 done, 1 a run or a step failed (sealed runs are kept), 2 refused
(nothing run), 130 interrupted."""

import os
import sys
from pathlib import Path

from .. import paths, reproduce
from ..reproduce import GROUPS
from ..run import params, rounds
from ._inputs import seconds


def register(sub):
    p = sub.add_parser("reproduce", help="re-measure every finding of the source documents (long: see README)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="one experiment group: " + ", ".join(f"{g} ({n})" for g, (n, _) in GROUPS.items())
                        + ", or a repro_*.yaml stem; repeatable")
    p.add_argument("--repeat", type=int, default=None,
                   help="repetitions of every experiment (default: each file's, 3); findings need 3")
    p.add_argument("--plan", action="store_true", help="say what would run, in which order and how long it should "
                                                         "take; run nothing, write nothing")
    p.add_argument("--seed", type=int, default=None,
                   help="the order seed of a new plan (default: drawn and printed); a resumed plan keeps its own")
    p.add_argument("--extra-rounds", action="append", default=[], metavar="GROUP=K",
                   help="give an interleaved group (or every group of an --only group) K rounds beyond its files' "
                        "repetitions; repeatable; the same K again adds nothing")
    p.add_argument("--max-rounds", type=int, default=rounds.MAX_ROUNDS, metavar="N",
                   help=f"the most rounds any group may have (default {rounds.MAX_ROUNDS})")
    p.add_argument("--no-extra-rounds", dest="more", action="store_false",
                   help="run the planned rounds only (default: after them, a group with a claim 'inconclusive here' "
                        "gets the rounds that would decide it, up to --max-rounds, recorded in the plan)")
    p.add_argument("--paper", type=Path, default=None, help="paper folder (default paper/)")
    p.add_argument("--into", type=Path, default=None, metavar="DIR",
                   help="a fresh reproduction: runs in DIR/raw, tables in DIR/processed, the paper in DIR/paper "
                        "(the shipped runs in data/raw are sealed already: without it only the extra rounds that "
                        "claims inconclusive here ask for are measured, into data/raw; with --no-extra-rounds nothing)")
    p.add_argument("--wait-quiet", type=seconds, default=None, metavar="SECONDS",
                   help="each run first waits at most this long for a quiet machine (default $ENGBENCH_WAIT_QUIET "
                        "or 300; 0: no wait)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.into:  # the environment the workflow's steps inherit (engbench.paths reads it)
        into = args.into.resolve()
        os.environ.update({"ENGBENCH_RAW_DIR": str(into / "raw"), "ENGBENCH_PROCESSED_DIR": str(into / "processed")})
        args.paper = args.paper or into / "paper"
    state = args.into.resolve() / "state" if args.into else None  # its own plan and markers
    try:
        if args.repeat is not None and args.repeat < 1:
            raise params.ParamError(f"--repeat must be >= 1, got {args.repeat}")
        extra = {}
        for item in args.extra_rounds:
            name, _, k = item.partition("=")
            if not name or not k.isdigit():
                raise params.ParamError(f"--extra-rounds {item!r}: expected GROUP=K, K a whole number of rounds")
            extra[name] = int(k)
        files = reproduce.experiment_files(args.only)
        if args.plan:
            rp = reproduce.make_plan(files, paths.raw_dir(), state, args.repeat, args.seed, extra, args.max_rounds)
            p = reproduce.plan(files, paths.raw_dir(), args.repeat, rp)
            for t in p["todo"]:
                s = t.schedule
                print(f"{t.key}\t{s['group']} round {s['round']} position {s['position']}/{s['of']}"
                      f"\t~{p['per_trial_s'][t.key]:.0f} s")
            print(f"engbench reproduce: {reproduce.describe_plan(rp, files)}", file=sys.stderr)
            print(f"engbench reproduce: {len(p['trials'])} runs, {p['done']} sealed, {len(p['todo'])} to run, "
                  f"estimated {reproduce.minutes(p['estimate_s'])}", file=sys.stderr)
            return 0
    except (params.ParamError, rounds.PlanError) as exc:
        print(f"engbench reproduce: refused, nothing run: {exc}", file=sys.stderr)
        return 2
    return reproduce.run(files, repeat=args.repeat, paper=args.paper, state=state, wait_quiet=args.wait_quiet,
                         seed=args.seed, extra=extra, max_rounds=args.max_rounds, more=args.more)
