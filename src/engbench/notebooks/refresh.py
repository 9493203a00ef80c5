"""Re-executing the shipped-data notebooks in place (`engbench notebooks --refresh`), so that their
committed outputs show the shipped data as it is now; and the committed copy of that data, which
the strict notebook check reads (`go.sh test`).

Same data, same bytes: every notebook is read and saved as JupyterLab does (files.lab_read,
files.lab_save: a newer .py is taken into account, both files of the pair are written), its outputs
and execution counts are cleared, it is run top to bottom in a fresh kernel from its own folder
(nbclient; the kernel reached through Unix sockets, no port; no timing metadata; each cell's
stdout and stderr each merged into one output, in a fixed order), and only the
kernel's own metadata (language_info) is taken from the run. What the cells print is determined by
the data they read, and the charts are PNG images that vl-convert draws identically from the same
spec. A notebook whose execution fails is not written: the committed one stays as it was, and the
error names the cell."""

from __future__ import annotations

import os
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .. import paths
from .execute import IPCKernelManager
from .files import is_shipped_data, lab_read, lab_save, shipped_data

SHIPPED_PATHS = ("data/raw", "data/processed")  # what the shipped-data notebooks read besides data/published


class RefreshError(RuntimeError):
    """A shipped-data notebook failed to execute; it was left as it was."""


@contextmanager
def _environment(values: dict):
    """os.environ updated by `values` (None: unset) for the kernels started inside."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _clear(nb) -> None:
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None


def execute_in_place(path: Path, timeout: int = 900):
    """The notebook at `path`, read as JupyterLab reads it and executed top to bottom in a fresh
    kernel (cwd: its folder). Returns the executed notebook; raises RefreshError on a failing cell."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = Path(path)
    nb = lab_read(path)
    _clear(nb)
    with tempfile.TemporaryDirectory(prefix="engbench-kernel-") as sockets:  # absolute: any cwd
        km = IPCKernelManager(kernel_name="python3", ip=os.path.join(sockets, "kernel"))
        client = NotebookClient(nb, km=km, timeout=timeout, record_timing=False, coalesce_streams=True,
                                resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        except CellExecutionError as exc:
            raise RefreshError(f"{path.name}: {exc}") from None
        finally:  # nbclient leaves a kernel manager it was given running
            if km.has_kernel:
                km.shutdown_kernel(now=True)
    return nb


def refresh(names=None, folder: Path | None = None, raw_dir=None, processed_dir=None) -> list[Path]:
    """Re-execute the shipped-data notebooks of `folder` (default notebooks/; `names` restricts them)
    and save each in place. The kernels read `raw_dir` and `processed_dir` (default: $ENGBENCH_RAW_DIR
    and $ENGBENCH_PROCESSED_DIR, else data/raw and data/processed). Returns the notebooks written."""
    chosen = shipped_data(folder)
    if names:
        wanted = {n if n.endswith(".ipynb") else f"{n}.ipynb" for n in names}
        unknown = sorted(wanted - {p.name for p in chosen})
        if unknown:
            raise ValueError(f"not a shipped-data notebook: {', '.join(unknown)} "
                             f"(they are: {', '.join(p.name for p in chosen)})")
        chosen = [p for p in chosen if p.name in wanted]
    env = {"ENGBENCH_RAW_DIR": raw_dir or paths.raw_dir(), "ENGBENCH_PROCESSED_DIR": processed_dir or paths.processed_dir()}
    written = []
    with _environment(env):
        for path in chosen:
            assert is_shipped_data(path)
            lab_save(path, execute_in_place(path))
            written.append(path)
    return written


def export_shipped(dest: Path, repo: Path | None = None, what: tuple = SHIPPED_PATHS) -> Path:
    """The committed copy (git HEAD) of the shipped runs and tables (`what`, default SHIPPED_PATHS)
    under `dest`, as <dest>/data/raw and <dest>/data/processed; the working tree's when `repo` is
    not a git checkout (a source archive). The main job adds runs to data/raw and rebuilds
    data/processed, so the strict check of the shipped-data notebooks reads this copy, not the
    working tree (the tests of the shipped set export paper/build too)."""
    repo = Path(repo or paths.REPO)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "-q", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode != 0:
        for rel in what:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["cp", "-a", str(repo / rel), str(dest / rel)], check=True)
        return dest
    archive = subprocess.Popen(["git", "-C", str(repo), "archive", "--format=tar", "HEAD", "--", *what],
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-xf", "-", "-C", str(dest)], stdin=archive.stdout, check=True)
    archive.stdout.close()
    if archive.wait() != 0:
        raise RuntimeError(f"git archive of {', '.join(what)} at HEAD failed in {repo}")
    return dest
