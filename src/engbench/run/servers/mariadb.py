"""MariaDB servers: a private instance owned by engbench (InnoDB or MyRocks), or an existing one.

    with MariaDB(run_dir / "server", engine="myrocks", settings={"cache_size": "256M"}) as db:
        conn = db.connect()                   # PyMySQL, over the unix socket
        db.connection()                       # {host, port, socket, user, password} for the driver
        db.snapshot(run_dir / "server" / "status_before.json")
        ...
        db.global_status()["Rocksdb_rows_inserted"]

Private instance (Debian 10.11 packages `mariadb-server mariadb-plugin-rocksdb`, see
scripts/setup_servers.sh): `mariadb-install-db --no-defaults` into `base_dir/data` (~0.7 s), then
`mariadbd --no-defaults` as a child process that is kept and waited on (no zombie), listening on
127.0.0.1 only, on a port from `ports.free_port()` (taken meanwhile → another port, up to 3
tries; a port given explicitly and taken → ServerError naming it), with its unix socket, pid file
and error log in base_dir. Files left in base_dir (kept after stop, also when the server died):

    data/          the data directory          tmp/          its tmpdir (install and server:
                                                              a shared /tmp breaks concurrent installs)
    error.log      mariadbd's error log        install.log   mariadb-install-db's output
    stdout.log     mariadbd's stdout/stderr    server.json   argv, port, socket, settings, pid

Settings (keys may carry a `mariadb.`/`innodb.`/`myrocks.` prefix; unknown keys → ValueError):

    cache_size                 bytes or "256M"/"1GB"/"1GiB": the engine's cache (InnoDB buffer
                               pool, or RocksDB block cache for myrocks)
    innodb_buffer_pool_size    explicit, for either engine
    rocksdb_block_cache_size   explicit (myrocks)
    flush_log_at_trx_commit    0 | 1 | 2 → innodb_flush_log_at_trx_commit (and
                               rocksdb_flush_log_at_trx_commit for myrocks). 1 = sync at each
                               commit; 2 = write at commit, sync about once a second; 0 = neither
                               at commit. Default: the server's (1).
    compression                none | zlib | lz4 | snappy | zstd. InnoDB: page compression
                               (innodb_compression_default=ON + innodb_compression_algorithm;
                               Debian's server has zlib built in, the others need
                               mariadb-plugin-provider-<alg>). MyRocks: rocksdb_default_cf_options
                               compression=k...Compression.
    options                    {name: value} passed as --name=value (value None → --name)

Always: sync_binlog=0 and the binary log off (10.11's default, stated), skip-name-resolve,
default-storage-engine the chosen engine.
"""

from __future__ import annotations

import getpass
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pymysql

from . import ports
from ._proc import ServerError, collect_files, register, terminate, unregister, utc_iso, wait_until, with_log, write_json
from .redact import redact
from ..children import die_with_parent
from ...paths import placeholders

from .mariadb_options import (  # noqa: F401 - re-exported: the settings half of this module
    COMPRESSIONS, ENGINES, ENV_PASSWORD, PLUGIN_DIR, SETTINGS_KEYS, SOCKET_MAX, find_binary, parse_size,
    server_options, unavailable_reason)

class _Stats:
    """variables / global_status / snapshot over a `connect()` the subclass provides."""

    engine: str | None = None

    def connect(self, **kw) -> pymysql.connections.Connection:  # pragma: no cover - abstract
        raise NotImplementedError

    def _rows(self, sql: str) -> list[tuple]:
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                cur.execute(sql)
                return list(cur.fetchall())
        finally:
            conn.close()

    def variables(self) -> dict[str, str]:
        """SHOW GLOBAL VARIABLES, values as the server prints them (strings)."""
        return {r[0]: r[1] for r in self._rows("SHOW GLOBAL VARIABLES")}

    def global_status(self) -> dict[str, str]:
        """SHOW GLOBAL STATUS (Innodb_*, Rocksdb_*, Com_*, ...), values as strings."""
        return {r[0]: r[1] for r in self._rows("SHOW GLOBAL STATUS")}

    def engine_status(self) -> list[dict]:
        """SHOW ENGINE INNODB|ROCKSDB STATUS as [{type, name, status}] (empty if unknown engine)."""
        name = {"innodb": "INNODB", "myrocks": "ROCKSDB"}.get(self.engine or "")
        if not name:
            return []
        try:
            return [{"type": r[0], "name": r[1], "status": r[2]} for r in self._rows(f"SHOW ENGINE {name} STATUS")]
        except pymysql.MySQLError as e:
            return [{"type": name, "name": "error", "status": str(e)}]

    def snapshot(self, path, label: str | None = None) -> Path:
        """Write variables, global status and engine status as one JSON file (URIs redacted; the
        server's values otherwise as it gave them)."""
        t0 = time.time()
        status = self.global_status()
        obj = {
            "schema": 1, "kind": "mariadb", "label": label, "engine": self.engine,
            "taken_utc": utc_iso(), "taken_unix_s": round(t0, 3), "server": placeholders(self.describe()),
            "status": status, "variables": self.variables(), "engine_status": self.engine_status(),
        }
        return write_json(path, redact(obj, from_env=False))

    def describe(self) -> dict:  # pragma: no cover - overridden
        return {}


class MariaDB(_Stats):
    """A private MariaDB server in `base_dir` (see the module docstring). Context manager:
    started on enter, stopped on exit (also on exceptions); `stop()` is idempotent."""

    def __init__(self, base_dir, engine: str = "innodb", settings: dict | None = None, *,
                 port: int | None = None, start_timeout: float = 60.0, stop_timeout: float = 30.0,
                 port_attempts: int = 3):
        self.base_dir = Path(base_dir).resolve()
        self.engine = engine
        self.settings = dict(settings or {})
        self.options = server_options(engine, self.settings)  # validates before anything is created
        self.requested_port = port
        self.port: int | None = None
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.port_attempts = port_attempts
        self.data_dir = self.base_dir / "data"
        self.error_log = self.base_dir / "error.log"
        self.install_log = self.base_dir / "install.log"
        self.stdout_log = self.base_dir / "stdout.log"
        self.pid_file = self.base_dir / "mariadbd.pid"
        # Its own tmpdir: bootstraps sharing /tmp collide on their temporary tables' file names
        # ("Could not remove temporary table '/tmp/#sql-temptable-…'", then "Unknown table
        # 'mysql.tmp_user_sys'"): 13 of 36 concurrent installs failed so, 0 of 36 with a tmpdir each.
        self.tmp_dir = self.base_dir / "tmp"
        self.user = getpass.getuser()
        self.proc: subprocess.Popen | None = None
        self.argv: list[str] = []
        self.stopped_how: str | None = None
        self._why_not = ""
        self._sock_tmp: str | None = None
        sock = self.base_dir / "mariadbd.sock"
        if len(str(sock)) > SOCKET_MAX:  # unix socket paths are limited to 108 bytes
            self._sock_tmp = tempfile.mkdtemp(prefix="engbench-mariadb-")
            sock = Path(self._sock_tmp) / "mariadbd.sock"
        self.socket = sock

    # --- lifecycle ---
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def install(self) -> None:
        """mariadb-install-db into data/ (skipped if data/mysql already exists)."""
        if (self.data_dir / "mysql").is_dir():
            return
        self.tmp_dir.mkdir(parents=True, exist_ok=True)
        argv = [find_binary("mariadb-install-db"), "--no-defaults", f"--datadir={self.data_dir}",
                f"--tmpdir={self.tmp_dir}", f"--user={self.user}",
                "--auth-root-authentication-method=normal", "--skip-test-db"]
        with open(self.install_log, "wb") as log:
            rc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, timeout=300).returncode
        if rc != 0:
            # The reason comes first; what follows it is mariadb-install-db's boilerplate advice.
            raise ServerError(with_log(f"mariadb-install-db failed (exit {rc})", self.install_log,
                                       first=True))

    def start(self) -> "MariaDB":
        if self.alive():
            return self
        self.install()
        last_error = None
        for attempt in range(1 if self.requested_port else self.port_attempts):
            port = self.requested_port or ports.free_port()
            if not ports.port_is_free(port):
                last_error = f"port {port} on 127.0.0.1 is already in use"
                if self.requested_port:
                    raise ServerError(f"cannot start MariaDB: {last_error} (given explicitly; "
                                      "leave port=None to pick a free one)")
                continue
            if self._start_on(port):
                return self
            log_text = self.error_log.read_text(errors="replace") if self.error_log.exists() else ""
            bind_failed = "Address already in use" in log_text[-4000:] or "Bind on TCP/IP port" in log_text[-4000:]
            if bind_failed and not self.requested_port:
                last_error = f"port {port} was taken before mariadbd could bind it"
                continue
            raise ServerError(with_log(f"MariaDB ({self.engine}) did not start: {self._why_not}", self.error_log))
        raise ServerError(with_log(f"MariaDB ({self.engine}) did not start after {self.port_attempts} ports: "
                                   f"{last_error}", self.error_log))

    def _start_on(self, port: int) -> bool:
        self.port = port
        if self.socket.exists():
            self.socket.unlink()
        # Mark where this start's log begins, so a retry's error is the one quoted.
        with open(self.error_log, "a") as f:
            f.write(f"--- engbench: starting mariadbd on 127.0.0.1:{port} at {utc_iso()} ---\n")
        self.tmp_dir.mkdir(parents=True, exist_ok=True)
        self.argv = [find_binary("mariadbd"), "--no-defaults", f"--datadir={self.data_dir}",
                     f"--tmpdir={self.tmp_dir}", f"--socket={self.socket}", f"--port={port}", "--bind-address=127.0.0.1",
                     f"--pid-file={self.pid_file}", f"--log-error={self.error_log}",
                     f"--user={self.user}", *self.options]
        with open(self.stdout_log, "ab") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         preexec_fn=die_with_parent)
        register(self)
        self.stopped_how = None
        self._write_info()
        self._why_not = ""
        ok = wait_until(self._accepts, self.start_timeout, 0.1, abort=lambda: self.proc.poll() is not None)
        if ok:
            return True
        rc = self.proc.poll()
        self._why_not = (f"mariadbd exited with status {rc}" if rc is not None
                         else f"not accepting connections after {self.start_timeout} s")
        terminate(self.proc, 5)
        unregister(self)
        self._write_info()
        return False

    def _accepts(self) -> bool:
        try:
            self.connect(connect_timeout=1).close()
            return True
        except pymysql.MySQLError:
            return False

    def alive(self) -> bool:
        """The child mariadbd is running (not merely not-yet-reaped)."""
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def stop(self) -> str | None:
        """mariadb-admin shutdown, wait; SIGTERM, then SIGKILL after `stop_timeout`. Reaps the
        child. Idempotent; files in base_dir are kept. Returns how it ended."""
        proc = self.proc
        if proc is None:
            return self.stopped_how
        if proc.poll() is None:
            try:
                subprocess.run([find_binary("mariadb-admin"), "--no-defaults", f"--socket={self.socket}",
                                "--user=root", "--connect-timeout=2", "shutdown"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=self.stop_timeout)
            except (subprocess.TimeoutExpired, ServerError, OSError):
                pass
            try:
                proc.wait(self.stop_timeout)
                self.stopped_how = "shutdown"
            except subprocess.TimeoutExpired:
                self.stopped_how = terminate(proc, 10)
        else:
            proc.wait()
            self.stopped_how = self.stopped_how or f"had exited (status {proc.returncode})"
        unregister(self)
        self._write_info()
        if self._sock_tmp:
            shutil.rmtree(self._sock_tmp, ignore_errors=True)
        return self.stopped_how

    # --- access ---
    def connect(self, **kw) -> pymysql.connections.Connection:
        """A PyMySQL connection as root over the unix socket (keyword arguments passed on)."""
        args = dict(unix_socket=str(self.socket), user="root", password="", autocommit=True,
                    connect_timeout=5)
        args.update(kw)
        return pymysql.connect(**args)

    def connection(self) -> dict:
        """How a client (the driver) reaches this server: TCP host/port or the unix socket; root
        has an empty password on a private instance."""
        return {"host": "127.0.0.1", "port": self.port, "socket": str(self.socket), "user": "root",
                "password": ""}

    def collect(self, dest) -> list[Path]:
        """Copy error.log, install.log, stdout.log and server.json (redacted) into `dest`, e.g. the
        run directory's server/ (keep base_dir itself, with its data directory, out of the run
        directory: it is hundreds of MB)."""
        self._write_info()
        return collect_files([self.error_log, self.install_log, self.stdout_log,
                              self.base_dir / "server.json"], dest)

    def uri(self) -> str:
        return f"mysql://root@127.0.0.1:{self.port}/"

    def describe(self) -> dict:
        return {"kind": "mariadb-private", "engine": self.engine, "host": "127.0.0.1", "port": self.port,
                "socket": str(self.socket), "base_dir": str(self.base_dir), "data_dir": str(self.data_dir),
                "error_log": str(self.error_log), "pid": self.pid, "argv": self.argv,
                "settings": self.settings, "stopped": self.stopped_how,
                "exit_status": self.proc.returncode if self.proc else None}

    def _write_info(self) -> None:
        try:
            write_json(self.base_dir / "server.json", placeholders(redact(self.describe())))
        except OSError:
            pass


class MariaDBExisting(_Stats):
    """A MariaDB/MySQL server engbench does not own: same variables/global_status/snapshot
    interface, `stop()` does nothing. The password comes from ENGBENCH_MYSQL_PASSWORD unless
    given; it is never written anywhere (describe() and snapshots leave it out)."""

    def __init__(self, host: str = "127.0.0.1", port: int | None = 3306, socket: str | None = None,
                 user: str = "root", password: str | None = None, engine: str | None = None):
        self.host, self.port, self.socket, self.user = host, port, socket, user
        self._password = password if password is not None else os.environ.get(ENV_PASSWORD, "")
        self.engine = engine

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, **kw) -> pymysql.connections.Connection:
        args = dict(user=self.user, password=self._password, autocommit=True, connect_timeout=5)
        if self.socket:
            args["unix_socket"] = self.socket
        else:
            args.update(host=self.host, port=int(self.port or 3306))
        args.update(kw)
        return pymysql.connect(**args)

    def alive(self) -> bool:
        try:
            self.connect(connect_timeout=2).close()
            return True
        except pymysql.MySQLError:
            return False

    def stop(self) -> None:
        """Not ours to stop."""
        return None

    def connection(self, include_password: bool = False) -> dict:
        """How a client reaches the server. The password is left out unless asked for: the
        client should read it from ENGBENCH_MYSQL_PASSWORD (`password_env`) so that it never
        lands in a config file of a run directory."""
        out = {"host": self.host, "port": self.port, "socket": self.socket, "user": self.user,
               "password_env": ENV_PASSWORD}
        if include_password:
            out["password"] = self._password
        return out

    def describe(self) -> dict:
        return {"kind": "mariadb-existing", "engine": self.engine, "host": self.host, "port": self.port,
                "socket": self.socket, "user": self.user, "password_from_env": ENV_PASSWORD}

    def __repr__(self) -> str:  # never shows the password
        return f"MariaDBExisting(host={self.host!r}, port={self.port!r}, socket={self.socket!r}, user={self.user!r})"


def load_info(base_dir) -> dict:
    """server.json of a private instance (what was started, how it ended)."""
    return json.loads((Path(base_dir) / "server.json").read_text())
