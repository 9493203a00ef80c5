"""Set-up by need: the parts of `scripts/setup.sh` beyond what the main job needs, and how an
engbench command that needs one gets it.

    core      (always) build packages, sysstat, .venv, WiredTiger, the driver: `go.sh main` needs no more
    servers   MariaDB 10.11 + MyRocks, FerretDB: the server targets (mariadb-innodb, mariadb-myrocks)
    workflow  Slurm and munge: the workflow's slurm profile
    browser   Chromium and its driver: the paper's browser checks (tests only)
    tools     fio, sysbench, db_bench: `engbench calibrate`, `engbench reproduce` (its device
              calibration) and the reference tools of benchmarks/

`go.sh test` sets up every part. A command that needs a part calls `ensure(part, needed_for,
why_missing)`: when `why_missing()` names something missing and engbench runs as root from a
checkout that has scripts/setup.sh, it runs `bash scripts/setup.sh <part>` (saying so first, and
how long it takes from a bare machine), then asks again; otherwise it raises MissingPart naming the
command to run. Nothing is installed behind a user's back: the message comes before the install."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Callable

from . import paths

PARTS = {  # part → (what it installs, minutes from a bare machine, measured: README "Set-up by need")
    "servers": ("MariaDB 10.11 with MyRocks (Debian) and FerretDB v1.24.2 (built from its Go module)", 3),
    "workflow": ("Slurm and munge (Debian)", 1),
    "browser": ("Chromium and chromium-driver (Debian)", 1),
    "tools": ("fio, sysbench and RocksDB's db_bench (Debian)", 1),
}
SETUP = paths.REPO / "scripts" / "setup.sh"


class MissingPart(RuntimeError):
    """A part of the set-up that a command needs is missing and cannot be installed from here."""


def command(part: str) -> str:
    return f"bash {SETUP} {part}"


def ensure(part: str, needed_for: str, why_missing: Callable[[], str | None]) -> None:
    """Make sure `part` is installed before `needed_for` uses it (see the module docstring)."""
    if part not in PARTS:
        raise ValueError(f"unknown set-up part {part!r}; valid: {', '.join(PARTS)}")
    why = why_missing()
    if why is None:
        return
    what, minutes = PARTS[part]
    if os.geteuid() != 0 or not SETUP.is_file():
        raise MissingPart(f"{needed_for} needs {what}, which is missing here ({why}): run `{command(part)}` "
                          "as root")
    print(f"engbench: {needed_for} needs {what}, which is missing here ({why}); installing it with "
          f"`{command(part)}` (up to ~{minutes} min on a bare machine)", file=sys.stderr, flush=True)
    done = subprocess.run(["bash", str(SETUP), part], stdout=sys.stderr)
    still = why_missing()
    if done.returncode != 0 or still is not None:
        raise MissingPart(f"{needed_for}: `{command(part)}` "
                          + (f"failed (exit {done.returncode})" if done.returncode else f"ran, but still: {still}"))
