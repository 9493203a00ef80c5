"""Child processes that cannot outlive engbench, and that start inside the run's cgroup.

Captures and the driver run in their own sessions (so a terminal's Ctrl-C reaches engbench alone,
which then stops each child the right way). If engbench itself is killed outright (SIGKILL), the
kernel kills them too: PR_SET_PDEATHSIG, set in the child before exec.

Inside `with joining(procs_files):` every child started with `die_with_parent` also writes its
own pid into those `cgroup.procs` files before exec, so all of its memory and I/O is charged to
the run's group from its first instruction (engbench itself stays outside). iostat and vmstat
are started outside such a block."""

import contextlib
import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)
_JOIN: list = []  # cgroup.procs files the next children join (set only inside `joining`)


# The pid of the process about to fork, set in the parent just before every fork (os.register_at_fork:
# subprocess runs the before-fork hooks when it has a preexec_fn), read by the child in die_with_parent.
_FORKER = os.getpid()


def _remember_forker() -> None:
    global _FORKER
    _FORKER = os.getpid()


os.register_at_fork(before=_remember_forker)


def die_with_parent() -> None:
    """preexec_fn for subprocess.Popen: the child gets SIGKILL when its parent thread exits, and
    joins the cgroup of the enclosing `joining` block (an error there fails the Popen). The death
    signal is armed only from the prctl on: a parent killed between the fork and it has already
    left the child to init, so the child, once armed, ends at once unless its parent is still the
    process that forked it (tests/test_children.py)."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != _FORKER:
        os._exit(137)  # as if the death signal had reached it: 128 + SIGKILL
    for path in _JOIN:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, b"%d" % os.getpid())
        finally:
            os.close(fd)


@contextlib.contextmanager
def joining(procs_files):
    """Children started with `die_with_parent` in this block start inside these cgroups."""
    saved = list(_JOIN)
    _JOIN[:] = list(procs_files or [])
    try:
        yield
    finally:
        _JOIN[:] = saved
