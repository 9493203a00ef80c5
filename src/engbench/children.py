"""Child processes that cannot outlive engbench.

Captures and the driver run in their own sessions (so a terminal's Ctrl-C reaches engbench alone,
which then stops each child the right way). If engbench itself is killed outright (SIGKILL), the
kernel kills them too: PR_SET_PDEATHSIG, set in the child before exec."""

import ctypes
import signal

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent() -> None:
    """preexec_fn for subprocess.Popen: the child gets SIGKILL when its parent thread exits."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
