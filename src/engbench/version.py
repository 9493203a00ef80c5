"""The package's version (pyproject.toml's), recorded in every run's manifest (run.machine)."""

__version__ = "0.1.0"
