"""Which notebooks there are, of which kind, and writing one the way JupyterLab does.

Writing goes through jupytext's contents manager, the one `go.sh lab` serves the notebooks with
(jupytext's server extension puts it in front of Jupyter's file manager): it writes <name>.ipynb as
JupyterLab saves it (nbformat, indent 1, sorted keys) and the paired <name>.py from the same cells,
with the pairing of notebooks/jupytext.toml. So a notebook written by engbench (`refresh`) and the
same notebook saved in JupyterLab are the same bytes."""

from __future__ import annotations

from pathlib import Path

from .execute import NOTEBOOKS

# the notebooks that read the shipped runs and tables (data/raw, data/processed, data/published) and
# start no run: committed with their outputs, checked by strict nbval, re-executed by `refresh`
SHIPPED_DATA = ("check_published.ipynb", "findings.ipynb", "normalize.ipynb", "rum_tradeoffs.ipynb")


def all_notebooks(folder: Path | None = None) -> list[Path]:
    """Every notebook (<name>.ipynb) of `folder` (default notebooks/), by name."""
    return sorted(Path(folder or NOTEBOOKS).glob("*.ipynb"))


def is_shipped_data(path: Path) -> bool:
    return Path(path).name in SHIPPED_DATA


def shipped_data(folder: Path | None = None) -> list[Path]:
    """The shipped-data notebooks of `folder` (committed with outputs; strict nbval)."""
    return [p for p in all_notebooks(folder) if is_shipped_data(p)]


def run_side(folder: Path | None = None) -> list[Path]:
    """The other notebooks (they start runs: committed without outputs; nbval in lax mode)."""
    return [p for p in all_notebooks(folder) if not is_shipped_data(p)]


def contents_manager(root: Path):
    """JupyterLab's contents manager with jupytext's pairing, rooted at `root` (as `go.sh lab`
    roots it at notebooks/)."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext import build_sync_jupytext_contents_manager_class

    return build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(root))


def lab_read(path: Path):
    """The notebook at `path` as JupyterLab opens it (through the pairing: when the .py is newer
    its cells are read, with the outputs of the .ipynb)."""
    path = Path(path)
    return contents_manager(path.parent).get(path.name, content=True)["content"]


def lab_save(path: Path, nb) -> None:
    """Save `nb` (an nbformat notebook) at `path` as JupyterLab does: <name>.ipynb and its paired
    <name>.py."""
    path = Path(path)
    contents_manager(path.parent).save({"type": "notebook", "format": "json", "content": nb}, path.name)
