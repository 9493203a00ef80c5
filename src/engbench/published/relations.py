"""The relations between columns of published tables, one declarative entry each.

A relation recomputes the interval a stated value must lie in from other stated values. It names
its output column and its input columns; an input is a column of the same record, or of another
record picked by `Ref.select` (e.g. the FALSE row for a percent change) and matched on the
identifying columns both records share (configuration, clients, engine, source document, ...). Inputs may
come from another loaded table: iostat r/s and TPS live in tables of their own.

`formula(*inputs)` returns an Interval (or {convention: Interval} when a unit convention is in
doubt, e.g. GB vs GiB: the value is consistent if any convention fits, and the line says which).
Bounds are relations too: "us+sy is 0..100 %" gives the interval of values Mcpu/i may take.
Add a relation by adding one entry to RELATIONS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .values import Interval, between, fmt_number

KiB, MiB, GiB = 2**10, 2**20, 2**30
MIN_IO_KB, MAX_IO_KB = 0.5, 512.0   # one 512-byte sector .. Linux default max_sectors_kb (512 KiB)
PERCENT = between(0, 100)


@dataclass(frozen=True)
class Ref:
    """Column `column` of the record that matches the output record except for `select`."""
    column: str
    select: tuple[tuple[str, str | tuple[str, ...]], ...] = ()

    def __str__(self):
        if not self.select:
            return self.column
        sel = ", ".join(f"{k}={v if isinstance(v, str) else '|'.join(v)}" for k, v in self.select)
        return f"{self.column}[{sel}]"


def ref(column: str, **select) -> Ref:
    return Ref(column, tuple(select.items()))


@dataclass(frozen=True)
class Relation:
    name: str
    output: str
    inputs: tuple[Ref | str, ...]
    formula: Callable[..., Interval | dict[str, Interval]]
    explanation: str
    where: tuple[tuple[str, str | tuple[str, ...]], ...] = ()
    note: Callable[..., str] | None = field(default=None, compare=False)  # (stated, *inputs) -> str
    # (definition, formula(*inputs)): readings under which a value that does not hold as stated is
    # consistent (check.benign_reading); the first that fits is named as the value's benign_definition
    # (the definition may be a function of the inputs, to name the numbers it rests on)
    benign: tuple[tuple[str | Callable[..., str], Callable[..., Interval | dict[str, Interval]]], ...] = field(
        default=(), compare=False)

    @property
    def refs(self) -> tuple[Ref, ...]:
        return tuple(i if isinstance(i, Ref) else Ref(i) for i in self.inputs)


def _pct_note(stated: Interval, rate: Interval) -> str:
    pct = stated * rate / 1e6
    return f"implies mean vmstat us+sy = {fmt_number(round(pct.mid, 1))}% of all CPUs"


def _usec_note(stated: Interval, rate: Interval, threads: Interval) -> str:
    busy = stated * rate / 1e6
    return (f"as CPU µs per op it implies {fmt_number(round(busy.mid, 1))} CPU-seconds per second "
            f"on {fmt_number(threads.mid)} HW threads")


def _pct_change(col: str, pct_col: str) -> Relation:
    return Relation(
        f"pct_change:{col}", pct_col, (col, ref(col, read_once="FALSE")),
        lambda t, f: (t - f) / f * 100,
        f"% change = (TRUE − FALSE) / FALSE × 100 of {col}", where=(("read_once", "TRUE"),))


def _after_minus_before(col: str) -> Relation:
    return Relation(
        f"difference:{col}", col,
        (ref(col, row_as_printed="after"), ref(col, row_as_printed="before")),
        lambda a, b: a - b, "difference = after − before",
        where=(("row_as_printed", ("difference", "diff")),))


def _true_minus_false(col: str) -> Relation:
    return Relation(
        f"true_minus_false:{col}", col,
        (ref(col, read_once="TRUE"), ref(col, read_once="FALSE")),
        lambda t, f: t - f, "diff block = read-once TRUE − FALSE",
        where=(("read_once", "TRUE_minus_FALSE"),))


MCPU_AS_VMSTAT = ("Mcpu = vmstat us+sy × 1e6 ÷ rate (percent of all CPUs per operation per second, the "
                  "author's ios.sh), not CPU µs per operation")


def _part(whole: Interval) -> Interval:
    """A part of a whole: 0 … whole."""
    return between(0, 1) * whole


def _gb_whole(gb: Interval, minus=0) -> dict[str, Interval]:
    """0 … (gb GB − minus bytes), GB read as GiB or as 10^9 B."""
    return {"GiB (2^30 B)": _part(gb * GiB - minus), "GB (10^9 B)": _part(gb * 1e9 - minus)}


def _gb(bytes_: Interval) -> dict[str, Interval]:
    return {"GiB (2^30 B)": bytes_ / GiB, "GB (10^9 B)": bytes_ / 1e9}


def _mb(bytes_: Interval) -> dict[str, Interval]:
    return {"MB (10^6 B)": bytes_ / 1e6, "MiB (2^20 B)": bytes_ / MiB}


ALL = {"variant": "all"}

RELATIONS: tuple[Relation, ...] = (
    # -- per-operation CPU: Mcpu = mean(vmstat us+sy) × 1e6 / rate -------------------------------
    Relation("cpu_pct:insert", "mcpu_per_insert", ("ips",), lambda ips: PERCENT * 1e6 / ips,
             "Mcpu/i = mean(vmstat us+sy) × 1e6 ÷ ips and us+sy is 0–100 % of all CPUs",
             note=_pct_note),
    Relation("cpu_pct:txn", "mcpu_per_txn", ("tps",), lambda tps: PERCENT * 1e6 / tps,
             "Mcpu/t = mean(vmstat us+sy) × 1e6 ÷ tps and us+sy is 0–100 % of all CPUs",
             note=_pct_note),
    Relation("cpu_usec_as_stated:insert", "mcpu_per_insert", ("ips", "ctx_hw_threads"),
             lambda ips, n: between(0, 1) * n * 1e6 / ips,
             "legend says 'CPU usecs/insert': then Mcpu/i × ips ÷ 1e6 CPU-seconds per second "
             "cannot exceed the machine's hardware threads (sources.csv)", note=_usec_note,
             benign=((MCPU_AS_VMSTAT, lambda ips, n: PERCENT * 1e6 / ips),)),
    Relation("cpu_usec_as_stated:txn", "mcpu_per_txn", ("tps", "ctx_hw_threads"),
             lambda tps, n: between(0, 1) * n * 1e6 / tps,
             "legend says 'CPU usecs/transaction': then Mcpu/t × tps ÷ 1e6 CPU-seconds per second "
             "cannot exceed the machine's hardware threads (sources.csv)", note=_usec_note,
             benign=((MCPU_AS_VMSTAT, lambda tps, n: PERCENT * 1e6 / tps),)),
    # -- per-operation IO ----------------------------------------------------------------------
    Relation("disk_reads_per_update", "disk_reads_per_update", ("iostat_reads_per_s", "tps"),
             lambda r, tps: r / tps, "disk reads per update = iostat r/s ÷ TPS"),
    Relation("read_size:txn", "rkb_per_txn", ("reads_per_txn",),
             lambda r: r * between(MIN_IO_KB, MAX_IO_KB),
             "rKB/t ÷ r/t is the mean read size: one 512 B sector .. 512 KiB (max_sectors_kb)"),
    Relation("read_size:200k", "io_kb_read_per_200k_inserts", ("io_reads_per_200k_inserts",),
             lambda r: r * between(MIN_IO_KB, MAX_IO_KB),
             "io.kBr ÷ io.r is the mean read size: one 512 B sector .. 512 KiB (max_sectors_kb)"),
    Relation("written_ge_db_size:200k", "io_kb_written_per_200k_inserts",
             ("db_size_gb", "final collection size"),
             lambda gb, docs: between(1, float("inf")) * gb * 1e9 / KiB / docs * 200_000,
             "a load from empty writes at least the final database: KB written per 200k docs ≥ "
             "db size (GB, read as 10^9 B; kB = 1024 B) ÷ documents × 200,000",
             benign=(("KB written per request of 1000 documents (the documents' request size), not per "
                      "200k inserts", lambda gb, docs: between(1, float("inf")) * gb * 1e9 / KiB / docs * 1000),)),
    Relation("rss_le_ram", "rss_gb", ("ctx_ram_gb",), lambda ram: between(0, 1) * ram,
             "mongod RSS cannot exceed the machine's RAM (sources.csv)"),
    # -- percent changes and differences (SERVER-? bug thread tables) ---------------------------
    _pct_change("scan_time_ms", "pct_change_true_vs_false_as_printed"),
    _pct_change("index_build_time_ms_avg", "index_build_time_pct_change"),
    _pct_change("read_ops_per_s_avg", "read_ops_per_s_pct_change"),
    _after_minus_before("bytes"), _after_minus_before("pages"),
    _true_minus_false("bytes"), _true_minus_false("pages"),
    # -- collection stats (db.collection.stats()) -----------------------------------------------
    Relation("avg_obj_size", "avgObjSize", ("size", "count"), lambda s, n: s / n,
             "avgObjSize = size ÷ count"),
    Relation("storage_size_is_file_size", "storageSize",
             ("wiredTiger.block-manager.file size in bytes",), lambda b: b,
             "WiredTiger storageSize = block-manager file size in bytes"),
    Relation("total_index_size", "totalIndexSize", ("indexSizes._id_",), lambda b: b,
             "totalIndexSize = sum of indexSizes (one index)", where=(("nindexes", "1"),)),
    # -- file sizes, totals and ratios ----------------------------------------------------------
    Relation("ls_data_is_storage_size", "data file", ("storageSize",), lambda b: b,
             "ls -l size of the collection's data file = its storageSize"),
    Relation("ls_index_is_index_size", "index file", ("totalIndexSize",), lambda b: b,
             "ls -l size of the index file = the collection's totalIndexSize (one index)"),
    Relation("total_documents", "total documents",
             ("loaders (= collections)", "documents per loader/collection"), lambda a, b: a * b,
             "total documents = loaders × documents per loader"),
    Relation("data_bytes_total", "data bytes x 16", ("data file", ref("loaders (= collections)", **ALL)),
             lambda b, n: b * n, "data total = data file bytes × collections"),
    Relation("index_bytes_total", "index bytes x 16",
             ("index file", ref("loaders (= collections)", **ALL)),
             lambda b, n: b * n, "index total = index file bytes × collections"),
    Relation("logical_bytes", "22 B x count (logical, per collection)",
             ("document size", ref("documents per loader/collection", **ALL)),
             lambda s, n: s * n, "logical bytes = document size × documents per collection"),
    Relation("logical_is_stats_size", "22 B x count (logical, per collection)", ("size",),
             lambda b: b, "logical bytes per collection = collection stats size"),
    Relation("document_size_is_avg_obj_size", "document size", ("avgObjSize",), lambda b: b,
             "document size = collection stats avgObjSize"),
    Relation("logical_bytes_total", "logical bytes x 16",
             ("22 B x count (logical, per collection)", ref("loaders (= collections)", **ALL)),
             lambda b, n: b * n, "logical total = bytes per collection × collections"),
    Relation("data_gb", "data GB x 16", ("data bytes x 16",), _gb, "GB = bytes ÷ unit"),
    Relation("index_gb", "index GB x 16", ("index bytes x 16",), _gb, "GB = bytes ÷ unit"),
    Relation("logical_gb", "logical GB x 16", ("logical bytes x 16",), _gb, "GB = bytes ÷ unit"),
    Relation("grand_total_gb", "data+index GB", ("data GB x 16", "index GB x 16"),
             lambda d, i: d + i, "grand total = printed data GB + printed index GB"),
    Relation("grand_total_gb:logical", "data+index GB", ("logical GB x 16", "index GB x 16"),
             lambda d, i: d + i, "grand total = printed data GB + printed index GB"),
    Relation("grand_total_gb:bytes", "data+index GB", ("data bytes x 16", "index bytes x 16"),
             lambda d, i: _gb(d + i), "grand total = (data bytes + index bytes) ÷ unit"),
    Relation("grand_total_gb:logical_bytes", "data+index GB",
             ("logical bytes x 16", "index bytes x 16"),
             lambda d, i: _gb(d + i), "grand total = (data bytes + index bytes) ÷ unit"),
    Relation("ratio_data", "uncompressed/zlib data",
             (ref("logical GB x 16", variant="uncompressed"), ref("data GB x 16", variant="zlib")),
             lambda u, z: u / z, "data ratio = uncompressed GB ÷ zlib GB (printed GB)"),
    Relation("ratio_index", "uncompressed/zlib index",
             (ref("index GB x 16", variant="uncompressed"), ref("index GB x 16", variant="zlib")),
             lambda u, z: u / z, "index ratio = uncompressed GB ÷ zlib GB (printed GB)"),
    # -- CloudWatch graph captions --------------------------------------------------------------
    Relation("ebs_bytes_per_write", "VolumeWriteBytes", ("VolumeWriteOps",),
             lambda ops: ops * between(MIN_IO_KB * KiB, 1 * MiB),
             "VolumeWriteBytes (Sum) over VolumeWriteOps (Sum) is the mean write size: 512 B .. 1 MiB",
             benign=(("VolumeWriteBytes as CloudWatch's Average statistic (bytes per write operation), not "
                      "the Sum", lambda ops: between(MIN_IO_KB * KiB, 1 * MiB)),)),
    Relation("ebs_consumed_ge_write_ops", "VolumeConsumedReadWriteOps", ("VolumeWriteOps",),
             lambda ops: ops * between(1, float("inf")),
             "consumed read+write ops (in 256 KiB units) ≥ write ops"),
    # -- a part is no larger than its whole (across a document's tables and its test conditions) --
    Relation("part_le_whole:checkpoint_in_file", "wiredTiger.block-manager.checkpoint size",
             ("wiredTiger.block-manager.file size in bytes",), _part,
             "a checkpoint's blocks are part of the file: checkpoint size ≤ file size in bytes"),
    Relation("part_le_whole:reusable_in_file", "wiredTiger.block-manager.file bytes available for reuse",
             ("wiredTiger.block-manager.file size in bytes",), _part,
             "free blocks are part of the file: bytes available for reuse ≤ file size in bytes"),
    Relation("part_le_whole:data_in_total", "data GB x 16", ("data+index GB",), _part,
             "the data total is part of the grand total: data GB ≤ data+index GB"),
    Relation("part_le_whole:logical_in_total", "logical GB x 16", ("data+index GB",), _part,
             "the (uncompressed) data total is part of the grand total: logical GB ≤ data+index GB"),
    Relation("part_le_whole:index_in_total", "index GB x 16", ("data+index GB",), _part,
             "the index total is part of the grand total: index GB ≤ data+index GB"),
    Relation("part_le_whole:database_on_device", "size_gb", ("ctx_device_gb",), _part,
             "the database is part of the device it is on: size ≤ the SSD's capacity (sources.csv)"),
    Relation("part_le_whole:hot_in_cache", "bytes", (ref("bytes", collection="cold"), "ctx_cache_gb"),
             lambda cold, gb: _gb_whole(gb, cold),
             "both collections share the cache: hot bytes in cache ≤ cache size − cold bytes in cache",
             where=(("collection", "hot"), ("read_once", ("FALSE", "TRUE")), ("row_as_printed", ("before", "after")))),
    Relation("part_le_whole:collection_in_cache", "bytes",
             ("ctx_collection_pct_of_cache", "ctx_cache_gb", "ctx_compression_ratio"),
             lambda pct, gb, ratio: _gb_whole(gb * pct / 100),
             "a collection's bytes in cache are part of the collection: ≤ its size, stated as a share of "
             "the cache (sources.csv)",
             where=(("collection", ("hot", "cold")), ("read_once", ("FALSE", "TRUE")),
                    ("row_as_printed", ("before", "after"))),
             benign=((lambda pct, gb, ratio: f"the collection's size measured on disk, compressed "
                      f"~{fmt_number(ratio.mid)}:1 (sources.csv), while the cache holds its pages uncompressed",
                      lambda pct, gb, ratio: _gb_whole(gb * pct / 100 * ratio)),)),
    # -- numbers in the prose that restate table values ----------------------------------------
    Relation("text:hot_cache_bytes", "hot collection extra data in cache",
             (ref("bytes", read_once="TRUE_minus_FALSE", row_as_printed="after", collection="hot"),),
             _mb, "quote restates the TRUE − FALSE 'after' bytes in cache of the hot collection"),
    Relation("text:cold_cache_bytes", "cold collection less data in cache",
             (ref("bytes", read_once="TRUE_minus_FALSE", row_as_printed="after", collection="cold"),),
             lambda b: _mb(-b),
             "quote restates the TRUE − FALSE 'after' bytes in cache of the cold collection"),
    Relation("text:hot_evictions", "hot collection fewer evictions",
             (ref("pages", read_once="TRUE_minus_FALSE", row_as_printed="diff", collection="hot"),),
             lambda p: -p, "quote restates the TRUE − FALSE unmodified pages evicted (hot)"),
    Relation("text:cold_evictions", "cold collection more evictions",
             (ref("pages", read_once="TRUE_minus_FALSE", row_as_printed="diff", collection="cold"),),
             lambda p: p, "quote restates the TRUE − FALSE unmodified pages evicted (cold)"),
    Relation("text:scan_time_decrease", "scan time decrease",
             (ref("pct_change_true_vs_false_as_printed", read_once="TRUE",
                  statistic_over_5_trials="avg"),),
             lambda p: -p, "quote restates the avg scan-time % change"),
    Relation("text:mongo_clients", "mongo clients", (ref("loaders (= collections)", **ALL),),
             lambda n: n, "quote restates the number of loaders"),
    Relation("text:final_collection_size", "final collection size",
             ("loader threads", "documents per loader"), lambda a, b: a * b,
             "final collection size = loader threads × documents per loader"),
)

MEASURE_COLUMNS = frozenset(
    {r.output for r in RELATIONS} | {x.column for r in RELATIONS for x in r.refs}
)
