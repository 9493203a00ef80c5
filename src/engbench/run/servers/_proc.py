"""Child-process helpers shared by the private servers: log tails, stopping by pid with
escalation, and an exit hook that stops whatever this Python process started and left running."""

from __future__ import annotations

import atexit
import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import time
import weakref
from pathlib import Path



class ServerError(RuntimeError):
    """A private server could not be started, or died, or refused a request. The message quotes
    the tail of the server's log when there is one."""


def tail(path: Path | str | None, lines: int = 25, first: bool = False) -> str:
    """The last `lines` lines of a log (the first ones if `first`); "" if there is none."""
    if path is None:
        return ""
    try:
        text = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(text[:lines] if first else text[-lines:])


def with_log(message: str, log: Path | str | None, lines: int = 25, first: bool = False) -> str:
    t = tail(log, lines, first)
    which = "first" if first else "last"
    return f"{message}\n--- {log} ({which} {lines} lines) ---\n{t}" if t else f"{message} (log {log} is empty or missing)"


def terminate(proc: subprocess.Popen | None, timeout: float = 10.0, kill_timeout: float = 5.0) -> str:
    """SIGTERM, wait `timeout`, SIGKILL, wait. Always reaps the child (no zombie). Returns how it
    ended: 'exited' (was already gone), 'terminated' or 'killed'."""
    if proc is None:
        return "exited"
    if proc.poll() is not None:
        return "exited"
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout)
        return "terminated"
    except subprocess.TimeoutExpired:
        pass
    except ProcessLookupError:
        proc.wait()
        return "exited"
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    proc.wait(kill_timeout)
    return "killed"


def collect_files(files, dest) -> list[Path]:
    """Copy files (a server's own logs, its server.json) into `dest` (a run's server/ directory)
    byte for byte: a server's log is its output, never rewritten (server.json is written redacted
    by engbench; a private server is given no secret to print)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for f in files:
        f = Path(f)
        if f.is_file():
            target = dest / f.name
            shutil.copyfile(f, target)
            out.append(target)
    return out


def utc_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write_json(path: Path | str, obj) -> Path:
    """Atomic JSON write (readers never see half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")
    os.replace(tmp, path)
    return path


def wait_until(check, timeout: float, interval: float = 0.1, abort=None) -> bool:
    """Poll `check()` until it is true (→ True) or `timeout` passes or `abort()` is true (→ False)."""
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return True
        if abort is not None and abort():
            return False
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


# Servers started by this interpreter and not yet stopped: stopped at interpreter exit, so a test
# run or a notebook that forgets (or crashes before) `stop()` does not leave servers behind.
_LIVE: "weakref.WeakSet" = weakref.WeakSet()


def register(server) -> None:
    _LIVE.add(server)


def unregister(server) -> None:
    _LIVE.discard(server)


@atexit.register
def _stop_all() -> None:
    for server in list(_LIVE):
        try:
            server.stop()
        except Exception:  # noqa: BLE001 - best effort at exit
            pass
