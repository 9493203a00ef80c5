"""The findings: each claim of the source documents (their texts, as data/published records
them) that an experiment of notebooks/params/repro_*.yaml re-measures here, with the rule that
turns the measured samples into a verdict (rules.py). The words are quoted from the documents;
what is compared, and how, is stated beside them; nothing here is a measured value or a verdict.

The engines of the source documents are not all available (no mongod exists in any registry this
machine reaches: docs/engines-on-this-machine.md), so a claim about one of them is tested on the
engine here that shares the property the claim is about, and `subject` says which: WiredTiger
B-tree and LSM are themselves; RocksDB stands for MongoRocks (and for TokuMX/InnoDB, engines
whose updates "do about 1 read" and scale with clients); LMDB and SQLite, which admit one writer
at a time, stand for mmapv1 under its per-database lock. A claim whose subject has no stand-in is
listed as not testable, with the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import rules
from .measure import Pick

SOURCE_FILE = {"000": "000_a3a626a83483af6f.txt", "001": "001_ffa936ca1d40f895.txt", "002": "002_92cf65a0046cd51e.txt",
               "003": "003_53b7f683035550ff.txt", "004": "004_cd5e51f7aa5a3e49.txt"}
SOURCE_TITLE = {"000": "MongoRocks and WiredTiger versus linkbench on a small server (2016)",
                "001": "sysbench update_non_index: MongoDB, InnoDB and TokuMX (2014)",
                "002": "1.2M inserts/sec with MongoDB WiredTiger on AWS, part I (2015)",
                "003": "Read-modify-write optimized: iibench with B-tree and LSM (2014)",
                "004": "SERVER-37590: WiredTiger read-once cursors (2018)"}


@dataclass(frozen=True)
class Finding:
    id: str
    source: str               # "003": the source document (SOURCE_FILE, SOURCE_TITLE)
    words: str                # quoted from the source document
    metric: str               # what is measured here, with its unit
    subject: str              # what it is measured on here
    published: tuple          # (published CSV, {column: value} filter, value column, label column) or ()
    picks: tuple              # measure.Pick, one per compared configuration
    rule: Callable            # samples -> rules.Verdict
    rule_text: str            # the rule, in words
    chart_unit: str = ""


# --- source document 003: iibench, cache-size sweep (repro_iibench_cache_{large,medium,small}) -----
CACHE = (("repro_iibench_cache_large", "1 GB cache"), ("repro_iibench_cache_medium", "320 MiB limit"),
         ("repro_iibench_cache_small", "160 MiB limit"))


def _sweep(engine, value, tag=""):
    return tuple(Pick(f"{engine}{tag}, {label}", exp, engine, value) for exp, label in CACHE)


def _labels(picks):
    return [p.label for p in picks]


_LSM_Q, _BT_Q = _sweep("wiredtiger-lsm", "q"), _sweep("wiredtiger", "q")
_RX_Q = _sweep("rocksdb", "q")
# KB written and read: the run's own (the driver process's task I/O accounting, runs.proc_*), not
# iostat's, which on a shared machine adds every other user of the device to the run's I/O
_BT_W, _LSM_W = _sweep("wiredtiger", "proc_wkb_per_200k"), _sweep("wiredtiger-lsm", "proc_wkb_per_200k")
_BT_R, _LSM_R = _sweep("wiredtiger", "proc_rkb_per_200k"), _sweep("wiredtiger-lsm", "proc_rkb_per_200k")
P003 = ("003_iibench_per_200k_inserts.csv", {}, None, "engine_label_as_printed")

FINDINGS = [
    Finding("003-lsm-rate-flat", "003", "The insert rate for the LSM is insensitive to cache size",
            "inserts/s over the 20 s load", "WiredTiger LSM at three memory sizes", (),
            _LSM_Q, lambda s: rules.flat(s, _labels(_LSM_Q)),
            "flat: the largest mean within 1.25× the smallest", "docs/s"),
    Finding("003-rocksdb-rate-flat", "003", "The insert rate for the LSM is insensitive to cache size",
            "inserts/s over the 20 s load", "RocksDB (leveled LSM) at three memory sizes", (),
            _RX_Q, lambda s: rules.flat(s, _labels(_RX_Q)),
            "flat: the largest mean within 1.25× the smallest", "docs/s"),
    Finding("003-btree-rate-falls", "003",
            "The insert rate for the b-tree is sensitive to cache size",
            "inserts/s over the 20 s load", "WiredTiger B-tree at three memory sizes", (),
            _BT_Q, lambda s: rules.trend(s, _labels(_BT_Q), up=False, factor=1.5),
            "falls at every step, largest memory / smallest >= 1.5 (\"sensitive\"), ends apart", "docs/s"),
    Finding("003-btree-vs-lsm-crossover", "003",
            "goes from being much better than the LSM when the secondary index data stays in cache to "
            "much worse than the LSM when it does not",
            "inserts/s, B-tree against LSM", "WiredTiger B-tree and LSM, largest and smallest memory", (),
            (_BT_Q[0], _LSM_Q[0], _BT_Q[-1], _LSM_Q[-1]),
            lambda s: rules.all_of([rules.greater(s, _BT_Q[0].label, _LSM_Q[0].label, 1.5),
                                    rules.less(s, _BT_Q[-1].label, _LSM_Q[-1].label, 1.5)]),
            "B-tree >= 1.5× LSM at 1 GB and LSM >= 1.5× B-tree at 160 MiB (\"much\"), repetitions apart", "docs/s"),
    Finding("003-kbw-lsm-below-btree", "003",
            "The WiredTiger LSM is always more efficient than the btree",
            "KB written per 200k inserts (the run's own: task I/O accounting)", "WiredTiger LSM and B-tree at each memory size",
            ("003_iibench_per_200k_inserts.csv", {}, "io_kb_written_per_200k_inserts", "engine_label_as_printed"),
            _BT_W + _LSM_W,
            lambda s: rules.all_of([rules.less(s, lw.label, bw.label) for bw, lw in zip(_BT_W, _LSM_W)]),
            "LSM below B-tree at every memory size, repetitions apart", "KB / 200k inserts"),
    Finding("003-kbw-btree-grows", "003", "The IO rate grows a lot for the WiredTiger btree as the cache shrink",
            "KB written per 200k inserts (the run's own: task I/O accounting)", "WiredTiger B-tree at three memory sizes",
            ("003_iibench_per_200k_inserts.csv", {"engine": "WiredTiger b-tree"}, "io_kb_written_per_200k_inserts",
             "engine_label_as_printed"),
            _BT_W, lambda s: rules.trend(s, _labels(_BT_W), up=True, factor=1.5),
            "rises at every step, smallest memory / largest >= 1.5 (\"a lot\"), ends apart", "KB / 200k inserts"),
    Finding("003-kbr-btree-grows", "003", "The WiredTiger btree rate grows fast as the cache shrinks",
            "KB read per 200k inserts (the run's own: task I/O accounting)", "WiredTiger B-tree at three memory sizes",
            ("003_iibench_per_200k_inserts.csv", {"engine": "WiredTiger b-tree"}, "io_kb_read_per_200k_inserts",
             "engine_label_as_printed"),
            _BT_R, lambda s: rules.trend(s, _labels(_BT_R), up=True, factor=2.0),
            "rises at every step, smallest memory / largest >= 2 (\"fast\"), ends apart", "KB / 200k inserts"),
    Finding("003-kbr-lsm-flat-when-small", "003",
            "the LSM is rate does not grow as the cache is reduced from 32G to 8G",
            "KB read per 200k inserts (the run's own: task I/O accounting)", "WiredTiger LSM, the two capped memory sizes",
            ("003_iibench_per_200k_inserts.csv", {"engine": "WiredTiger LSM"}, "io_kb_read_per_200k_inserts",
             "engine_label_as_printed"),
            _LSM_R[1:], lambda s: rules.flat(s, _labels(_LSM_R[1:])),
            "flat: the two means within 1.25× of each other", "KB / 200k inserts"),
]

# --- source document 000: linkbench, cached and IO-bound, zlib and snappy (repro_linkbench_*) ----------
LB = {(db, c): f"repro_linkbench_{db}_{c}" for db in ("cached", "iobound") for c in ("zlib", "snappy")}


def _lb(engine, db, c, value, where=None, tag=""):
    return Pick(f"{engine}, {db}, {c}{tag}", LB[(db, c)], engine, value, dict(where or {}))


for db, words in (("cached", "WiredTiger throughput is much worse with zlib than with snappy"),
                  ("iobound", "Like the cached test, WiredTiger with zlib is much worse than with snappy")):
    picks = (_lb("wiredtiger", db, "snappy", "q"), _lb("wiredtiger", db, "zlib", "q"))
    FINDINGS.append(Finding(
        f"000-wt-zlib-slower-{db}", "000", words, "transactions/s (1 requester, 15 s after 5 s warm-up)",
        f"WiredTiger B-tree, {'cached' if db == 'cached' else 'memory-capped (288 MiB limit, 2.2M links)'}",
        (f"000_linkbench_query_{db}.csv", {"engine": "WiredTiger"}, "tps", "engine_label_as_printed"),
        picks, lambda s, p=picks: rules.greater(s, p[0].label, p[1].label, 1.5),
        "snappy >= 1.5× zlib (\"much\"), repetitions apart", "transactions/s"))

# CPU and KB written: the driver process's own (driver_process.csv), which holds the embedded engine; the
# source's Mcpu/t and wKB/t are machine-wide (vmstat, iostat), which here other users add to
_CPU = (_lb("wiredtiger", "cached", "zlib", "driver_cpu_us_per_op"),
        _lb("wiredtiger", "cached", "snappy", "driver_cpu_us_per_op"))
_LOADW = (_lb("rocksdb", "cached", "snappy", "loads:proc_wkb_per_op", tag=" (load)"),
          _lb("wiredtiger", "cached", "snappy", "loads:proc_wkb_per_op", tag=" (load)"))
_QW = (_lb("rocksdb", "cached", "snappy", "proc_wkb_per_op"), _lb("wiredtiger", "cached", "snappy", "proc_wkb_per_op"))
_SIZE = (_lb("wiredtiger", "cached", "snappy", "size_gb"), _lb("rocksdb", "cached", "snappy", "size_gb"))
_P99 = tuple(p for op in ("update_node", "get_node", "update_link", "get_links_list")
             for p in (_lb("rocksdb", "cached", "snappy", "latency:p99_us", {"op": op}, f" {op}"),
                       _lb("wiredtiger", "cached", "snappy", "latency:p99_us", {"op": op}, f" {op}")))
FINDINGS += [
    Finding("000-wt-zlib-cpu", "000",
            "There is also a huge difference in the CPU overhead for WiredTiger with zlib compared to WT with snappy",
            "CPU µs per transaction of the process running the engine (driver_process.csv)", "WiredTiger B-tree, cached",
            ("000_linkbench_query_cached.csv", {"engine": "WiredTiger"}, "mcpu_per_txn", "engine_label_as_printed"),
            _CPU, lambda s: rules.greater(s, _CPU[0].label, _CPU[1].label, 2.0),
            "zlib >= 2× snappy (\"huge\"), repetitions apart", "Mcpu / transaction"),
    Finding("000-rocks-writes-most-load", "000", "MongoRocks writes the most to storage per insert",
            "KB written per insert during the load (the run's own: task I/O accounting)",
            "RocksDB against WiredTiger, cached, snappy",
            ("000_linkbench_load_cached.csv", {}, "wkb_per_insert", "engine_label_as_printed"),
            _LOADW, lambda s: rules.greater(s, _LOADW[0].label, _LOADW[1].label),
            "RocksDB above WiredTiger, repetitions apart", "KB / insert"),
    Finding("000-rocks-writes-least-query", "000", "MongoRocks writes the least amount to storage per transaction",
            "KB written per transaction (the run's own: task I/O accounting)",
            "RocksDB against WiredTiger, cached, snappy",
            ("000_linkbench_query_cached.csv", {}, "wkb_per_txn", "engine_label_as_printed"),
            _QW, lambda s: rules.less(s, _QW[0].label, _QW[1].label),
            "RocksDB below WiredTiger, repetitions apart", "KB / transaction"),
    Finding("000-wt-space-after-query", "000",
            "WT uses much more space after the query steps",
            "database size at the end of the run (GiB allocated)", "WiredTiger against RocksDB, cached, snappy",
            ("000_linkbench_query_cached.csv", {}, "size_gb", "engine_label_as_printed"),
            _SIZE, lambda s: rules.greater(s, _SIZE[0].label, _SIZE[1].label, 1.5),
            "WiredTiger >= 1.5× RocksDB (\"much\"), repetitions apart", "GiB"),
    Finding("000-rocks-response-time", "000", "Response time is better for MongoRocks than for WiredTiger",
            "p99 latency of updateNode, getNode, updateList, getLinkedList (µs)",
            "RocksDB against WiredTiger, cached, snappy",
            ("000_linkbench_query_cached.csv", {}, "p99_ms_update_node", "engine_label_as_printed"),
            _P99, lambda s: rules.all_of([rules.less(s, _P99[i].label, _P99[i + 1].label)
                                          for i in range(0, len(_P99), 2)]),
            "RocksDB's p99 below WiredTiger's for each of the four operations, repetitions apart", "µs"),
]

# --- source document 001: sysbench update_non_index, 1..32 clients, IO-bound (repro_sysbench_update_clients) ----
SB = "repro_sysbench_update_clients"  # LMDB and SQLite, 64 MiB; RocksDB from SB + "_rocksdb", 128 MiB


def _sb(engine, clients, value):
    return Pick(f"{engine}, {clients} client{'s' if clients > 1 else ''}", SB + ("_rocksdb" if engine == "rocksdb" else ""),
                engine, f"steps:{value}", {"clients": clients})


_SINGLE = [(e, (_sb(e, 1, "q"), _sb(e, 32, "q"))) for e in ("lmdb", "sqlite")]
_SCALE = (_sb("rocksdb", 1, "q"), _sb("rocksdb", 32, "q"))
_READS = tuple(_sb("rocksdb", c, "cg_r_per_op") for c in (1, 2, 4, 8, 16, 32))  # the run's cgroup's reads
FINDINGS += [
    Finding("001-single-writer-flat", "001", "MongoDB TPS does not increase with concurrency",
            "updates/s at 1 and 32 clients", "LMDB and SQLite (one writer at a time, as mmapv1's "
            "per-database lock), 64 MiB limit",
            ("001_sysbench_update_tps.csv", {"product": "MongoDB"}, "tps", "configuration"),
            tuple(p for _, ps in _SINGLE for p in ps),
            lambda s: rules.all_of([rules.at_most(s, ps[1].label, ps[0].label) for _, ps in _SINGLE]),
            "for each engine, 32 clients at most 1.25× 1 client (\"does not increase\")", "updates/s"),
    Finding("001-tps-scales", "001", "TPS does increase with concurrency for InnoDB and TokuMX",
            "updates/s at 1 and 32 clients", "RocksDB (concurrent writers, as TokuMX), 128 MiB limit",
            ("001_sysbench_update_tps.csv", {"product": "TokuMX"}, "tps", "configuration"),
            _SCALE, lambda s: rules.greater(s, _SCALE[1].label, _SCALE[0].label, 1.5),
            "32 clients >= 1.5× 1 client, repetitions apart", "updates/s"),
    Finding("001-one-read-per-update", "001", "InnoDB & TokuMX do about 1 per update",
            "disk reads per update (the run's own cgroup's reads / updates)", "RocksDB, 128 MiB limit, each client count",
            ("001_sysbench_update_disk_reads_per_update.csv", {"product": "TokuMX"}, "disk_reads_per_update",
             "configuration"),
            _READS, lambda s: rules.all_of([rules.about(s, p.label, 1.0) for p in _READS]),
            "about 1 (0.8–1.25) at every client count", "reads / update"),
    Finding("001-mongo-twice-the-reads", "001",
            "MongoDB does twice the number of disk reads per update compared to TokuMX and InnoDB",
            "disk reads per update", "mmapv1 (not available)",
            ("001_sysbench_update_disk_reads_per_update.csv", {"product": "MongoDB"}, "disk_reads_per_update",
             "configuration"),
            (), lambda s: rules.not_testable(
                "the claim is about mmapv1's B-tree over a memory-mapped file with a separate PK index; no mongod "
                "(and so no mmapv1) is installable here, and LMDB's single B+tree holds the row in the key's leaf"),
            "—"),
]

# --- source document 002: bulk insert of {_id} documents (repro_bulk_insert_journal_{on,off}_{zlib,none}) ----
def _bk(journal, comp, value, tag=""):
    return Pick(f"journal {journal}, {comp}{tag}", f"repro_bulk_insert_journal_{journal}_{comp}", "wiredtiger", value)


_DATA = (_bk("off", "none", "wt_data_bytes", " (data)"), _bk("off", "zlib", "wt_data_bytes", " (data)"))
_INDEX = (_bk("off", "none", "wt_index_bytes", " (index)"), _bk("off", "zlib", "wt_index_bytes", " (index)"))
_ZSIZES = (_bk("off", "zlib", "wt_index_bytes", " (index)"), _bk("off", "zlib", "wt_data_bytes", " (data)"))
_JOURNAL = (_bk("off", "zlib", "q"), _bk("on", "zlib", "q"))


def _ratio_rule(s):
    """data none/zlib ratio above the index none/zlib ratio: compared per repetition pair."""
    d = [a / b for a, b in zip(s[_DATA[0].label], s[_DATA[1].label]) if b]
    i = [a / b for a, b in zip(s[_INDEX[0].label], s[_INDEX[1].label]) if b]
    return rules.greater({"data none/zlib": d, "index none/zlib": i}, "data none/zlib", "index none/zlib")


FINDINGS += [
    Finding("002-data-compresses-more-than-index", "002",
            "Data (Uncompressed/zlib compressed): 1024/224 = 4.57 … Index (Uncompressed/zlib compressed): "
            "984/468.8 = 2.01",
            "bytes on disk without compression / with zlib, data file and _id index file",
            "WiredTiger, journal off, 2M {_id} documents",
            ("002_file_sizes_totals_ratios.csv", {"item": "ratio"}, "value_as_printed", "quantity"),
            _DATA + _INDEX, _ratio_rule,
            "the data file's none/zlib ratio above the index file's, repetitions apart", "bytes"),
    Finding("002-index-larger-than-data", "002",
            "Data: … = 224 GB … Index: … = 468.8 GB (50 Billion documents = 693 GB compressed with zlib)",
            "allocated bytes of the _id index and of the data file, zlib", "WiredTiger, journal off, zlib",
            ("002_file_sizes_totals_ratios.csv", {"variant": "zlib", "quantity": "index GB x 16"},
             "value_as_printed", "item"),
            _ZSIZES, lambda s: rules.greater(s, _ZSIZES[0].label, _ZSIZES[1].label),
            "index file above data file, repetitions apart", "bytes"),
    Finding("002-journal-is-the-bottleneck", "002",
            "it looks like WT commit+journaling is a contention point … disable WT journaling to verify that "
            "it removes the bottleneck",
            "documents/s (2 loaders, 1000 per batch)", "WiredTiger, zlib, journal off against on", (),
            _JOURNAL, lambda s: rules.greater(s, _JOURNAL[0].label, _JOURNAL[1].label, 1.1),
            "journal off >= 1.1× journal on, repetitions apart", "documents/s"),
]

# --- source document 004: cache pollution with read_once (repro_cache_pollution_read_once_{true,false}) ----
def _cp(ro, value, where=None, tag=""):
    return Pick(f"read_once {ro}{tag}", f"repro_cache_pollution_read_once_{ro}", "wiredtiger", value,
                dict(where or {}))


HOT = "table:cp_hot | "
def _hot_stat(stat):
    """read_once true and false: a per-table statistic of the hot collection after the run."""
    return tuple(_cp(ro, "engine_stats:value", {"snapshot": "after", "stat": HOT + stat}) for ro in ("true", "false"))


_HOTB = _hot_stat("cache: bytes currently in the cache")
_EVICT = _hot_stat("cache: unmodified pages evicted")
_SCAN = (_cp("true", "cache_pollution:scan_hot_ms"), _cp("false", "cache_pollution:scan_hot_ms"))
_READ = (_cp("true", "cache_pollution:gets_per_s_during"), _cp("false", "cache_pollution:gets_per_s_during"))
FINDINGS += [
    Finding("004-hot-stays-in-cache", "004",
            "The \"hot\" collection had 927MB more data in cache with read-once: true than with read-once: false",
            "bytes of the hot collection in WiredTiger's cache after the cold pass", "WiredTiger, 64 MB cache",
            ("004_wt_cache_bytes_currently_in_cache.csv", {"row_as_printed": "after", "collection": "hot"}, "bytes",
             "read_once"),
            _HOTB, lambda s: rules.greater(s, _HOTB[0].label, _HOTB[1].label),
            "read_once true above false, repetitions apart", "bytes"),
    Finding("004-fewer-hot-evictions", "004",
            "The \"hot\" collection had 31k fewer cache evictions with read-once: true than with read-once: false",
            "unmodified pages of the hot collection evicted (run total)", "WiredTiger, 64 MB cache",
            ("004_wt_cache_unmodified_pages_evicted.csv", {"row_as_printed": "after", "collection": "hot"}, "pages",
             "read_once"),
            _EVICT, lambda s: rules.less(s, _EVICT[0].label, _EVICT[1].label),
            "read_once true below false, repetitions apart", "pages"),
    Finding("004-hot-scan-faster", "004",
            "The results showed with very low variance over 5 trials that collection scans were in fact faster",
            "time to scan the hot collection after the pass (ms)", "WiredTiger, 64 MB cache",
            ("004_collection_scan_time_ms.csv", {"statistic_over_5_trials": "avg"}, "scan_time_ms", "read_once"),
            _SCAN, lambda s: rules.less(s, _SCAN[0].label, _SCAN[1].label),
            "read_once true below false, repetitions apart", "ms"),
    Finding("004-read-throughput-unchanged", "004",
            "Using read_once=true cursors has shown to provide no performance benefits yet",
            "hot reads/s during the cold pass", "WiredTiger, 64 MB cache",
            ("004_index_build_and_read_throughput.csv", {}, "read_ops_per_s_avg", "read_once"),
            _READ, lambda s: rules.flat(s, [p.label for p in _READ]),
            "flat: the two means within 1.25× of each other", "reads/s"),
]
