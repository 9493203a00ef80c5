"""Source document 000's two claims about the read/write/space trade-off of an LSM against a B-tree
(its other claims, measured on LinkBench runs, are in that workload's folder), measured on the YCSB
RUM runs: repro_ycsb_rum_{a,c,e}.yaml (112 MiB memory limit, 200k records), by the same columns the
paper's and the notebook's RUM tables show (one definition per figure: normalize.amplification):
space_amp (allocated ÷ logical bytes), the load's write amplification by the engine process's own
writes, read amplification by the run's own cgroup.

The claims are the source's general statement ("in most cases"), with no regime of its own: the
experiments have no gates but the quiet machine's (GATES is empty). In the findings table they stand
where they stood among the document's claims, after AFTER (data/processed/findings.csv's order)."""

from __future__ import annotations

from ...rulebook import rules
from ...rulebook.finding import Finding, Pick, labels

BT, RX = "wiredtiger", "rocksdb"
GATES: dict = {}
AFTER = "000-load-bit-slower-when-larger"   # the finding of the source these follow in the findings table

_SPACE = tuple(Pick(f"{e}, YCSB A", "repro_ycsb_rum_a", e, "space_amp") for e in (RX, BT))
_LWRITE = tuple(Pick(f"{e}, YCSB A load", "repro_ycsb_rum_a", e, "loads:write_amp_process") for e in (RX, BT))
_READAMP = tuple(Pick(f"{e}, YCSB {x.upper()}", f"repro_ycsb_rum_{x}", e, "read_amp_cgroup")
                 for x in ("c", "e") for e in (BT, RX))

FINDINGS = [
    Finding("000-lsm-better-space-and-write", "000", "In most cases an LSM should have better space and write efficiency",
            "space amplification (allocated ÷ logical bytes) and the load's write amplification (the engine "
            "process's own writes ÷ logical bytes loaded)", "RocksDB against WiredTiger B-tree, YCSB A under a "
            "112 MiB memory limit", (), _SPACE + _LWRITE, lambda s: rules.pairwise_less(s, labels(_SPACE + _LWRITE)),
            "RocksDB below WiredTiger in both, ratio's 95 % interval beyond 1.1", "×", version=2),
    Finding("000-btree-better-read", "000", "while a B-Tree should have better read efficiency",
            "read amplification: the run's own cgroup's bytes read ÷ bytes the reads returned",
            "WiredTiger B-tree against RocksDB, YCSB C (point reads) and E (scans) under a 112 MiB memory limit", (),
            _READAMP, lambda s: rules.pairwise_less(s, labels(_READAMP)),
            "WiredTiger below RocksDB in C and in E, ratio's 95 % interval beyond 1.1", "×", version=2),
]
