"""Real servers around a run: private MariaDB (InnoDB, MyRocks) instances owned by engbench,
FerretDB for testing the MongoDB client path, any MongoDB by URI, and redaction of secrets.

Modules: mariadb (MariaDB, MariaDBExisting), ferretdb (FerretDB), mongodb (MongoTarget),
redact (redact, redact_uri, secrets_from_env), ports (free_port). Server files of a run live in
the run directory's `server/` subdirectory (docs/run-format.md)."""

from ._proc import ServerError

__all__ = ["ServerError"]
