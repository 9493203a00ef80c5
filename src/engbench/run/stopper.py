"""Signals during a run (runs.execute, calibrate): counted and passed on to the run's child, never
raised, so that a run's own bookkeeping always completes. Public as runs.Stopper."""

from __future__ import annotations

import signal
import threading


class Stopper:
    """SIGINT/SIGTERM → ask the run's child (the driver, a calibration's fio) to stop (it writes
    what it has, status `interrupted`); a second signal kills it. Signals are only counted and forwarded, never raised, so the run's
    own bookkeeping (stopping captures, finalizing, sealing) always completes."""

    def __init__(self):
        self.proc = None
        self.signals = 0
        self._old = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _handle(self, signum, frame):
        self.signals += 1
        self._forward()

    def attach(self, proc) -> None:
        """The child has started: a signal that came while it was starting is passed on now."""
        self.proc = proc
        if self.signals:
            self._forward()

    def _forward(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT if self.signals == 1 else signal.SIGKILL)
