"""Test-wide setup: every run, processed table and engine file goes to a scratch area, never to
the repository's data/ (notebooks executed by nbval inherit these variables through their
kernel's environment)."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_SCRATCH = Path(tempfile.mkdtemp(prefix="engbench-tests-"))
for _var, _sub in (("ENGBENCH_RAW_DIR", "raw"), ("ENGBENCH_PROCESSED_DIR", "processed"),
                   ("ENGBENCH_WORK_DIR", "work")):
    os.environ.setdefault(_var, str(_SCRATCH / _sub))


def pytest_sessionfinish(session, exitstatus):
    # run directories are sealed read-only: make them writable again to remove them
    for root, dirs, _files in os.walk(_SCRATCH):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    shutil.rmtree(_SCRATCH, ignore_errors=True)


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """Per-test data directories."""
    for var, sub in (("ENGBENCH_RAW_DIR", "raw"), ("ENGBENCH_PROCESSED_DIR", "processed"),
                     ("ENGBENCH_WORK_DIR", "work")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    yield tmp_path
    for root, dirs, _files in os.walk(tmp_path):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)


def pytest_collection_modifyitems(config, items):
    """Inside the clone that tests/test_newcomer.py runs the suite in, its own tests are deselected
    (they would clone and run the suite again, without end); everywhere else they run."""
    if not os.environ.get("ENGBENCH_INNER_CLONE"):
        return
    keep = [i for i in items if i.get_closest_marker("newcomer") is None]
    deselected = [i for i in items if i.get_closest_marker("newcomer") is not None]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = keep
