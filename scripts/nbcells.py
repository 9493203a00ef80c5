"""Cell helpers shared by the notebook generators (scripts/make_notebooks.py,
scripts/make_workload_notebooks.py): markdown and code cells, and saving with stable cell ids.
The notebooks go to the repository's notebooks/, or to $ENGBENCH_NOTEBOOKS_OUT when set (the test
that regenerates them and compares with the committed files: tests/test_notebooks.py)."""

import os
from pathlib import Path

import nbformat as nbf

NOTEBOOKS = Path(os.environ.get("ENGBENCH_NOTEBOOKS_OUT") or Path(__file__).resolve().parents[1] / "notebooks")


def md(text):
    return nbf.v4.new_markdown_cell(text.strip())


def code(text, tags=()):
    cell = nbf.v4.new_code_cell(text.strip())
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def save(name, cells):
    nb = nbf.v4.new_notebook()
    for i, cell in enumerate(cells):  # stable ids: regenerating a notebook changes only what changed
        cell["id"] = f"{Path(name).stem}-{i}"
    nb.cells = cells
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    NOTEBOOKS.mkdir(parents=True, exist_ok=True)
    nbf.write(nb, NOTEBOOKS / name)
