"""A child started with children.die_with_parent never outlives engbench, even when engbench is
killed outright between the fork and the child's prctl(PR_SET_PDEATHSIG): the kernel's death signal
is armed only from the prctl on, so a parent that died before it leaves the child running (three
iostat/vmstat captures outlived SIGKILLed runs of tests/test_faults_run.py on 2026-11-29, re-parented
to init). The child checks, once armed, that its parent is still the process that forked it."""

import subprocess
import sys
import time

PARENT = r"""
import subprocess, sys, time
from engbench.run import children

def slow():
    time.sleep(1.0)            # the parent is SIGKILLed in here, before the child arms its death signal
    children.die_with_parent()

subprocess.Popen(["sleep", sys.argv[1]], preexec_fn=slow)
time.sleep(60)
"""


def _running(marker: str) -> list[str]:
    out = subprocess.run(["pgrep", "-f", f"^sleep {marker}$"], capture_output=True, text=True)
    return out.stdout.split()


def test_a_child_whose_parent_died_before_its_prctl_does_not_run_on():
    marker = f"97.{int(time.time() * 1000) % 100000}"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, marker])
    try:
        time.sleep(0.4)
        parent.kill()             # SIGKILL while the child sleeps in its preexec_fn
        parent.wait()
        time.sleep(2.0)           # the child's preexec_fn ends, and it would exec sleep
        left = _running(marker)
        assert not left, f"a child outlived its SIGKILLed parent: pids {left}"
    finally:
        for pid in _running(marker):
            subprocess.run(["kill", "-9", pid])
