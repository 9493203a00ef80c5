"""The newcomer's path, as a new user takes it: the README's commands on fresh clones of this
repository, in either order and more than once, with two clones side by side.

The clones are made from HEAD (what a user would clone), so these tests check committed code. The
long one runs `go.sh main`, the smoke tests and `go.sh main` again inside its clone; that inner run
deselects the tests of this file (ENGBENCH_INNER_CLONE), or it would clone again without end."""

import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from engbench import paths
from conftest import WORKFLOW

# its main jobs take the machine's benchmark lock, as the workflow tests do: one group, one worker
# (beside it on the other worker the Slurm test's jobs waited for the lock past their 600 s in CI)
pytestmark = [pytest.mark.newcomer, WORKFLOW]
NOISE = ("Passed unknown parameter", "without encryption", "Traceback")


def clean_env(**extra) -> dict:
    """The environment a user's shell would have: none of this test session's ENGBENCH_* scratch
    directories (the cache location stays), no pytest variables."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("ENGBENCH_") and k != "ENGBENCH_CACHE") and not k.startswith("PYTEST")}
    env.update(extra)
    return env


def clone(dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(paths.REPO), str(dest)], check=True)
    return dest


def sh(cwd: Path, *cmd, timeout=1800, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", *cmd], cwd=cwd, env=clean_env(**extra), capture_output=True, text=True,
                          timeout=timeout)


def test_two_clones_each_run_their_own_code(tmp_path):
    a, b = clone(tmp_path / "a"), clone(tmp_path / "b")
    init = b / "src" / "engbench" / "__init__.py"
    init.write_text(init.read_text() + "\nCLONE_MARK = 'b'\n")
    for repo in (a, b, a, b):  # set-up alternating, as two users on one machine would
        out = sh(repo, "scripts/setup.sh", timeout=1800)
        assert out.returncode == 0, out.stderr[-3000:]
    for repo, mark in ((a, "None"), (b, "b")):
        probe = "import engbench; print(engbench.__file__); print(getattr(engbench, 'CLONE_MARK', None))"
        out = subprocess.run([str(repo / ".venv" / "bin" / "python"), "-c", probe], capture_output=True,
                             text=True, env=clean_env(), check=True)
        file, got = out.stdout.split()
        assert Path(file).is_relative_to(repo / "src"), (repo, file)
        assert got == mark
        cli = subprocess.run([str(repo / ".venv" / "bin" / "engbench"), "--help"], capture_output=True,
                             text=True, env=clean_env(), cwd=tmp_path)
        assert cli.returncode == 0 and "COMMAND" in cli.stdout
        assert not (repo / ".venv").is_symlink(), "each checkout has its own environment"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def test_the_lab_command_serves_the_notebooks_with_this_checkouts_kernel(tmp_path):
    port, token = _free_port(), "engbench-test-token"
    proc = subprocess.Popen(["bash", "scripts/go.sh", "lab", f"--port={port}", "--ServerApp.port_retries=0",
                             f"--IdentityProvider.token={token}"], cwd=paths.REPO, env=clean_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}/api"
    try:
        deadline, contents = time.monotonic() + 120, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                contents = _get_json(f"{base}/contents?token={token}")
                break
            except OSError:
                time.sleep(0.5)
        assert contents is not None, "JupyterLab did not answer"
        names = {c["name"] for c in contents["content"]}
        assert {"iibench.ipynb", "linkbench.ipynb", "params"} <= names
        specs = _get_json(f"{base}/kernelspecs?token={token}")
        assert specs["kernelspecs"][specs["default"]]["spec"]["language"] == "python"
        # go.sh execs jupyter: the server is this checkout's .venv interpreter, and the default kernel
        # (argv `python`) is started with the server's own interpreter
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
        assert cmdline[0].decode() == str(paths.REPO / ".venv" / "bin" / "python"), cmdline
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


@pytest.mark.slow  # about 5 min: the slow tier (go.sh slow, which .ci/run runs after go.sh test)
def test_main_then_test_then_main_on_a_fresh_clone(tmp_path):
    """The README's two commands in both orders on one clone: go.sh main (sets up the core, adds runs,
    rebuilds data/processed and the paper), then go.sh test on the tests marked `smoke` (the commands
    work, the shipped set still verifies beside the new runs, a real run seals), then go.sh main
    again. The whole suite is this suite: running it again inside the clone (as before 2026-11-26:
    2,134 s of a 64-min test command) would test nothing more about the clone."""
    repo = clone(tmp_path / "fresh")
    first = sh(repo, "scripts/go.sh", "main")
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-4000:]
    for noise in NOISE:
        assert noise not in first.stdout + first.stderr, noise
    assert "docs/s" in first.stdout and "paper:" in first.stdout
    suite = sh(repo, "scripts/go.sh", "test", "-q", "-p", "no:cacheprovider", "-m", "smoke", timeout=1800,
               ENGBENCH_INNER_CLONE="1")
    tail = suite.stdout[-4000:]
    assert suite.returncode == 0, tail + suite.stderr[-2000:]
    summary = re.findall(r"^=* ?(\d+) passed.*$", tail, re.M)
    # every smoke test ran and passed (deselecting all would pass too): as many as the clone marks
    marked = subprocess.run([str(repo / ".venv" / "bin" / "python"), "-m", "pytest", "--collect-only", "-q", "-m",
                             "smoke", "-p", "no:cacheprovider", "tests"], cwd=repo, env=clean_env(),
                            capture_output=True, text=True)
    n_marked = int(re.search(r"^(\d+)/\d+ tests collected", marked.stdout, re.M).group(1))
    assert summary and int(summary[-1]) == n_marked >= 7, (tail, marked.stdout[-500:])
    assert "skipped" not in tail.splitlines()[-1], tail
    # main again, on the tiny experiment file: the same notebook, processing and paper build, shorter
    again = sh(repo, "scripts/go.sh", "main", "--params", "notebooks/params/iibench_tiny.yaml")
    assert again.returncode == 0, again.stderr[-4000:]
    assert "paper:" in again.stdout
    runs = [p for p in (repo / "data" / "raw").iterdir() if (p / "manifest.json").exists()]
    shipped = subprocess.run(["git", "-C", str(repo), "ls-tree", "-d", "--name-only", "HEAD", "data/raw/"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert len(runs) == len(shipped) + 2 * 5, "two main jobs of five engines beside the shipped runs"
