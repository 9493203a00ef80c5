"""A one-node Slurm cluster on loopback for the tests: Debian's munged, slurmctld and slurmd, run as
root in the foreground with every file (munge key and socket, slurm.conf, state, spool, logs, the
job-completion log) in one temporary directory, on free ports; stopped (by their pids) on exit,
also when starting failed. Accounting: no slurmdbd (`accounting_storage/none`); finished jobs are
written by `jobcomp/filetxt` to the completion log, which `sacct --completion` reads.

Client commands find the cluster through SLURM_CONF (nothing is written to /etc/slurm). The Slurm
executor's job step removes every SLURM_* variable before it calls `srun` inside a job, so `env`
puts a two-line `srun` first on PATH that sets SLURM_CONF again and execs the real /usr/bin/srun
(a cluster with /etc/slurm/slurm.conf needs nothing of the kind)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

NODE = "engbench1"

CONF = """\
ClusterName=engbench
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={root}/munge.socket
StateSaveLocation={root}/ctld
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={root}/jobcomp.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=4000 State=UNKNOWN
PartitionName=bench Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.conf = self.root / "slurm.conf"
        self.procs: list[subprocess.Popen] = []
        bin_dir = self.root / "bin"
        self.env = {**os.environ, "SLURM_CONF": str(self.conf), "PATH": f"{bin_dir}:{os.environ['PATH']}"}

    def __enter__(self) -> "Cluster":
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def _daemon(self, argv: list[str], log: str) -> None:
        out = open(self.root / log, "ab")
        self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                           start_new_session=True))
        out.close()

    def _start(self) -> None:
        for d in ("ctld", "spool"):
            (self.root / d).mkdir(parents=True)
        (self.root / "bin").mkdir()
        srun = self.root / "bin" / "srun"
        srun.write_text(f'#!/bin/sh\nSLURM_CONF={self.conf} exec /usr/bin/srun "$@"\n')
        srun.chmod(0o755)
        key = self.root / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.conf.write_text(CONF.format(root=self.root, host=socket.gethostname(), node=NODE,
                                         ctld_port=_free_port(), d_port=_free_port(), cpus=os.cpu_count()))
        self._daemon(["munged", "--foreground", "--force", f"--key-file={key}",
                      f"--socket={self.root}/munge.socket", f"--pid-file={self.root}/munged.pid",
                      f"--seed-file={self.root}/munged.seed", f"--log-file={self.root}/munged.log"],
                     "munged.out")
        self._wait(lambda: (self.root / "munge.socket").exists(), "munged")
        self._daemon(["slurmctld", "-D", "-i", "-f", str(self.conf)], "slurmctld.out")
        self._wait(lambda: self.run(["scontrol", "ping"], check=False).returncode == 0, "slurmctld")
        self._daemon(["slurmd", "-D", "-N", NODE, "-f", str(self.conf)], "slurmd.out")
        self._wait(lambda: "idle" in self.run(["sinfo", "-h", "-o", "%t"], check=False).stdout, "slurmd")

    def _wait(self, ready, what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            dead = [p for p in self.procs if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start; logs in {self.root}:\n{self.logs()}")
            time.sleep(0.3)

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-2000:]}"
                         for p in sorted(self.root.glob("*.log")) + sorted(self.root.glob("*.out")))

    def run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, check=check, timeout=60)

    def stop(self) -> None:
        """SIGTERM each daemon we started, newest first (slurmd, slurmctld, munged); SIGKILL after 20 s."""
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs.clear()
