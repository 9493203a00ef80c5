"""Server targets around one run (docs/driver.md "Server targets"): the driver is the client, this
module owns or finds the server, snapshots its statistics before and after, and cleans up.

    engbench run sysbench-update --engine mariadb-innodb --set mariadb.cache_size=256MB
        → a private MariaDB (servers.MariaDB) in data/work/<run_id>/server, stopped when the run
          ends or fails; run_dir/server/ gets status_before.json, status_after.json (SHOW GLOBAL
          VARIABLES/STATUS, engine status), error.log, install.log, stdout.log, server.json
    engbench run iibench --engine mariadb-myrocks --set mariadb.host=10.0.0.5 --set mariadb.port=3306
        → an existing server (servers.MariaDBExisting), password from ENGBENCH_MYSQL_PASSWORD
          (never written anywhere), never stopped; the same snapshots
    engbench run iibench --engine mongodb --set mongodb.uri=mongodb://u:pw@host/  (or ENGBENCH_MONGO_URI)
        → servers.MongoTarget: run_dir/server/mongo_before.*.json, mongo_after.*.json
          (serverStatus, collStats, dbStats)
    every target: run_dir/server/read_back.json, what the workload wrote read back after the run
          (run.readback: per workload; less than was written is a warning of the run)

Knobs addressed `mariadb.<name>` / `mongodb.<name>`: the connection keys below are taken out of the
knobs and passed to the driver in the config's `target` section; the other knobs go to the driver
(which validates and records them); mariadb.cache_size / flush_log_at_trx_commit / compression are
applied by engbench when it starts a private server (refused for an existing one).

Secrets: engbench never writes one. The MariaDB password is read by the driver from
ENGBENCH_MYSQL_PASSWORD; a MongoDB URI with a password reaches the driver through
ENGBENCH_MONGO_URI (set for the run), never through a file; what engbench writes itself (manifest,
config, server snapshots, read-back) holds the URI redacted (servers.redact.redact_uri) from the
first write. Nothing is scrubbed afterwards: the tools' own output (iostat, vmstat, the driver's
files, server logs) is kept byte for byte as they wrote it, and none of them is given the secret
in a form it would print (the driver redacts the URI it shows).

A MongoDB server that cannot be reached is refused before anything is written, naming its
host:port and the URI with the password redacted."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from .. import install
from . import readback
from .errors import ParamError
from .servers import ServerError, tail
from .servers.mariadb_options import unavailable_reason as mariadb_unavailable_reason
from .servers.mongodb import MongoTarget
from .servers.redact import ENV_MONGO_URI, ENV_MYSQL_PASSWORD, redact, redact_uri

MARIADB = {"mariadb-innodb": "innodb", "mariadb-myrocks": "myrocks"}
MONGODB = "mongodb"
NAMES = (*MARIADB, MONGODB)
MARIADB_CONNECTION = ("host", "port", "socket", "user", "database")
MARIADB_SERVER_KNOBS = ("cache_size", "flush_log_at_trx_commit", "compression")
MONGODB_CONNECTION = ("uri", "database")
_PLACEHOLDER_SOCKET = "/nonexistent/engbench-private-mariadb.sock"


class TargetError(ParamError):
    """The request cannot be served by this target (refused before anything is written)."""


def is_target(engine: str) -> bool:
    return engine in NAMES


def session_for(req) -> "TargetSession | None":
    """A TargetSession for a server target, None for the KV engines."""
    return TargetSession(req) if is_target(req.engine) else None


class TargetSession:
    """One run's server: `request` (the RunRequest the driver validates), `start()` before the
    driver, `finish()` after it, `close()` always (idempotent; stops what this session started)."""

    def __init__(self, req):
        self.engine = req.engine
        self.kind = "mongodb" if req.engine == MONGODB else "mariadb"
        ns = self.kind + "."
        conn_keys = MONGODB_CONNECTION if self.kind == "mongodb" else MARIADB_CONNECTION
        self.conn, knobs = {}, {}
        for key, value in req.knobs.items():
            short = key[len(ns):] if key.startswith(ns) else None
            if short in conn_keys:
                self.conn[short] = value
            else:
                knobs[key] = value
        self.server_settings = {k[len(ns):]: v for k, v in knobs.items()
                                if self.kind == "mariadb" and k[len(ns):] in MARIADB_SERVER_KNOBS}
        self.private = self.kind == "mariadb" and not ({"host", "port", "socket"} & set(self.conn))
        if self.kind == "mariadb" and not self.private and self.server_settings:
            raise TargetError(f"{', '.join('mariadb.' + k for k in self.server_settings)}: server settings apply "
                              "to a private server engbench starts, not to an existing one (mariadb.host/port/socket)")
        if self.private:
            try:  # set-up by need: MariaDB is not part of the main job's set-up
                install.ensure("servers", f"{self.engine} (a private MariaDB)", mariadb_unavailable_reason)
            except install.MissingPart as e:
                raise TargetError(f"{self.engine}: cannot start a private MariaDB: {e}") from None
        self.uri = None
        if self.kind == "mongodb":
            self.uri = str(self.conn.get("uri") or os.environ.get(ENV_MONGO_URI) or "")
            if not self.uri:
                raise TargetError(f"mongodb needs a server: --set mongodb.uri=mongodb://... or {ENV_MONGO_URI}")
            _check_reachable(self.uri)
        self.request = dataclasses.replace(req, knobs=knobs, target=self._target_section(validation=True))
        self.server = None
        self.keep_server_dir = False
        self._env_saved: dict = {}
        # what went wrong without failing the run (a server that would not stop, a read-back that
        # found nothing): the run's manifest keeps them as `warnings`, processing as runs.warnings
        self.warnings: list[str] = []
        self._stop_failed = False
        self.info: dict = {"kind": self.kind, "engine": self.engine, "private": self.private}

    # --- the driver's `target` section ---
    def _target_section(self, validation: bool = False) -> dict:
        db = self.conn.get("database")
        if self.kind == "mongodb":
            sec = {"uri": self.uri} if redact_uri(self.uri) == self.uri else {"uri_env": ENV_MONGO_URI}
        elif self.private:
            # the driver works in the run's data directory (runs.execute): the socket relative to it
            sock = (_PLACEHOLDER_SOCKET if validation or self.server is None
                    else os.path.relpath(self.server.socket, self._data_dir))
            sec = {"socket": sock, "user": "root", "password": ""}
        else:
            sec = {k: self.conn[k] for k in ("host", "socket", "user") if self.conn.get(k)}
            if self.conn.get("port"):
                sec["port"] = int(self.conn["port"])
            if "socket" not in sec:
                sec.setdefault("host", "127.0.0.1")
                sec.setdefault("port", 3306)
            sec["password_env"] = ENV_MYSQL_PASSWORD
        if db:
            sec["database"] = str(db)
        return sec

    # --- lifecycle ---
    def start(self, run_dir: Path, data_dir: Path) -> dict:
        """Start/connect the server, snapshot it into run_dir/server; returns the target section
        (also set on self.request)."""
        sdir = Path(run_dir) / "server"
        sdir.mkdir(parents=True, exist_ok=True)
        self._data_dir = Path(data_dir)
        if self.kind == "mongodb":
            if redact_uri(self.uri) != self.uri:  # a password: hand it over by environment only
                self._set_env(ENV_MONGO_URI, self.uri)
            self.server = MongoTarget(self.uri, db=str(self.conn.get("database") or "engbench"))
            self.info.update(uri=redact_uri(self.uri), db=self.server.db)
            self.server.capture(sdir / "mongo_before")
        elif self.private:
            from .servers.mariadb import MariaDB  # local: pymysql loads only for a MariaDB target
            self.server = MariaDB(Path(data_dir) / "server", engine=MARIADB[self.engine],
                                  settings={k: v for k, v in self.server_settings.items()
                                            if not (k == "compression" and str(v) == "default")})
            self.keep_server_dir = True  # until the run ends well
            self.server.start()
            self.server.snapshot(sdir / "status_before.json", label="before")
        else:
            from .servers.mariadb import MariaDBExisting  # local: pymysql loads only for a MariaDB target
            self.server = MariaDBExisting(host=str(self.conn.get("host") or "127.0.0.1"),
                                          port=int(self.conn.get("port") or 3306),
                                          socket=self.conn.get("socket"), user=str(self.conn.get("user") or "root"),
                                          engine=MARIADB[self.engine])
            self.server.snapshot(sdir / "status_before.json", label="before")
        self.info["server"] = redact(self.server.describe() if hasattr(self.server, "describe") else {}, from_env=False)
        self.request = dataclasses.replace(self.request, target=self._target_section())
        return self.request.target

    def finish(self, run_dir: Path, status: str, error: str | None, summary: dict | None = None):
        """After the driver: server still alive? snapshot after, read back what the workload wrote
        (run.readback), stop and collect logs (private). Returns (status, error), failed when the
        server died; what went wrong without failing the run is in ``warnings``."""
        sdir = Path(run_dir) / "server"
        sdir.mkdir(parents=True, exist_ok=True)
        notes = []
        if self.server is None:
            return status, error
        alive = self.server.alive()
        if not alive:
            what = "the MariaDB server" if self.kind == "mariadb" else "the MongoDB server"
            how = ""
            if self.private and self.server.proc is not None:
                how = f" (mariadbd exit status {self.server.proc.poll()})"
            msg = f"{what} died or became unreachable during the run{how}"
            if self.private:
                msg += f"\n--- server error.log (tail) ---\n{tail(self.server.error_log, 15)}"
            status, error = "failed", (error + "\n" if error else "") + msg
        else:
            try:
                if self.kind == "mongodb":
                    self.server.capture(sdir / "mongo_after")
                else:
                    self.server.snapshot(sdir / "status_after.json", label="after")
            except Exception as exc:  # noqa: BLE001 - a capture failure is noted, not fatal
                notes.append(f"after-run capture failed: {type(exc).__name__}: {exc}")
                self.warnings.append(f"server: after-run statistics not captured ({type(exc).__name__}: {exc})")
            try:
                self._read_back(sdir / "read_back.json", summary or {})
            except Exception as exc:  # noqa: BLE001 - recorded as the run's warning
                self.warnings.append(f"read-back failed: {type(exc).__name__}: {exc}")
        self.close()
        if self.private:
            try:
                self.server.collect(sdir)
            except OSError as exc:
                notes.append(f"collecting server logs failed: {exc}")
            self.info["server"] = redact(self.server.describe(), from_env=False)
            self.keep_server_dir = status != "ok"
            if self.keep_server_dir:
                self.info["server_dir_kept"] = str(self.server.base_dir)
        if notes:
            self.info["notes"] = notes
        return status, error

    def _read_back(self, path: Path, summary: dict) -> None:
        """What the workload wrote, read back through the server (run.readback: per workload, on
        MariaDB and MongoDB alike) into read_back.json; a collection holding less than the workload
        wrote is one of the run's warnings."""
        params = summary.get("params") or self.request.params
        wl = self.request.workload
        names = list(readback.expected(wl, params, summary))
        if self.kind == "mongodb":
            got, where = readback.mongo(self.server.client[self.server.db], names), {"db": self.server.db}
        else:
            db = str(self.conn.get("database") or "engbench")
            conn = self.server.connect()
            try:
                got, where = readback.mariadb(conn, db, names), {"database": db}
            finally:
                conn.close()
        doc, warns = readback.report(wl, params, summary, got, where)
        path.write_text(json.dumps(redact(doc, from_env=False), indent=2, sort_keys=True, default=str) + "\n")
        self.warnings += warns

    def close(self) -> None:
        """Stop what this session started (idempotent); restore the environment. A private server
        that does not stop (stop() fails, or it is still running after it) is a warning in
        ``warnings`` naming its pid, never a silent pass; it is not tried again."""
        try:
            if self.server is not None and not self._stop_failed:
                how = self.server.stop()
                if self.private and self.server.alive():
                    self._stop_failure(f"still running after stop ({how})")
        except Exception as exc:  # noqa: BLE001 - ServerError, a timeout waiting for it: recorded
            self._stop_failure(f"{type(exc).__name__}: {exc}")
        finally:
            for k, v in self._env_saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            self._env_saved = {}

    def _stop_failure(self, why: str) -> None:
        self._stop_failed = True
        pid = getattr(self.server, "pid", None)
        self.warnings.append(f"server: the {'private MariaDB' if self.private else 'server'} did not stop "
                             f"({why}); it may still be running{f' as pid {pid}' if pid else ''}")
        self.info["stop_failed"] = why

    def _set_env(self, key: str, value: str) -> None:
        self._env_saved.setdefault(key, os.environ.get(key))
        os.environ[key] = value


def _check_reachable(uri: str, timeout_ms: int = 5000) -> None:
    """Refuse (TargetError) a MongoDB URI whose server does not answer a ping within `timeout_ms`,
    naming its host:port and the URI with the password redacted."""
    import pymongo
    from pymongo.errors import ConfigurationError, PyMongoError
    shown = redact_uri(uri)
    try:
        nodes = pymongo.uri_parser.parse_uri(uri).get("nodelist") or []
    except (ConfigurationError, ValueError) as exc:
        raise TargetError(f"mongodb.uri {shown}: not a MongoDB URI ({redact_uri(str(exc))}): "
                          "give mongodb://[user:password@]host:port/") from None
    where = ", ".join(f"{h}:{p}" for h, p in nodes) or shown
    client = pymongo.MongoClient(uri, serverSelectionTimeoutMS=timeout_ms, connectTimeoutMS=timeout_ms)
    try:
        client.admin.command("ping")
    except PyMongoError as exc:
        why = redact_uri(str(exc)).split(" (configured timeouts")[0].split(", Timeout:")[0]
        raise TargetError(f"could not connect to the MongoDB server at {where} ({shown}): {why}: "
                          "start it, or correct mongodb.uri / ENGBENCH_MONGO_URI") from None
    finally:
        client.close()
