"""Real servers around a run: private MariaDB (InnoDB, MyRocks) instances owned by engbench,
FerretDB for testing the MongoDB client path, any MongoDB by URI, and redaction of secrets.

Modules: mariadb (MariaDB, MariaDBExisting), ferretdb (FerretDB), mongodb (MongoTarget),
redact (redact, redact_uri, uri_secrets, secrets_from_env), ports (free_port); from the private
helpers (_proc), ServerError and tail (a log's last lines) for use outside the package. Server
files of a run live in the run directory's `server/` subdirectory (docs/run-format.md)."""

from ._proc import ServerError, tail

__all__ = ["ServerError", "tail"]
