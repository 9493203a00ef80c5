"""The package's layering (issue 29), kept true: the import-linter contracts in pyproject.toml
(layers from the command and the workload folders down to `paths`, no circles at any depth, the
workload folders apart from each other and reached only through engbench.registry) hold, every
top-level module of engbench stands on a layer and is held to the registry, and a function-local import of engbench says why it is not
at the top (`# local: <reason>`), so none hides a circle."""

import ast
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


def test_no_module_but_the_folders_imports_them():
    """Every top-level module but the folders is forbidden to import them (contract
    through-the-registry), and the only importer of engbench.workloads outside it is the
    composition root, engbench/__init__.py."""
    sources = set(next(c for c in contracts() if c["id"] == "through-the-registry")["source_modules"])
    modules = {f"engbench.{m.name}" for m in pkgutil.iter_modules(engbench.__path__)}
    assert sources == modules - {"engbench.workloads"}, sorted(sources ^ (modules - {"engbench.workloads"}))
    import grimp
    graph = grimp.build_graph("engbench")
    folders = {m for m in graph.modules if m == "engbench.workloads" or m.startswith("engbench.workloads.")}
    readers = {r for m in folders for r in graph.find_modules_that_directly_import(m)} - folders
    assert readers == {"engbench"}, sorted(readers)


def test_importing_any_part_of_the_package_installs_the_workloads():
    """A fresh interpreter that imports only the tables (as a notebook or the workflow may) finds
    every folder in the registry, in the paper's order, with its own modules' hooks."""
    code = ("import engbench.tables.rows, sys\nfrom engbench import registry\n"
            "print(','.join(registry.order()))\n"
            "print(registry.hook('normalize', 'sysbench-update', 'step_rows').__module__)\n"
            "print(registry.hook('report', 'ycsb', 'nope'), len(registry.modules('findings')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.split("\n")[:3] == [
        "iibench,fillseq,sysbench-update,bulk-insert,linkbench,cache-pollution,ycsb",
        "engbench.workloads.sysbench_update.normalize", "None 6"]


def test_a_lookup_before_the_folders_are_installed_is_refused(monkeypatch):
    """Were the registry read before engbench.workloads handed the folders in (a module reading it
    at import time), every workload would silently count requests: it says so instead."""
    from engbench import registry
    monkeypatch.setattr(registry, "_INSTALLED", None)
    with pytest.raises(RuntimeError, match="no workload is installed"):
        registry.get("iibench")


def test_every_module_of_a_folder_imports_first():
    """A folder's own module imports the machinery it stands on; had that machinery loaded the
    folders' modules while being imported (findings.catalog loads every findings.py at its import),
    importing one of them first would meet itself half-made (a circle through the registry that the
    contracts' graph does not draw). Each is imported first, in a fresh interpreter."""
    mods = sorted(f"engbench.workloads.{p.parent.name}.{p.stem}" for p in (SRC / "workloads").glob("*/*.py")
                  if p.stem != "__init__")
    assert mods, "the folders have modules of their own"
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
