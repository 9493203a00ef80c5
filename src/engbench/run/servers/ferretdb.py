"""FerretDB v1.24.2 (MongoDB 7.0 wire protocol over SQLite) as a private server, for exercising the
MongoDB client path (pymongo here, the driver's Mongo client later) against a real server.

    with FerretDB(tmp_path / "ferret") as f:
        client = f.client()                   # pymongo.MongoClient
        MongoTarget(f.uri).capture(tmp_path / "server" / "mongo")

Built by scripts/setup_servers.sh into ${ENGBENCH_CACHE:-~/.cache/engbench}/ferretdb-1.24.2/ferretdb
(or $ENGBENCH_FERRETDB). Started as a kept child process with `--handler=sqlite
--sqlite-url=file:<base_dir>/data/`, listening on 127.0.0.1:<ports.free_port()>, debug HTTP
listener off, telemetry off, state in base_dir, its log in base_dir/ferretdb.log (kept).

Known limits (measured here): a single write command with more than ~40-50 operations hangs it
(pymongo splits insert_many only at 100,000 operations: pass batches of <= MAX_BATCH yourself);
lookups by _id slow down as a collection grows; serverStatus has no wiredTiger section. Not a
stand-in for MongoDB's performance.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from . import ports
from ._proc import ServerError, collect_files, register, terminate, unregister, utc_iso, wait_until, with_log, write_json
from .redact import redact
from ..children import die_with_parent

VERSION = "1.24.2"
MAX_BATCH = 40  # operations per write command that FerretDB v1.24.2 handles without hanging
ENV_BINARY = "ENGBENCH_FERRETDB"


def binary_path() -> Path:
    if os.environ.get(ENV_BINARY):
        return Path(os.environ[ENV_BINARY])
    cache = Path(os.environ.get("ENGBENCH_CACHE") or Path.home() / ".cache" / "engbench")
    return cache / f"ferretdb-{VERSION}" / "ferretdb"


def unavailable_reason() -> str | None:
    """None if FerretDB can be started, else why not (for pytest skips)."""
    p = binary_path()
    if not (p.is_file() and os.access(p, os.X_OK)):
        return f"FerretDB binary not found at {p}: run scripts/setup_servers.sh (needs Go)"
    return None


class FerretDB:
    def __init__(self, base_dir, *, port: int | None = None, start_timeout: float = 30.0,
                 stop_timeout: float = 10.0, log_level: str = "info", port_attempts: int = 3):
        self.base_dir = Path(base_dir).resolve()
        self.data_dir = self.base_dir / "data"
        self.log = self.base_dir / "ferretdb.log"
        self.requested_port = port
        self.port: int | None = None
        self.start_timeout, self.stop_timeout = start_timeout, stop_timeout
        self.log_level = log_level
        self.port_attempts = port_attempts
        self.proc: subprocess.Popen | None = None
        self.argv: list[str] = []
        self.stopped_how: str | None = None
        self._client = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def start(self) -> "FerretDB":
        if self.alive():
            return self
        why = unavailable_reason()
        if why:
            raise ServerError(why)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        last = None
        for _ in range(1 if self.requested_port else self.port_attempts):
            port = self.requested_port or ports.free_port()
            if not ports.port_is_free(port):
                last = f"port {port} on 127.0.0.1 is already in use"
                if self.requested_port:
                    raise ServerError(f"cannot start FerretDB: {last} (given explicitly)")
                continue
            if self._start_on(port):
                return self
            text = self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""
            if "address already in use" in text and not self.requested_port:
                last = f"port {port} was taken before FerretDB could bind it"
                continue
            raise ServerError(with_log(f"FerretDB did not start: {last or 'see its log'}", self.log))
        raise ServerError(with_log(f"FerretDB did not start: {last}", self.log))

    def _start_on(self, port: int) -> bool:
        self.port = port
        self.argv = [str(binary_path()), "--handler=sqlite", f"--sqlite-url=file:{self.data_dir}/",
                     f"--listen-addr=127.0.0.1:{port}", "--debug-addr=-", f"--state-dir={self.base_dir}",
                     "--telemetry=disable", f"--log-level={self.log_level}", "--log-format=text"]
        with open(self.log, "ab") as out:
            out.write(f"--- engbench: starting FerretDB on 127.0.0.1:{port} at {utc_iso()} ---\n".encode())
            out.flush()
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         preexec_fn=die_with_parent)
        register(self)
        self.stopped_how = None
        ok = wait_until(self._pings, self.start_timeout, 0.1, abort=lambda: self.proc.poll() is not None)
        self._write_info()
        if ok:
            return True
        terminate(self.proc, 3)
        unregister(self)
        self._write_info()
        return False

    def _pings(self) -> bool:
        import pymongo
        from pymongo.errors import PyMongoError
        if not ports.accepts(self.port):
            return False
        try:
            with pymongo.MongoClient(self.uri, serverSelectionTimeoutMS=1000, connectTimeoutMS=1000) as c:
                c.admin.command("ping")
            return True
        except PyMongoError:
            return False

    def client(self, **kw):
        """A pymongo client (one per server, closed at stop)."""
        import pymongo
        if self._client is None or kw:
            args = dict(serverSelectionTimeoutMS=5000)
            args.update(kw)
            c = pymongo.MongoClient(self.uri, **args)
            if kw:
                return c
            self._client = c
        return self._client

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> str | None:
        """SIGTERM, wait `stop_timeout`, SIGKILL. Reaps the child; idempotent; base_dir kept."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.proc is None:
            return self.stopped_how
        if self.proc.poll() is None:
            self.stopped_how = terminate(self.proc, self.stop_timeout)
        else:
            self.proc.wait()
            self.stopped_how = self.stopped_how or f"had exited (status {self.proc.returncode})"
        unregister(self)
        self._write_info()
        return self.stopped_how

    def collect(self, dest) -> list[Path]:
        """Copy ferretdb.log and server.json (redacted) into `dest` (a run's server/ directory)."""
        self._write_info()
        return collect_files([self.log, self.base_dir / "server.json"], dest)

    def describe(self) -> dict:
        return {"kind": "ferretdb", "version": VERSION, "backend": "sqlite", "uri": self.uri if self.port else None,
                "base_dir": str(self.base_dir), "log": str(self.log), "pid": self.pid, "argv": self.argv,
                "stopped": self.stopped_how, "exit_status": self.proc.returncode if self.proc else None}

    def _write_info(self) -> None:
        try:
            write_json(self.base_dir / "server.json", redact(self.describe()))
        except OSError:
            pass
