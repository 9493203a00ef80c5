"""Executing the project's notebooks through papermill, so each executed notebook is kept inside
the run directories it produced.

Runs started inside the notebook are not sealed by themselves (SEAL_LATER_ENV): after papermill
has written the executed notebook, it is copied into each of those run directories as
`notebook.ipynb`, and only then is each directory sealed (SHA256SUMS, read-only). If the notebook
fails, its runs are sealed all the same, with the notebook as far as it got.

The kernel talks to papermill over Unix sockets (IPC transport) rather than loopback TCP: nothing
listens on a port, and the kernel has no reason to warn that its TCP traffic is unencrypted.
Parameters are checked against the notebook's `parameters` cell before it starts: a name the
notebook does not declare is refused (papermill would only log it), except `workload`, which an
experiment file may carry as a label and which must then name the notebook's own workload."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from pathlib import Path

import papermill
import yaml
from jupyter_client.manager import KernelManager
from jupyter_core.paths import jupyter_runtime_dir
from traitlets import CaselessStrEnum, default

from .. import paths
from ..run import rundir
from ..run.servers.redact import redact
from ..run.runs import SEAL_LATER_ENV

NOTEBOOKS = paths.REPO / "notebooks"


class IPCKernelManager(KernelManager):
    """A kernel reached through Unix sockets in Jupyter's runtime directory instead of loopback TCP.
    (jupyter_client's default puts them in the working directory, notebooks/, as kernel-ipc-N: a
    test copying notebooks/ beside a running kernel failed on the sockets.)"""

    transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    @default("ip")
    def _ip_default(self) -> str:
        if self.transport != "ipc":
            return super()._ip_default()
        runtime = Path(jupyter_runtime_dir())
        runtime.mkdir(parents=True, exist_ok=True)
        return str(runtime / f"engbench-kernel-{uuid.uuid4().hex[:12]}-ipc")


class NotebookParameterError(ValueError):
    """A parameter the notebook does not declare: refused before the notebook starts."""


def notebook_parameters(notebook: Path, parameters: dict) -> dict:
    """`parameters` restricted to what `notebook` declares in its parameters cell.

    A `workload` key the notebook does not declare is dropped when it names the notebook's own
    workload (file stem with '_' read as '-'); any other undeclared name raises
    NotebookParameterError naming the declared ones."""
    declared = set(papermill.inspect_notebook(str(notebook)))
    out = dict(parameters)
    own = Path(notebook).stem.replace("_", "-")
    if "workload" in out and "workload" not in declared:
        if str(out["workload"]) != own:
            raise NotebookParameterError(
                f"{Path(notebook).name} runs workload {own!r}, not {out['workload']!r}")
        del out["workload"]
    unknown = sorted(set(out) - declared)
    if unknown:
        raise NotebookParameterError(
            f"{Path(notebook).name} has no parameter(s) {', '.join(unknown)}; "
            f"it takes: {', '.join(sorted(declared))}")
    return out


def execute(notebook: Path, params_file: Path | None = None, overrides: dict | None = None,
            log_output: bool = False) -> tuple[list[Path], Exception | None]:
    """Run `notebook` with the parameters of `params_file` (an experiment YAML) updated by
    `overrides`. Returns the run directories it wrote and the notebook's error, if any."""
    parameters = yaml.safe_load(Path(params_file).read_text()) if params_file else {}
    parameters.update(overrides or {})
    parameters = notebook_parameters(notebook, parameters)
    with tempfile.TemporaryDirectory(prefix="engbench-nb-") as tmp:
        listing = Path(tmp) / "runs.txt"
        listing.touch()
        executed = Path(tmp) / Path(notebook).name
        old = os.environ.get(SEAL_LATER_ENV)
        os.environ[SEAL_LATER_ENV] = str(listing)
        error = None
        try:
            papermill.execute_notebook(str(notebook), str(executed), parameters=parameters,
                                       cwd=str(NOTEBOOKS), log_output=log_output, progress_bar=False,
                                       kernel_manager_class=IPCKernelManager)
        except Exception as exc:  # papermill saves the notebook up to the failing cell
            error = exc
        finally:  # also on Ctrl-C: the runs that finished are sealed, with the notebook so far
            if old is None:
                os.environ.pop(SEAL_LATER_ENV, None)
            else:
                os.environ[SEAL_LATER_ENV] = old
            run_dirs = [Path(line) for line in listing.read_text().splitlines() if line.strip()]
            if executed.exists():  # papermill records the parameters: secrets must not reach the runs
                executed.write_text(json.dumps(redact(json.loads(executed.read_text())), indent=1) + "\n")
            for run_dir in run_dirs:
                if executed.exists():
                    shutil.copyfile(executed, run_dir / "notebook.ipynb")
                rundir.seal(run_dir)
    return run_dirs, error
