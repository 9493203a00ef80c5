"""The package's layering (issue 29), kept true: the import-linter contracts in pyproject.toml
(layers from the command down to `paths`, no circles at any depth, the workload folders apart from
each other and reached only through the registry) hold, every top-level module of engbench stands
on a layer and is held to the registry, and a function-local import of engbench says why it is not
at the top (`# local: <reason>`), so none hides a circle."""

import ast
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import engbench
from engbench import paths

SRC = paths.REPO / "src" / "engbench"
LOCAL = "# local:"


def contracts() -> list[dict]:
    return tomllib.loads((paths.REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    out = subprocess.run([str(lint), "--no-cache"], cwd=paths.REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in out.stdout, out.stdout


def test_every_top_level_module_stands_on_a_layer():
    layers = next(c for c in contracts() if c["type"] == "layers")["layers"]
    placed = [name.strip() for layer in layers for name in layer.split("|")]
    assert len(placed) == len(set(placed)), "a module stands on one layer"
    modules = {f"engbench.{m.name}" for m in pkgutil.iter_modules(engbench.__path__)}
    assert modules == set(placed), f"not on a layer: {sorted(modules - set(placed))}; " \
                                   f"no such module: {sorted(set(placed) - modules)}"


def test_every_module_but_the_registry_reaches_a_workload_folder_only_through_it():
    sources = set(next(c for c in contracts() if c["id"] == "through-the-registry")["source_modules"])
    modules = {f"engbench.{m.name}" for m in pkgutil.iter_modules(engbench.__path__)}
    assert sources == modules - {"engbench.workloads"}, sorted(sources ^ (modules - {"engbench.workloads"}))


def forbidden_to(readers: set, forbidden: set) -> set:
    """The readers neither forbidden themselves nor inside a forbidden package (import-linter's
    forbidden_modules hold a package's every module)."""
    return {r for r in readers if not any(r == f or r.startswith(f + ".") for f in forbidden)}


def test_only_what_the_report_modules_may_not_reach_reads_the_upper_registry():
    """The circles report.paper -> workloads.upper -> <folder>.report -> report.<engine> and
    findings.catalog -> workloads.upper -> <folder>.findings -> rulebook (-> findings, had it one)
    are kept open by forbidding the folders' upper modules every reader of the upper registry (a new
    reader must be added to the contract, or it could close a circle the package-level contracts do
    not see)."""
    import grimp
    graph = grimp.build_graph("engbench")
    readers = graph.find_modules_that_directly_import("engbench.workloads.upper")
    forbidden = set(next(c for c in contracts() if c["id"] == "report-modules-below-the-paper")["forbidden_modules"])
    assert {"engbench.report.paper", "engbench.findings.catalog"} <= readers, "the paper and the findings read it"
    assert not forbidden_to(readers, forbidden), sorted(forbidden_to(readers, forbidden))
    assert forbidden_to({"engbench.findings.catalog", "engbench.findingsx", "engbench.report.data"},
                        {"engbench.findings", "engbench.report.paper"}) == {"engbench.findingsx", "engbench.report.data"}


def test_only_what_the_middle_modules_may_not_reach_reads_the_middle_registry():
    """The tables, the Methods section and the regime gates read the folders' normalize.py and
    regime.py through the middle registry; a reader those modules could reach would close a
    circle, so every reader is forbidden to them (contract middle-modules-below-their-readers)."""
    import grimp
    graph = grimp.build_graph("engbench")
    readers = graph.find_modules_that_directly_import("engbench.workloads.middle")
    forbidden = set(next(c for c in contracts() if c["id"] == "middle-modules-below-their-readers")["forbidden_modules"])
    assert {"engbench.tables.rows", "engbench.report.methods", "engbench.rulebook.regime"} <= readers, \
        "the tables, the Methods section and the regime gates read it"
    assert not forbidden_to(readers, forbidden), sorted(forbidden_to(readers, forbidden))


def test_every_upper_module_of_a_folder_imports_first():
    """A folder's upper module imports the engine it stands on; had an engine's package __init__
    read the registry of these modules, importing one of them first would meet itself half-made
    (a circle through a package's __init__ that the contracts' graph does not draw). Each is
    imported first, in a fresh interpreter."""
    mods = sorted(f"engbench.workloads.{p.parent.name}.{p.stem}" for p in (SRC / "workloads").glob("*/*.py")
                  if p.stem != "__init__")
    assert mods, "the folders have upper modules"
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)"
    for m in mods + ["engbench.workloads.upper", "engbench.workloads.middle"]:
        out = subprocess.run([sys.executable, "-c", code, m], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"{m}: {out.stderr[-800:]}"


def local_imports(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every import of engbench inside a function of `path`."""
    tree = ast.parse(path.read_text())
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("engbench")):
                out.append(node.lineno)
            elif isinstance(node, ast.Import) and any(a.name.startswith("engbench") for a in node.names):
                out.append(node.lineno)
    lines = path.read_text().splitlines()
    return [(n, lines[n - 1].strip()) for n in sorted(set(out))]


def explained(lines: list[str], lineno: int) -> bool:
    """The import's own line, or the comment and import lines right above it (a group of imports
    under one comment), carry `# local: <reason>`."""
    i = lineno - 1
    if LOCAL in lines[i]:
        return True
    while i > 0 and lines[i - 1].strip().startswith(("#", "from ", "import ")):
        i -= 1
        if LOCAL in lines[i]:
            return True
    return False


def test_function_local_imports_of_engbench_say_why():
    bare = []
    for path in sorted(SRC.rglob("*.py")):
        lines = path.read_text().splitlines()
        bare += [f"{path.relative_to(paths.REPO)}:{n}: {text}" for n, text in local_imports(path)
                 if not explained(lines, n)]
    assert not bare, "a function-local import says why (`# local: <reason>`) or moves to the top:\n" + "\n".join(bare)


def test_the_local_import_check_sees_what_it_should(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from engbench import paths\n\n\ndef f():\n    from . import report\n\n\n"
                      "def g():\n    # local: a reason\n    from engbench import tables\n    from .run import runs\n\n\n"
                      "def h():\n    import engbench.verify  # local: another\n")
    lines = sample.read_text().splitlines()
    found = local_imports(sample)
    assert [n for n, _ in found] == [5, 10, 11, 15]
    assert [explained(lines, n) for n, _ in found] == [False, True, True, True]
