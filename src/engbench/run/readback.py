"""What a workload wrote, read back through the server after the run, on every server target
(MariaDB by SQL, MongoDB by pymongo) and for every workload the targets run: the collections or
tables the workload writes and how many documents or rows each should hold, from the run's
parameters and its driver summary (expected), then what the server holds (read_back) into
run_dir/server/read_back.json.

A collection that holds fewer documents than the workload wrote — a missing one holds 0 — is a
warning the run records (manifest `warnings`, then runs.warnings), never a silent pass; so is a
read-back that cannot be made at all.

What each workload writes is stated in its folder (engbench.workloads.<name>: Workload.written).
"""

from __future__ import annotations

from .. import registry

SAMPLE = 3  # documents or rows kept per collection in read_back.json


def expected(workload: str, params: dict, summary: dict) -> dict:
    """{collection or table name: the least number of documents or rows it must hold (None: more
    than 0)} for ``workload`` run with ``params`` (its summary: what the driver reports), as the
    workload's folder states it (Workload.written)."""
    written = registry.get(workload).written
    if written is None:
        raise ValueError(f"read-back: no collections known for workload {workload!r}")
    return written(params, summary)


def shortfalls(want: dict, got: dict) -> list[str]:
    """One warning per collection holding fewer documents than ``want`` says (``got``: name →
    {"count": n}, or {"error": text} when it could not be read)."""
    out = []
    for name, least in want.items():
        g = got.get(name) or {}
        if "error" in g:
            out.append(f"read-back: {name} could not be read ({g['error']})")
            continue
        n = int(g.get("count") or 0)
        if least is None and n == 0:
            out.append(f"read-back: {name} holds 0 documents after the run; the workload wrote to it")
        elif least is not None and n < least:
            out.append(f"read-back: {name} holds {n} documents after the run, fewer than the {least} "
                       "the workload wrote")
    return out


def mongo(db, names) -> dict:
    """name → {"count", "sample"} of each collection of ``names`` in the pymongo database ``db``."""
    out = {}
    for name in names:
        try:
            out[name] = {"count": db[name].count_documents({}),
                         "sample": list(db[name].find({}, {"_id": 0}).limit(SAMPLE))}
        except Exception as exc:  # noqa: BLE001 - named in read_back.json and the run's warnings
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _count_rows(cur, table: str) -> int:
    """The table's rows counted through its primary key, where it has one: MyRocks answers a bare
    COUNT(*) from a secondary index, which held 5,000 entries when a failed bulk load had left no row."""
    try:
        cur.execute(f"SELECT COUNT(*) FROM {table} FORCE INDEX (PRIMARY)")
    except Exception as exc:  # noqa: BLE001 - a table without a primary key: MariaDB error 1176
        if "PRIMARY" not in str(exc):
            raise
        cur.execute(f"SELECT COUNT(*) FROM {table}")
    return int(cur.fetchone()[0])


def mariadb(conn, database: str, names) -> dict:
    """name → {"count", "sample"} of each table of ``names`` in ``database`` over a PyMySQL
    connection (rows as {column: value})."""
    out = {}
    for name in names:
        try:
            with conn.cursor() as cur:
                count = _count_rows(cur, f"`{database}`.`{name}`")
                cur.execute(f"SELECT * FROM `{database}`.`{name}` LIMIT {SAMPLE}")
                cols = [d[0] for d in cur.description]
                sample = [dict(zip(cols, row)) for row in cur.fetchall()]
            out[name] = {"count": count, "sample": sample}
        except Exception as exc:  # noqa: BLE001 - named in read_back.json and the run's warnings
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def report(workload: str, params: dict, summary: dict, got: dict, where: dict) -> tuple[dict, list[str]]:
    """(read_back.json's content, its warnings): per collection what the workload wrote at least
    (expected) and what the server holds (count, sample)."""
    want = expected(workload, params, summary)
    doc = {**where, "workload": workload,
           "collections": {n: {"expected_at_least": want[n], **got.get(n, {})} for n in want}}
    return doc, shortfalls(want, got)
