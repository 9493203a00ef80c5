"""Test-wide setup: every run, processed table and engine file goes to a scratch area, never to
the repository's data/ (notebooks executed by nbval inherit these variables through their
kernel's environment)."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_SCRATCH = Path(tempfile.mkdtemp(prefix="engbench-tests-"))
# An xdist worker inherits the controller's scratch variables: it takes its own (the first session to
# end removes its scratch), keeping only a directory the user set before the tests started.
_INHERITED = os.environ.get("ENGBENCH_TEST_SCRATCH")
for _var, _sub in (("ENGBENCH_RAW_DIR", "raw"), ("ENGBENCH_PROCESSED_DIR", "processed"),
                   ("ENGBENCH_WORK_DIR", "work")):
    if _var not in os.environ or (_INHERITED and os.environ[_var].startswith(_INHERITED)):
        os.environ[_var] = str(_SCRATCH / _sub)
os.environ["ENGBENCH_TEST_SCRATCH"] = str(_SCRATCH)


def pytest_sessionfinish(session, exitstatus):
    # run directories are sealed read-only: make them writable again to remove them
    for root, dirs, _files in os.walk(_SCRATCH):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    shutil.rmtree(_SCRATCH, ignore_errors=True)


# Tests that measure the device or the page cache, or drop the page cache (which empties it for every
# other test too), run one after another on one xdist worker (`--dist loadgroup`): beside them the
# other worker runs anything else, which adds CPU and disk noise but never drops their caches.
DEVICE = pytest.mark.xdist_group("device")
# Tests that run the workflow (Snakemake, locally or on the one-node Slurm cluster) or the main job
# (the fresh-clone check) take the machine's benchmark lock (engbench.matrix.machine_lock) run after run: one after another, on one worker.
WORKFLOW = pytest.mark.xdist_group("workflow")


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


@pytest.fixture(scope="session")
def shipped(tmp_path_factory) -> Path:
    """The shipped runs, processed tables and paper as committed (HEAD), exported once per test run:
    what the main job adds to the working tree never makes the tests of the shipped set fail."""
    from engbench.notebooks.refresh import export_shipped
    return export_shipped(tmp_path_factory.mktemp("shipped"), what=("data/raw", "data/processed", "paper/build"))
