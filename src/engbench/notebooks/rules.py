"""The rules every notebook keeps, as one function the tests (tests/test_notebooks.py) and
`engbench notebooks --check` call: `problems(path)` lists what is wrong with one notebook.

Every notebook:
- is a pair: <name>.py holds exactly what jupytext writes from <name>.ipynb with the pairing of
  notebooks/jupytext.toml (JupyterLab writes both on save; else `jupytext --sync`);
- has exactly one code cell tagged `parameters` (papermill's), of assignments of literals only;
- explains itself: at least one markdown cell;
- is thin: no function or class defined in a cell (that logic belongs in the package, with a
  test), and no code cell longer than MAX_CELL_LINES lines;
- shows its charts as images: it calls `notebooks.setup()` (engbench.notebooks.display).

A run-side notebook is committed without outputs and execution counts. A shipped-data notebook
(files.SHIPPED_DATA) is committed executed, top to bottom: every code cell has an execution count,
in increasing order, no cell's output is an error, its charts are PNG images (no JavaScript or
vega-lite output, which a git host does not draw), at least one chart is there, and no output holds
this checkout's path (it would differ in every clone)."""

from __future__ import annotations

import ast
from pathlib import Path

from .. import paths
from .files import is_shipped_data

MAX_CELL_LINES = 20
SCRIPT_MIMES = ("application/javascript", "application/vnd.vegalite", "application/vnd.vega")


def _code(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def pairing_problems(path: Path, nb) -> list[str]:
    """The .py of the pair is what jupytext writes from the .ipynb (notebooks/jupytext.toml)."""
    import jupytext
    from jupytext.config import find_jupytext_configuration_file, load_jupytext_configuration_file

    found = find_jupytext_configuration_file(str(path.parent))
    if not found:
        return [f"no jupytext.toml next to {path.name} (or above it): the pairing is not configured"]
    config = load_jupytext_configuration_file(found)
    formats = str(config.formats)
    if "ipynb" not in formats or "py:percent" not in formats:
        return [f"{found}: formats {formats!r} does not pair ipynb with py:percent"]
    py = path.with_suffix(".py")
    if not py.is_file():
        return [f"{py.name} is missing: pair the notebook (`jupytext --sync {path.name}`)"]
    expected = jupytext.writes(nb, fmt="py:percent", config=config)
    if py.read_text() != expected:
        return [f"{py.name} and {path.name} differ: save the notebook in JupyterLab, or run "
                f"`.venv/bin/jupytext --sync notebooks/{path.name}` (the newer file wins)"]
    return []


def parameter_problems(nb) -> list[str]:
    params = [c for c in _code(nb) if "parameters" in c.metadata.get("tags", [])]
    if len(params) != 1:
        return [f"{len(params)} cells tagged `parameters` (exactly one)"]
    out = []
    for stmt in ast.parse(params[0].source).body:
        if not isinstance(stmt, ast.Assign):
            out.append(f"parameters cell: not an assignment: {ast.unparse(stmt)[:60]}")
            continue
        try:
            ast.literal_eval(stmt.value)
        except ValueError:
            out.append(f"parameters cell: not a literal: {ast.unparse(stmt)[:60]}")
    return out


def thin_problems(nb) -> list[str]:
    out, calls_setup = [], False
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = [ln for ln in cell.source.splitlines() if ln.strip()]
        if len(lines) > MAX_CELL_LINES:
            out.append(f"cell {i}: {len(lines)} lines (at most {MAX_CELL_LINES}: move the logic into engbench)")
        try:
            tree = ast.parse(cell.source)
        except SyntaxError as exc:
            out.append(f"cell {i}: not Python: {exc.msg}")
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(f"cell {i}: defines {node.name} (functions and classes belong in engbench)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setup" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "notebooks":
                calls_setup = True
    if not any(c.cell_type == "markdown" for c in nb.cells):
        out.append("no markdown cell: say what is measured and why")
    if not calls_setup:
        out.append("never calls notebooks.setup(): its charts would need JavaScript and a network")
    return out


def output_problems(path: Path, nb) -> list[str]:
    code = _code(nb)
    if not is_shipped_data(path):
        if any(c.outputs or c.execution_count is not None for c in code):
            return ["a run-side notebook is committed without outputs: clear them "
                    "(JupyterLab: Edit > Clear Outputs of All Cells) and save"]
        return []
    out = []
    counts = [c.execution_count for c in code]
    if None in counts or counts != sorted(counts) or len(set(counts)) != len(counts):
        out.append(f"not executed top to bottom (execution counts {counts}): "
                   "`engbench notebooks --refresh` (or Kernel > Restart Kernel and Run All Cells, then save)")
    images, here = 0, str(paths.REPO)
    for i, cell in enumerate(code):
        for o in cell.outputs:
            if o.output_type == "error":
                out.append(f"code cell {i}: its output is an error ({o.get('ename')})")
            data = o.get("data", {})
            images += "image/png" in data
            scripts = [m for m in data if m.startswith(SCRIPT_MIMES) or
                       (m == "text/html" and "<script" in str(data[m]))]
            if scripts:
                out.append(f"code cell {i}: output needs JavaScript ({', '.join(scripts)}): call notebooks.setup() first")
            text = o.get("text", "") + "".join(str(v) for m, v in data.items() if m.startswith("text/"))
            if here in text:
                out.append(f"code cell {i}: output holds this checkout's path {here}")
    if not images:
        out.append("no chart among the outputs (a PNG image)")
    return out


def problems(path: Path) -> list[str]:
    """Everything wrong with the notebook at `path` (empty: it keeps every rule)."""
    import nbformat

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    return [f"{path.name}: {p}" for p in
            pairing_problems(path, nb) + parameter_problems(nb) + thin_problems(nb) + output_problems(path, nb)]
