"""The workflow through the Slurm profile on a real one-node cluster (issue 14): Debian's munged,
slurmctld and slurmd started here on loopback (tests/slurm_cluster.py) and stopped after. Each run
is a Slurm job holding the whole node; process and report run on the submitting side. Accounting
has no slurmdbd: the jobs are checked in the job-completion log through `sacct --completion`."""

import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import slurm_cluster
import workflow_run as wf
from engbench.run import rundir
from conftest import WORKFLOW

pytestmark = [pytest.mark.skipif(not all(shutil.which(d) for d in ("slurmctld", "slurmd", "munged")),
                                reason="Slurm/munge not installed (scripts/setup_workflow.sh)"), WORKFLOW]

SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+) \(log: \S*/rule_run/([^/]+)/")


@pytest.fixture
def cluster_dir():
    """A short directory for the cluster: slurmd makes each job step's Unix socket in its spool
    directory, and a socket path holds at most 108 bytes. Under pytest-xdist tmp_path is
    /tmp/pytest-of-root/pytest-N/popen-gw0/test_a_tiny_matrix_runs_as_exc0/, and the step socket's
    path was 110 bytes: the jobs' launch failed and sat held until the test's 600 s ran out (CI)."""
    d = Path(tempfile.mkdtemp(prefix="ebslurm-"))
    yield d / "cluster"
    shutil.rmtree(d, ignore_errors=True)


def test_a_tiny_matrix_runs_as_exclusive_slurm_jobs(tmp_path, cluster_dir):
    exp = wf.write_experiment(tmp_path / "tiny.yaml", repeat=1)
    root = tmp_path / "wf"
    root.mkdir()
    with slurm_cluster.Cluster(cluster_dir) as cluster:
        argv = wf.command(root, exp, "slurm", "--slurm-status-command", "squeue",
                          "--slurm-init-seconds-before-status-checks", "2")
        out = subprocess.run(argv, cwd=root, env=wf.env(root, cluster.env),
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-4000:] + cluster.logs()
        jobs = {key: job for job, key in SUBMITTED.findall(out.stderr)}
        completion = cluster.run(["sacct", "--completion", "--parsable2", "--noheader",
                                  "--format=JobID,State,NodeList,AllocCPUS,Start,End"]).stdout
    assert sorted(jobs) == ["tiny.lmdb.r1", "tiny.sqlite.r1"]  # runs only: process and report stayed local
    rows = {r.split("|")[0]: r.split("|") for r in completion.splitlines()}
    assert sorted(rows) == sorted(jobs.values())
    runs = wf.workflow_runs(root / "raw")
    assert sorted(runs) == sorted(jobs)
    for key, job in jobs.items():
        _, state, node, cpus, start, end = rows[job]
        assert (state, node) == ("COMPLETED", slurm_cluster.NODE)
        assert int(cpus) == os.cpu_count()  # asked for one CPU, got the whole node (--exclusive)
        (manifest,) = runs[key]
        assert manifest["status"] == "ok" and rundir.check(root / "raw" / manifest["run_id"]) == []
        # the run happened inside its job (Slurm's times are whole seconds, local time)
        assert start <= _local(manifest["started_utc"]) and _local(manifest["ended_utc"])[:19] <= end
    starts = sorted((rows[j][4], rows[j][5]) for j in jobs.values())
    assert starts[1][0] >= starts[0][1]  # one node, exclusive: the second job waited for the first
    assert (root / "processed" / "runs.csv").is_file()
    assert (root / "paper" / "build" / "paper.html").stat().st_size > 1000


def _local(iso_utc: str) -> str:
    """An ISO UTC time as Slurm prints times (local time, seconds)."""
    t = dt.datetime.fromisoformat(iso_utc.replace("Z", "+00:00")).astimezone()
    return t.strftime("%Y-%m-%dT%H:%M:%S")
