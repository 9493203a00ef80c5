"""Where things are: the repository, the data directories and the compiled driver.

Every location can be moved with an environment variable, so tests and reviewers can point engbench
at a scratch area without touching the repository's own data."""

import os
import re
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


def placeholders(obj, run_dir: Path | None = None):
    """`obj` (a manifest, a server's description) with this machine's absolute paths as placeholders:
    the run directory's parent `<raw>`, the work directory `<work>`, the checkout `<repo>` (longest
    first, whole path components only), so that what engbench writes says nothing of the machine's
    layout. Lists and tuples come back as lists; other values unchanged."""
    places = {str(REPO): "<repo>", str(work_dir()): "<work>", str(raw_dir()): "<raw>"}
    if run_dir is not None:
        places[str(Path(run_dir).resolve().parent)] = "<raw>"
    pattern = re.compile("|".join(re.escape(p) + r"(?![\w.-])" for p in sorted(places, key=len, reverse=True)))

    def walk(o):
        if isinstance(o, str):
            return pattern.sub(lambda m: places[m.group(0)], o)
        if isinstance(o, dict):
            return {walk(k): walk(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [walk(v) for v in o]
        return o
    return walk(obj)
