"""Source document 001 (sysbench update_non_index on MongoDB 2.6, InnoDB and TokuMX, 8–64 clients,
IO-bound): repro_sysbench_update_clients.yaml (LMDB and SQLite: one writer at a time, as mmapv1 under
its per-database lock) and repro_sysbench_update_clients_rocksdb.yaml (RocksDB: concurrent writers,
as TokuMX and InnoDB).

The source's regime: 349–874 GB databases on a 72 GB server (5–12x RAM), every update a
read-modify-write whose read goes to the disk array: 0.85–1.04 disk reads per update for InnoDB and
TokuMX, 2.0 for mmapv1, at every client count. Here: tables at least 4x the memory limit, and at
least half a device read per update at every step (the claims then test "about 1")."""

from __future__ import annotations

from ...rulebook import rules
from ...rulebook.regime import Gate
from ...rulebook.finding import Finding, Pick

SB = "repro_sysbench_update_clients"  # LMDB and SQLite; RocksDB from SB + "_rocksdb"
CLIENTS = (1, 2, 4, 8, 16, 32)
_SRC = "349–874 GB databases on 72 GB of RAM; 0.85–2.1 disk reads per update at 8–64 clients"
GATES = {exp: (Gate("tables_per_memory_limit", lo=4.0, source=_SRC),
               Gate("step_device_reads_per_op", lo=0.5, source=_SRC))
         for exp in (SB, SB + "_rocksdb")}


def sb(engine, clients, value):
    return Pick(f"{engine}, {clients} client{'s' if clients > 1 else ''}", SB + ("_rocksdb" if engine == "rocksdb" else ""),
                engine, f"steps:{value}", {"clients": clients})


_SINGLE = [(e, (sb(e, 1, "q"), sb(e, 32, "q"))) for e in ("lmdb", "sqlite")]
_STREAM = [(e, (sb(e, 1, "cg_r_per_s"), sb(e, 32, "cg_r_per_s"))) for e in ("lmdb", "sqlite")]
_SCALE = (sb("rocksdb", 1, "q"), sb("rocksdb", 32, "q"))
_READS = tuple(sb("rocksdb", c, "cg_r_per_op") for c in CLIENTS)       # the run's cgroup's reads
_RPS = tuple(sb("rocksdb", c, "cg_r_per_s") for c in CLIENTS)
_PUB = "001_sysbench_update_"
FINDINGS = [
    Finding("001-single-writer-flat", "001", "MongoDB TPS does not increase with concurrency",
            "updates/s at 1 and 32 clients", "LMDB and SQLite (one writer at a time, as mmapv1's per-database lock)",
            (_PUB + "tps.csv", {"product": "MongoDB"}, "tps", "configuration"),
            tuple(p for _, ps in _SINGLE for p in ps),
            lambda s: rules.all_of([rules.at_most(s, ps[1].label, ps[0].label) for _, ps in _SINGLE]),
            "for each engine, 32 clients at most 1.25× 1 client (\"does not increase\")", "updates/s", version=2),
    Finding("001-single-io-stream", "001", "And the per-database RW-lock guarantees that is the case.",
            "device reads/s of the run's cgroup at 1 and 32 clients", "LMDB and SQLite (one writer at a time)",
            (_PUB + "iostat_reads_per_s.csv", {"product": "MongoDB"}, "iostat_reads_per_s", "configuration"),
            tuple(p for _, ps in _STREAM for p in ps),
            lambda s: rules.all_of([rules.at_most(s, ps[1].label, ps[0].label) for _, ps in _STREAM]),
            "for each engine, reads/s at 32 clients at most 1.25× 1 client (one stream of IO requests)", "reads/s"),
    Finding("001-tps-scales", "001", "TPS does increase with concurrency for InnoDB and TokuMX",
            "updates/s at 1 and 32 clients", "RocksDB (concurrent writers, as TokuMX)",
            (_PUB + "tps.csv", {"product": "TokuMX"}, "tps", "configuration"),
            _SCALE, lambda s: rules.greater(s, _SCALE[1].label, _SCALE[0].label, 1.5),
            "32 clients >= 1.5× 1 client, repetitions apart", "updates/s", version=2),
    Finding("001-pending-reads-scale", "001", "which benefit from having many more concurrent pending disk reads",
            "device reads/s of the run's cgroup, 1 to 32 clients", "RocksDB (concurrent writers, as TokuMX)",
            (_PUB + "iostat_reads_per_s.csv", {"product": "TokuMX"}, "iostat_reads_per_s", "configuration"),
            (_RPS[0], _RPS[-1]), lambda s: rules.greater(s, _RPS[-1].label, _RPS[0].label, 1.5),
            "reads/s at 32 clients >= 1.5× at 1 client, repetitions apart", "reads/s", version=2),
    Finding("001-one-read-per-update", "001", "InnoDB & TokuMX do about 1 per update",
            "disk reads per update (the run's own cgroup's reads / updates)", "RocksDB, each client count",
            (_PUB + "disk_reads_per_update.csv", {"product": "TokuMX"}, "disk_reads_per_update", "configuration"),
            _READS, lambda s: rules.all_of([rules.about(s, p.label, 1.0) for p in _READS]),
            "about 1 (0.8–1.25) at every client count", "reads / update", version=3),
    Finding("001-mongo-twice-the-reads", "001",
            "MongoDB does twice the number of disk reads per update compared to TokuMX and InnoDB",
            "disk reads per update", "mmapv1 (not available)",
            (_PUB + "disk_reads_per_update.csv", {"product": "MongoDB"}, "disk_reads_per_update", "configuration"),
            (), lambda s: rules.not_testable(
                "the claim is about mmapv1's B-tree over a memory-mapped file with a separate PK index; no mongod "
                "(and so no mmapv1) is installable here, and LMDB's single B+tree holds the row in the key's leaf"),
            "—"),
]
