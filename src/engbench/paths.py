"""Where things are: the repository, the data directories and the compiled driver.

Every location can be moved with an environment variable, so tests and reviewers can point engbench
at a scratch area without touching the repository's own data."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _env_path(var: str, default: Path) -> Path:
    value = os.environ.get(var)
    return Path(value).resolve() if value else default


def raw_dir() -> Path:
    """Run directories (ENGBENCH_RAW_DIR, default data/raw)."""
    return _env_path("ENGBENCH_RAW_DIR", REPO / "data" / "raw")


def processed_dir() -> Path:
    """Processed tables (ENGBENCH_PROCESSED_DIR, default data/processed)."""
    return _env_path("ENGBENCH_PROCESSED_DIR", REPO / "data" / "processed")


def work_dir() -> Path:
    """Engine data files during a run (ENGBENCH_WORK_DIR, default data/work; not committed)."""
    return _env_path("ENGBENCH_WORK_DIR", REPO / "data" / "work")


def driver_path() -> Path:
    """The compiled driver (ENGBENCH_DRIVER, default build/engbench-driver made by scripts/setup.sh)."""
    return _env_path("ENGBENCH_DRIVER", REPO / "build" / "engbench-driver")
