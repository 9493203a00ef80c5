"""Source document 002 (bulk insert of tiny {_id} documents into MongoDB 3.0 / WiredTiger on a
36-core AWS instance, 16 loaders of 1000-document unordered bulk inserts, zlib, journal on):
repro_bulk_insert_journal_{on,off}_{zlib,none}.yaml.

The source's regime: documents of 22 bytes ({_id: ObjectId}), the collection compressed with zlib and
its _id index with prefix compression only (MongoDB's defaults), 16 loaders of which 10 were found
waiting in the journal's write (__wt_log_write) — the contention its journal claim is about."""

from __future__ import annotations

from ...rulebook import rules, rules_extra
from ...rulebook.regime import Gate
from ...rulebook.finding import Finding, Pick

# The journal claim's regime: loaders contending in the log's write. The source found 10 of its 16
# loaders waiting in __wt_log_write (stack samples); here the counter that sees it is WiredTiger's slot
# joins that yielded (a join that found the slot busy): a majority of them, as a majority of loaders.
_SLOTS = Gate("log_slot_wait_fraction", lo=0.5, source="10 of 16 loaders waiting in __wt_log_write (stack samples)")
GATES = {f"repro_bulk_insert_{x}": (_SLOTS,) for x in ("journal_on_zlib", "journal_on_none", "loaders_02",
                                                         "loaders_04", "loaders_08", "loaders_32")}


def bk(journal, comp, value, tag=""):
    return Pick(f"journal {journal}, {comp}{tag}", f"repro_bulk_insert_journal_{journal}_{comp}", "wiredtiger", value)


_DATA = (bk("off", "none", "wt_data_bytes", " (data)"), bk("off", "zlib", "wt_data_bytes", " (data)"))
_INDEX = (bk("off", "none", "wt_index_bytes", " (index)"), bk("off", "zlib", "wt_index_bytes", " (index)"))
_ZSIZES = (bk("off", "zlib", "wt_index_bytes", " (index)"), bk("off", "zlib", "wt_data_bytes", " (data)"))
_JOURNAL = (bk("off", "zlib", "q"), bk("on", "zlib", "q"))
_LOADERS = (Pick("32 loaders", "repro_bulk_insert_loaders_32", "wiredtiger", "q"),
            Pick("16 loaders", "repro_bulk_insert_journal_on_zlib", "wiredtiger", "q"))
_FOOT = (bk("off", "none", "table_bytes", " (data + index)"), bk("off", "zlib", "table_bytes", " (data + index)"))


def _ratio_rule(s):
    """data none/zlib ratio above the index none/zlib ratio: compared per repetition pair."""
    d = [a / b for a, b in zip(s[_DATA[0].label], s[_DATA[1].label]) if b]
    i = [a / b for a, b in zip(s[_INDEX[0].label], s[_INDEX[1].label]) if b]
    return rules.greater({"data none/zlib": d, "index none/zlib": i}, "data none/zlib", "index none/zlib")

_CPU = (bk("on", "zlib", "driver_cpu_s_per_s"), bk("off", "zlib", "driver_cpu_s_per_s"))
_EVW = tuple(Pick(f"wiredtiger, {size} cache", f"repro_iibench_cache_{size}", "wiredtiger",
                  "stat_per_200k:cache: modified pages evicted") for size in ("small", "large"))


def _up_to_80(s):
    """"up to as much as 80 %": the reduction reaches about 80 % where it is largest and goes no further."""
    best = {"data none/zlib": rules_extra.per_pair(s, _DATA[0].label, _DATA[1].label)}
    return rules.all_of([rules.at_most(s, _FOOT[0].label, _FOOT[1].label, 5.0),
                         rules.about(best, "data none/zlib", 5.0)])


FINDINGS = [
    Finding("002-data-compresses-more-than-index", "002",
            "Data (Uncompressed/zlib compressed): 1024/224 = 4.57 … Index (Uncompressed/zlib compressed): "
            "984/468.8 = 2.01",
            "bytes on disk without compression / with zlib, data file and _id index file",
            "WiredTiger, journal off",
            ("002_file_sizes_totals_ratios.csv", {"item": "ratio"}, "value_as_printed", "quantity"),
            _DATA + _INDEX, _ratio_rule,
            "the data file's none/zlib ratio above the index file's, ratio's 95 % interval beyond 1.1", "bytes"),
    Finding("002-index-larger-than-data", "002",
            "Data: … = 224 GB … Index: … = 468.8 GB … 50 Billion documents = 693 GB compressed with zlib",
            "allocated bytes of the _id index and of the data file, zlib", "WiredTiger, journal off, zlib",
            ("002_file_sizes_totals_ratios.csv", {"variant": "zlib", "quantity": "index GB x 16"},
             "value_as_printed", "item"),
            _ZSIZES, lambda s: rules.greater(s, _ZSIZES[0].label, _ZSIZES[1].label),
            "index file above data file, ratio's 95 % interval beyond 1.1", "bytes"),
    Finding("002-more-loaders-no-faster", "002",
            "Running the experiment with 32 Loaders highlighted something interesting. Basically, all of the new "
            "threads (16) accumulate under __wt_log_write.",
            "documents/s (1000 per batch, one commit per document)", "WiredTiger, journal on, zlib, 32 against 16 loaders",
            (), _LOADERS, lambda s: rules.at_most(s, _LOADERS[0].label, _LOADERS[1].label),
            "32 loaders at most 1.25× 16 loaders (the new threads wait in the journal: no faster)", "documents/s"),
    Finding("002-footprint-at-most-80-pct-smaller", "002",
            "allowing you to reduce your physical storage footprint by up to as much as 80%",
            "data + index bytes without compression / with zlib; the data file's alone (the largest reduction)",
            "WiredTiger, journal off", (), _FOOT + _DATA, _up_to_80,
            "the whole footprint uncompressed at most 5× zlib (no reduction beyond 80 %) and the largest "
            "reduction, the data file's, about 80 % (none/zlib about 5: 4–6.25, per repetition pair)", "bytes", version=2),
    Finding("002-journal-is-the-bottleneck", "002",
            "it looks like WT commit+journaling is a contention point … disable WT journaling to verify that "
            "it removes the bottleneck",
            "documents/s (1000 per batch, one commit per document)", "WiredTiger, zlib, 16 loaders, journal off against on", (),
            _JOURNAL, lambda s: rules.greater(s, _JOURNAL[0].label, _JOURNAL[1].label, 1.1),
            "journal off >= 1.1× journal on, ratio's 95 % interval beyond it", "documents/s"),
    # claims the inventory marked testable from the runs that exist (issue 43, class 8)
    Finding("002-journal-on-cpu-low", "002", "the performance of the system for the given workload is steady but low",
            "CPU seconds per second of the driver process (its CPU µs per document × documents/s)",
            "WiredTiger, zlib, 16 loaders, journal on against off", (), _CPU,
            lambda s: rules.less(s, _CPU[0].label, _CPU[1].label),
            "journal on below journal off, ratio's 95 % interval beyond 1.1 (the loaders wait: the machine is not busy)", "CPU s / s"),
    Finding("002-eviction-writes-when-small", "002",
            "Eviction, which is triggered by heavy insert load or when the cache becomes full, will write smaller "
            "amounts of data to random locations.",
            "WiredTiger's modified pages evicted per 200k inserts (after − before)",
            "WiredTiger B-tree, iibench, the small cache against the large", (), _EVW,
            lambda s: rules.greater(s, _EVW[0].label, _EVW[1].label),
            "small cache above the large, ratio's 95 % interval beyond 1.1", "pages / 200k inserts", version=2),
]
