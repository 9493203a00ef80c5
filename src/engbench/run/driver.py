"""The Python side of the driver contract (docs/driver.md): describe, validate, start a run.

The driver is the single authority on engines, workloads and their parameters: engbench asks it
to validate a config before anything is created on disk."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from .. import paths
from .children import die_with_parent


class DriverMissing(RuntimeError):
    pass


class InvalidConfig(ValueError):
    """The driver refused the config; the message lists the valid choices."""


def executable() -> Path:
    path = paths.driver_path()
    if not os.access(path, os.X_OK):
        raise DriverMissing(
            f"the compiled driver is not at {path}; run `bash scripts/setup.sh` (or set ENGBENCH_DRIVER)"
        )
    return path


@lru_cache(maxsize=None)
def describe() -> dict:
    """Engines (availability, library version, knobs) and workloads (params), from the driver."""
    out = subprocess.run([str(executable()), "describe"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def engine_names() -> list[str]:
    return [e["name"] for e in describe()["engines"]]


def knob_namespaces() -> dict[str, str]:
    """Engine or target name → the namespace of its knobs (`<namespace>.<knob>`), as the driver's
    `describe` states it (wiredtiger-lsm shares wiredtiger's, both MariaDB targets `mariadb`)."""
    d = describe()
    return {e["name"]: e["knob_namespace"] for e in [*d["engines"], *d.get("targets", [])]}


def knob_namespace(engine: str) -> str | None:
    """The knob namespace of `engine`; None for a name the driver does not know."""
    return knob_namespaces().get(engine)


def validate(config: dict) -> dict:
    """Return the resolved config (defaults filled) or raise InvalidConfig with the driver's words.

    The config is handed over in a temporary file outside the data directories, so a refused
    config leaves nothing behind."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="engbench-config-") as f:
        json.dump(config, f)
        f.flush()
        out = subprocess.run([str(executable()), "validate", f.name], capture_output=True, text=True)
    if out.returncode == 2:
        raise InvalidConfig(out.stderr.strip() or "invalid config")
    if out.returncode != 0:
        raise RuntimeError(f"engbench-driver validate failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def start(config_path: Path, stdout, stderr, text: bool = True, cwd=None) -> subprocess.Popen:
    """Start `engbench-driver run CONFIG` in its own session, so that a terminal's Ctrl-C reaches
    engbench only and engbench decides how each child is stopped; in `cwd` when given (a run's
    driver works in its data directory, with relative paths)."""
    return subprocess.Popen(
        [str(executable()), "run", str(config_path)],
        cwd=cwd,
        stdout=stdout,
        stderr=stderr,
        text=text,
        bufsize=1,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
