"""engbench: reproducible storage-engine benchmarks.

The package owns everything around the workloads: parameters, runs and their captures, parsing,
normalization, reports. Workload operations run in the compiled driver (see docs/driver.md).
"""

__version__ = "0.1.0"
