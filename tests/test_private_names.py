"""No module of engbench uses another module's private names (issue 29: `engbench calibrate`
called `runs._finalize`; targets.py took `_uri_secrets` and the servers package's `_proc`; the
report took `tables._build`, `charts._title`, ..., the workload folders' report modules after it).

Read from the source with `ast`, imports inside functions included: for every module of
src/engbench, each `from M import _x`, each `M._x` on an imported module M, and each import of a
private module (`pkg._m`) of engbench from outside its package; one of them is a finding when the
two are different modules (another library's private modules, e.g. pandas._libs, are its own
business). A module's own privates, and a private
module used by its own package, are fine. The checker is tested on a made-up package first,
so it cannot pass by seeing nothing."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
SCOPE = "engbench"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules(root: Path) -> dict:
    """dotted module name → (path, is a package's __init__)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _absolute(module: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _in_scope(*modules: str) -> bool:
    return any(m == SCOPE or m.startswith(SCOPE + ".") for m in modules)


def _private_module_from_outside(target: str, module: str, is_pkg: bool) -> bool:
    """target names a private module (a part `_m`) of engbench whose package is not the importer's."""
    if not _in_scope(target):
        return False
    package = module if is_pkg else module.rpartition(".")[0]
    parts = target.split(".")
    for i, part in enumerate(parts):
        if _private(part) and ".".join(parts[:i]) != package:
            return True
    return False


def findings(root: Path) -> list[str]:
    mods = _modules(root)
    out = []
    for module, (path, is_pkg) in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        aliases = {}  # a name bound to one of the package's modules → that module
        where = f"{path.relative_to(root)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                target = _absolute(module, is_pkg, node)
                for a in node.names:
                    full = f"{target}.{a.name}"
                    if full in mods:
                        aliases[a.asname or a.name] = full
                    if not _in_scope(target if full not in mods else full):
                        continue
                    if _private(a.name) and target != module:
                        out.append(f"{where}:{node.lineno}: from {target} import {a.name}")
                    elif _private_module_from_outside(full if full in mods else target, module, is_pkg):
                        out.append(f"{where}:{node.lineno}: from {target} import {a.name} (a private module)")
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods and a.asname:
                        aliases[a.asname] = a.name
                    if _in_scope(a.name) and _private_module_from_outside(a.name, module, is_pkg):
                        out.append(f"{where}:{node.lineno}: import {a.name} (a private module)")
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                target = aliases[node.value.id]
                if target != module and _in_scope(target):
                    out.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr} ({target})")
    return sorted(set(out))


def test_the_checker_finds_each_kind_of_private_use(tmp_path):
    pkg = tmp_path / "engbench"
    (pkg / "run" / "servers").mkdir(parents=True)
    (pkg / "report").mkdir()
    files = {
        "__init__.py": "",
        "run/__init__.py": "",
        "run/runs.py": "def _finalize(): pass\ndef finalize(): _finalize()\n",
        "run/calibrate.py": "from . import runs\ndef f():\n    runs._finalize()\n    runs.finalize()\n",
        "run/targets.py": "def f():\n    from .servers._proc import tail\n    from .servers.redact import _uri_secrets\n"
                          "    from .servers import redact\n    return redact.uri_secrets\n",
        "run/servers/__init__.py": "from ._proc import tail\n",
        "run/servers/_proc.py": "def tail(): pass\n",
        "run/servers/redact.py": "from ._proc import tail\ndef _uri_secrets(): pass\ndef uri_secrets(): _uri_secrets()\n",
        "report/tables.py": "def _cell(): pass\n",
        "report/other.py": "from .tables import _cell\nfrom ..run.runs import _finalize\n"
                           "from pandas._libs.parsers import STR_NA_VALUES\nfrom os import _exit\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    assert findings(tmp_path) == [
        "engbench/report/other.py:1: from engbench.report.tables import _cell",
        "engbench/report/other.py:2: from engbench.run.runs import _finalize",
        "engbench/run/calibrate.py:3: runs._finalize (engbench.run.runs)",
        "engbench/run/targets.py:2: from engbench.run.servers._proc import tail (a private module)",
        "engbench/run/targets.py:3: from engbench.run.servers.redact import _uri_secrets",
    ]


def test_no_module_uses_a_private_name_of_another():
    assert findings(SRC) == []
