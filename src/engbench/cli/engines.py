"""`engbench engines [--json] [--knobs] [--workload-params [WORKLOAD]]`: each engine, whether it is
available here, and its library version; with --knobs each engine's and target's knobs, with
--workload-params each workload's parameters: type, default, and the range and unit the driver
refuses values outside of (its `describe`, docs/driver.md "Parameter ranges"). `--params` names a
YAML file in `run` and `main`, so here it is refused with the new name."""

import argparse
import json

from ..run import driver


def register(sub):
    p = sub.add_parser("engines", help="list engines, their availability and library versions")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--knobs", action="store_true",
                   help="each engine's and server target's knobs: type, default, range and unit")
    p.add_argument("--workload-params", dest="params", nargs="?", const="", metavar="WORKLOAD",
                   help="each workload's parameters (or one workload's): type, default, range and unit")
    p.add_argument("--params", nargs="?", action=Renamed, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


class Renamed(argparse.Action):
    """`engines --params`, the older spelling: refused, naming --workload-params."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error("--params is now --workload-params (--params names an experiment YAML in run and main): "
                     f"engbench engines --workload-params {values or ''}".rstrip())


def rows() -> list[dict]:
    try:
        engines = driver.describe()["engines"]
    except driver.DriverMissing as exc:
        return [{"name": "(all)", "available": False, "library": None, "library_version": None,
                 "description": str(exc)}]
    described = driver.describe()
    rows = [{"name": e["name"], "kind": "engine", "available": bool(e.get("available", True)),
             "library": e.get("library"), "library_version": e.get("library_version"),
             "description": e.get("description"), "knobs": [k["name"] for k in e.get("knobs", [])]}
            for e in engines]
    rows += [{"name": t["name"], "kind": "server target", "available": bool(t.get("available", True)),
              "library": t.get("library"), "library_version": t.get("library_version"),
              "description": t.get("description"), "knobs": [k["name"] for k in t.get("knobs", [])]}
             for t in described.get("targets", [])]
    return rows


def bounds(spec: dict) -> str:
    """What values a spec takes beyond its type: its range and unit ("in [0, 100] percent", ">= 1",
    "in [1MiB, 10TiB] bytes"), an enum's choices, or "" when anything of its type goes."""
    if spec.get("choices"):
        return "one of: " + ", ".join(spec["choices"])
    return " ".join(x for x in (spec.get("range") or "", spec.get("unit") or "") if x)


def spec_groups(knobs: bool, workload: str | None) -> list[tuple[str, str, list[dict]]]:
    """(owner, name prefix, specs): engines' and targets' knobs (prefixed with their namespace),
    and/or workloads' params (all, or only `workload`'s)."""
    d = driver.describe()
    groups = []
    if knobs:
        for e in [*d["engines"], *d.get("targets", [])]:
            groups.append((e["name"], e["knob_namespace"] + ".", e.get("knobs", [])))
    if workload is not None:
        ws = [w for w in d["workloads"] if workload in ("", w["name"])]
        if not ws:
            raise SystemExit(f"engbench engines: no workload {workload!r}; valid: "
                             + ", ".join(w["name"] for w in d["workloads"]))
        groups += [(w["name"], "", w["params"]) for w in ws]
    return groups


def spec_lines(groups) -> list[str]:
    """Per owner, its name, then one line per spec: `  <name>  <type>  <default>  <range unit | choices>`."""
    lines = []
    for owner, prefix, specs in groups:
        lines.append(owner)
        for s in specs:
            lines.append(f"  {prefix + s['name']:<44} {s['type']:<8} {json.dumps(s['default']):<14} "
                         f"{bounds(s)}".rstrip())
    return lines


def run(args) -> int:
    if args.knobs or args.params is not None:
        groups = spec_groups(args.knobs, args.params)
        if args.json:
            print(json.dumps([{"name": o, "prefix": p, "specs": s} for o, p, s in groups], indent=2))
        else:
            print("\n".join(spec_lines(groups)))
        return 0
    data = rows()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{'engine':<16} {'kind':<14} {'available':<10} {'library':<20} {'version':<8} description")
    for r in data:
        print(f"{r['name']:<16} {r.get('kind', ''):<14} {'yes' if r['available'] else 'no':<10} "
              f"{r['library'] or '-':<20} {r['library_version'] or '-':<8} {r['description'] or ''}")
    return 0
