"""A thread that polls a MariaDB server's global status counters every `every` seconds on its own
connection: the samples (unix time, {counter: int}) engbench.peers.rates reads a client's whole
run and the server's insert clock from. Each poll is one statement (it counts in Questions:
rates.first_statement allows for it); `polls` is how many the thread sent, so a caller can take
them out of the statements it charges to a client. With `pids`, each sample also holds
"server_cpu_us": those processes' CPU (user + system, every thread) read at the poll, in µs."""

from __future__ import annotations

import threading
import time

from .cpu import process_cpu

COUNTERS = ("Questions", "Com_insert", "Com_update", "Com_commit", "Handler_write", "Handler_commit")


class StatusClock:
    def __init__(self, db, counters=COUNTERS, every: float = 0.02, pids=()):
        self.db, self.counters, self.every, self.pids = db, tuple(counters), every, [p for p in pids if p]
        self.samples, self.polls, self.error = [], 0, None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        names = ",".join(f"'{c}'" for c in self.counters)
        self._sql = f"SHOW GLOBAL STATUS WHERE Variable_name IN ({names})"

    def _poll(self):
        try:
            with self.db.connect().cursor() as cur:
                while True:
                    cur.execute(self._sql)
                    st = {k: int(v) for k, v in cur.fetchall()}
                    if self.pids:
                        st["server_cpu_us"] = round(sum(process_cpu(p) for p in self.pids) * 1e6)
                    self.samples.append((time.time(), st))
                    self.polls += 1
                    if self._stop.wait(self.every):
                        return
        except Exception as exc:  # noqa: BLE001 - handed to stop() (and start() does not wait forever)
            self.error = exc
            self._stop.set()

    def start(self) -> "StatusClock":
        self._thread.start()
        while not self.samples and not self._stop.is_set():
            time.sleep(0.005)
        if self.error:
            raise self.error
        missing = set(self.counters) - set(self.samples[0][1])
        if missing:
            self.stop()
            raise RuntimeError(f"the server has no status counter {', '.join(sorted(missing))}")
        return self

    def stop(self) -> list:
        """Stop polling; the samples."""
        self._stop.set()
        self._thread.join()
        if self.error:
            raise self.error
        return self.samples
