"""engbench: reproducible storage-engine benchmarks.

The package owns everything around the workloads: parameters, runs and their captures, parsing,
normalization, reports. Workload operations run in the compiled driver (see docs/driver.md).

This file is the composition root: importing engbench hands the workload folders
(engbench.workloads) to the registry the shared machinery reads (engbench.registry), so every
entry point (the command, the notebooks, the workflow, the tests) sees the same workloads.
"""

from . import workloads  # noqa: F401 (installs the workload folders: engbench.registry.install)
from .version import __version__  # noqa: F401
