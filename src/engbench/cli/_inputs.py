"""Checks of the command line's own inputs, so that a bad one is refused in one sentence naming it
(and what to do) before anything is written, instead of a Python exception's text later."""

import argparse
import os
import tempfile
from pathlib import Path


def seconds(text: str) -> float:
    """argparse type of a duration in seconds: a number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}") from None
    if not value >= 0:  # also NaN
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def out_dir_problem(path, flag: str = "--out") -> str | None:
    """Why `path` cannot be the parent of new run directories (or output folder), or None when it can:
    an existing directory engbench may write in, or a path whose nearest existing parent is one. The
    check writes nothing that stays (a probe directory is made and removed at once)."""
    path = Path(path)
    existing = path
    while not existing.exists() and existing != existing.parent:
        if existing.is_symlink():  # a dangling link: mkdir would fail on it
            return f"{flag} {path}: {existing} is a broken symbolic link; give a directory"
        existing = existing.parent
    if not existing.is_dir():
        where = "is" if existing == path else f"is under {existing}, which is"
        return f"{flag} {path} {where} a file, not a directory; give a directory (it is created if missing)"
    try:
        probe = tempfile.mkdtemp(prefix=".engbench-probe-", dir=existing)
        os.rmdir(probe)
    except OSError as exc:
        return (f"{flag} {path}: cannot create directories in {existing} ({exc.strerror}); give a directory "
                f"on a writable file system")
    return None
