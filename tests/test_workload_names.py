"""Issue 29's "no module outside them names a workload", kept true: outside src/engbench/workloads/,
no module of engbench imports a workload's folder (engbench.workloads.<folder>, in any spelling:
absolute, relative, `from engbench.workloads import <folder>`) or holds a string literal that is a
workload's registry name or its folder's name (code that picks a workload by name; docstrings are
prose for the reader and are not checked, nor are longer strings that mention a workload in
words, such as a column's description or a source document's title). What a workload is, and
whatever the shared machinery does for only some workloads, is read from the registry
(engbench.registry, into which engbench.workloads hands the folders' entries and modules).

Read from the source with `ast`. The checker is tested on a made-up package first, so it cannot
pass by seeing nothing."""

import ast
from pathlib import Path

from engbench import paths, workloads

SRC = paths.REPO / "src" / "engbench"
NAMES = set(workloads.WORKLOADS)
FOLDERS = {f.__name__.rsplit(".", 1)[1] for f in workloads.FOLDERS}

# What must stay, each with why: (path relative to src/engbench, the literal) → how many times it
# stands there (one more is a finding; one fewer, a stale entry)
ALLOWED = {
    # the processed table of cache-pollution's phases is called cache_pollution: its name is a file of
    # data/processed (cache_pollution.csv, .parquet) and a resource of datapackage.json, shipped and
    # compared by `engbench verify`; the tables declare it with its columns and descriptions
    # (rows.EXTRA_TABLES, columns.py), and processed.py lists it among the optional tables
    ("tables/rows.py", "cache_pollution"): 2,
    ("tables/columns.py", "cache_pollution"): 2,
    ("tables/processed.py", "cache_pollution"): 1,
    # the same table's primary and foreign keys in datapackage.json, beside the other processed
    # tables' (PRIMARY_KEYS, FOREIGN_KEYS): its schema, as columns.py's entries are
    ("tables/datapackage.py", "cache_pollution"): 2,
    # source 004's published-vs-here table reads that processed table from the processed tables by
    # its file's name (proc["cache_pollution"]), as it reads runs, steps and loads
    ("report/published_vs.py", "cache_pollution"): 1,
    # so does the rulebook's measure of the hot reads' latency during the cold pass (cp_latency_during,
    # d8aa3752): the cold pass's window is a column of that table, beside the intervals table
    ("rulebook/measure.py", "cache_pollution"): 1,
    # the run directory's ycsb/ folder holds YCSB's own output formats (docs/run-format.md): named after
    # the tool whose formats it holds, part of the sealed run-directory format, not a pick of the
    # workload (which the registry's Workload.ycsb_format makes)
    ("run/ycsb_output.py", "ycsb"): 1,
}


def _docstrings(tree) -> set:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _module(root: Path, path: Path) -> tuple[list, bool]:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    is_pkg = parts[-1] == "__init__"
    return (parts[:-1] if is_pkg else parts), is_pkg


def _imported(module: list, is_pkg: bool, node) -> list[str]:
    """The dotted names an import statement reaches (each `from M import x` as M.x too)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module if is_pkg else module[:-1]
        base = base[: len(base) - (node.level - 1)]
        mod = ".".join(base + ([node.module] if node.module else []))
    else:
        mod = node.module or ""
    return [mod] + [f"{mod}.{a.name}" for a in node.names]


def literals(root: Path, rel: str, literal: str) -> int:
    """How many string constants of <root>/<rel> are ``literal``."""
    tree = ast.parse((root / rel).read_text())
    return sum(isinstance(n, ast.Constant) and n.value == literal for n in ast.walk(tree))


def findings(root: Path, names: set, folders: set, allowed: dict) -> list[str]:
    """Every place outside <root>/workloads/ that names a workload, as `path:line: what` (a literal
    of ``allowed`` only where its module holds more of it than allowed: then every one is named)."""
    pkg = root.name
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] == "workloads":
            continue
        tree = ast.parse(path.read_text())
        docs, (module, is_pkg) = _docstrings(tree), _module(root, path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                key = (rel.as_posix(), node.value)
                if (node.value in names or node.value in folders) and \
                        literals(root, *key) > allowed.get(key, 0):
                    out.append(f"{rel}:{node.lineno}: the string {node.value!r}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for dotted in _imported(module, is_pkg, node):
                    parts = dotted.split(".")
                    if parts[:2] == [pkg, "workloads"] and len(parts) > 2 and parts[2] in folders:
                        out.append(f"{rel}:{node.lineno}: imports {dotted}")
                        break
    return out


def test_no_module_outside_the_workload_folders_names_a_workload():
    found = findings(SRC, NAMES, FOLDERS, ALLOWED)
    assert not found, ("name the workload through the registry (engbench.registry: get, hook, ...), "
                       "or allow-list it above with the reason:\n" + "\n".join(found))


def test_every_allowed_name_is_still_there():
    """An allow-list entry whose literal left its module (or some of it) shrinks or goes too."""
    for (rel, literal), n in ALLOWED.items():
        assert literals(SRC, rel, literal) == n, (rel, literal, literals(SRC, rel, literal))


def test_the_checker_sees_what_it_should(tmp_path):
    root = tmp_path / "pkg"
    (root / "workloads" / "my_work").mkdir(parents=True)
    (root / "workloads" / "my_work" / "__init__.py").write_text('NAME = "my-work"\n')
    (root / "sub").mkdir()
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "a.py").write_text(
        '"""my-work, in prose."""\n'
        'from ..workloads import my_work\n'                   # 2: a relative import of a folder
        'from pkg.workloads.my_work import thing\n'          # 3
        'import pkg.workloads.my_work.report\n'              # 4
        'from pkg import workloads\n'                        # 5: the folders' package: the import contracts' concern
        'X = "my-work"\n'                                    # 6
        'Y = "my_work"\n'                                    # 7
        'Z = "the my-work steps, in words"\n'                # 8: prose: fine
        'W = "allowed"\n'                                    # 9: allowed once
        'def f():\n    """my-work."""\n    return "ok"\n')
    found = findings(root, {"my-work", "allowed"}, {"my_work"}, {("sub/a.py", "allowed"): 1})
    assert [f.split(":")[1] for f in found] == ["2", "3", "4", "6", "7"], found
    (root / "sub" / "a.py").write_text((root / "sub" / "a.py").read_text() + 'V = "allowed"\n')
    found = findings(root, {"my-work", "allowed"}, {"my_work"}, {("sub/a.py", "allowed"): 1})
    assert [f.split(":")[1] for f in found] == ["2", "3", "4", "6", "7", "9", "13"], found
