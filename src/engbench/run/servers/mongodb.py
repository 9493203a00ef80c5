"""Any MongoDB server by URI: statistics capture and read-back checks through pymongo.

    target = MongoTarget(os.environ["ENGBENCH_MONGO_URI"], db="engbench")
    target.capture(run_dir / "server" / "mongo_before")   # → mongo_before.serverStatus.json, ...
    target.read_back_sample("engbench", "purchases_index", [1, 2, 3])

Verified against: FerretDB v1.24.2 over SQLite on this machine only (tests/test_servers.py). No
real `mongod` can be installed on these machines (not in Debian, PyPI, npm, Maven or the Go proxy),
so the behaviour with a real mongod is written from MongoDB's documented command replies
(serverStatus with its `wiredTiger` section, `$collStats` storageStats, `collStats`, `dbStats`)
but has NOT been run against one. Where FerretDB lacks something (serverStatus has no `wiredTiger`
section) the capture says so in the file instead of failing.

Files written by capture(prefix) (JSON; every URI in them has its password redacted, and nothing
else is changed: a reply's text that happens to equal the password is kept as the server sent it):
    <prefix>.serverStatus.json   {"taken_utc", "uri", "serverStatus": {...},
                                  "wiredTiger_cache": {...} or null, "wiredTiger_note": text or null}
    <prefix>.collStats.json      {"taken_utc", "db", "collections": {name: {"count", "size",
                                  "storageSize", "totalIndexSize", "indexSizes", "nindexes",
                                  "source": "$collStats"|"collStats", "raw": {...}}}}
    <prefix>.dbStats.json        {"taken_utc", "db", "dbStats": {...}}
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from ._proc import utc_iso, write_json
from .redact import redact, redact_uri

DEFAULT_DB = "engbench"
_COLL_KEYS = ("count", "size", "storageSize", "totalIndexSize", "totalSize", "indexSizes", "nindexes",
              "avgObjSize", "freeStorageSize")


def _jsonable(obj):
    """BSON replies → JSON-friendly values (ObjectId, datetime, Timestamp, Int64, bytes...)."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    if isinstance(obj, dt.datetime):
        return obj.isoformat()
    if isinstance(obj, (bytes, bytearray)):
        return obj.hex()
    try:
        from bson.timestamp import Timestamp
        if isinstance(obj, Timestamp):
            return {"t": obj.time, "i": obj.inc}
    except ImportError:  # pragma: no cover
        pass
    return str(obj)


class MongoTarget:
    """A MongoDB-compatible server given by URI (never started or stopped by engbench)."""

    def __init__(self, uri: str, db: str = DEFAULT_DB, **client_kw):
        import pymongo
        self._uri = uri
        self.db = db
        kw = dict(serverSelectionTimeoutMS=10000)
        kw.update(client_kw)
        self.client = pymongo.MongoClient(uri, **kw)

    @property
    def uri(self) -> str:
        """The URI with its password replaced by ***: safe to print and store."""
        return redact_uri(self._uri)

    def __repr__(self) -> str:
        return f"MongoTarget({self.uri!r}, db={self.db!r})"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self) -> None:
        self.client.close()

    def alive(self) -> bool:
        from pymongo.errors import PyMongoError
        try:
            self.client.admin.command("ping")
            return True
        except PyMongoError:
            return False

    def stop(self) -> None:
        """Not ours to stop: closes the client only."""
        self.close()

    # --- statistics ---
    def server_status(self) -> dict:
        status = _jsonable(self.client.admin.command("serverStatus"))
        wt = status.get("wiredTiger")
        cache = wt.get("cache") if isinstance(wt, dict) else None
        note = None
        if wt is None:
            note = ("serverStatus has no wiredTiger section (not a WiredTiger mongod: e.g. FerretDB, "
                    "or another storage engine)")
        elif cache is None:
            note = "serverStatus.wiredTiger has no cache section"
        return {"serverStatus": status, "wiredTiger_cache": cache, "wiredTiger_note": note}

    def coll_stats(self, db: str | None = None, collections: list[str] | None = None) -> dict:
        """Per collection: count, size, storageSize, index sizes. `$collStats` first (MongoDB's
        current way), the `collStats` command when the aggregation stage is refused."""
        from pymongo.errors import PyMongoError
        database = self.client[db or self.db]
        names = collections if collections is not None else sorted(
            n for n in database.list_collection_names() if not n.startswith("system."))
        out = {}
        for name in names:
            try:
                docs = list(database[name].aggregate([{"$collStats": {"storageStats": {}}}]))
                raw = _jsonable(docs[0]["storageStats"]) if docs else {}
                source = "$collStats"
                if not raw:
                    raise KeyError("empty $collStats")
            except (PyMongoError, KeyError, IndexError):
                raw = _jsonable(database.command("collStats", name))
                source = "collStats"
            entry = {k: raw.get(k) for k in _COLL_KEYS}
            entry.update(source=source, raw=raw)
            out[name] = entry
        return out

    def db_stats(self, db: str | None = None) -> dict:
        return _jsonable(self.client[db or self.db].command("dbStats"))

    def capture(self, path_prefix, db: str | None = None) -> dict[str, Path]:
        """Write serverStatus, collStats (every collection of `db`) and dbStats as three JSON files
        `<path_prefix>.<what>.json`; returns {what: path}."""
        prefix = Path(path_prefix)
        prefix.parent.mkdir(parents=True, exist_ok=True)
        dbname = db or self.db
        head = {"schema": 1, "kind": "mongodb", "uri": self.uri, "db": dbname}
        out = {}
        t = time.time()
        out["serverStatus"] = write_json(f"{prefix}.serverStatus.json", redact(
            {**head, "taken_utc": utc_iso(), "taken_unix_s": round(t, 3), **self.server_status()}, from_env=False))
        out["collStats"] = write_json(f"{prefix}.collStats.json", redact(
            {**head, "taken_utc": utc_iso(), "taken_unix_s": round(time.time(), 3),
             "collections": self.coll_stats(dbname)}, from_env=False))
        out["dbStats"] = write_json(f"{prefix}.dbStats.json", redact(
            {**head, "taken_utc": utc_iso(), "taken_unix_s": round(time.time(), 3),
             "dbStats": self.db_stats(dbname)}, from_env=False))
        return out

    # --- checks ---
    def read_back_sample(self, db: str, coll: str, ids) -> list[dict]:
        """The documents with these _ids, in the order of `ids` (missing ones left out), for
        checking that what a workload wrote is there. Asked in chunks of 40 ids."""
        ids = list(ids)
        found = {}
        collection = self.client[db][coll]
        for i in range(0, len(ids), 40):
            for doc in collection.find({"_id": {"$in": ids[i:i + 40]}}):
                found[doc["_id"]] = doc
        return [found[i] for i in ids if i in found]
