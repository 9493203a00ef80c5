"""`engbench engines [--json]`: each engine, whether it is available here, and its library version."""

import json

from ..run import driver


def register(sub):
    p = sub.add_parser("engines", help="list engines, their availability and library versions")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


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


def run(args) -> int:
    data = rows()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{'engine':<16} {'kind':<14} {'available':<10} {'library':<20} {'version':<8} description")
    for r in data:
        print(f"{r['name']:<16} {r.get('kind', ''):<14} {'yes' if r['available'] else 'no':<10} "
              f"{r['library'] or '-':<20} {r['library_version'] or '-':<8} {r['description'] or ''}")
    return 0
