"""The project's notebooks (notebooks/): what they call, and what keeps them true.

Every notebook is a jupytext pair, <name>.ipynb and <name>.py (percent format; notebooks/jupytext.toml),
edited in JupyterLab or as text. Two kinds (files.py):

- run-side notebooks (iibench, sysbench_update, ...) start benchmark runs: committed without
  outputs, checked by `pytest --nbval-lax`; `execute` (execute.py) runs one through papermill and
  keeps the executed copy inside each run directory it wrote;
- shipped-data notebooks (SHIPPED_DATA: findings, rum_tradeoffs, normalize, check_published) read the
  shipped runs and tables: committed *with* their outputs, checked by strict `pytest --nbval`, and
  re-executed in place by `refresh` (refresh.py, `engbench notebooks --refresh`) when the data change.

The notebooks call `setup()` (charts as static PNG images drawn by vl-convert: no network, visible
on any git host), `summary`, and the charts `compare`, `sweep`, `overview` and `counts`
(display.py). `problems` (rules.py) is every
rule a notebook must keep, as the tests check it."""

from .display import by_experiment, compare, counts, overview, setup, summary, sweep
from .execute import NOTEBOOKS, IPCKernelManager, NotebookParameterError, execute, notebook_parameters
from .files import SHIPPED_DATA, all_notebooks, is_shipped_data, lab_save, run_side, shipped_data

__all__ = ["NOTEBOOKS", "SHIPPED_DATA", "IPCKernelManager", "NotebookParameterError", "all_notebooks",
           "by_experiment", "compare", "counts", "overview", "execute", "is_shipped_data", "lab_save", "notebook_parameters", "run_side", "setup",
           "shipped_data", "summary", "sweep"]
