"""What a finding is: a claim of a source document (its words, quoted), what is measured here and
on what, the configurations compared (measure.Pick) and the rule that turns their samples into a
verdict (rules.py), with the rule's version (engbench.findings.history: a rule changed after runs
existed keeps its history) and its minimum counts (`needs`: below them the metric is not testable,
e.g. too few device reads to tell a rate from zero). The gates of the experiments a finding compares live
with the findings (GATES of each module of findings), kept to the claim's quantity and phase by its
`regime` (regime.py; engbench.findings.judge judges each configuration against them). Each pick has a
label of its own: two picks with one label are refused here (the second would replace the first's samples).

The engines of the source documents are not all available (no mongod exists in any registry this
machine reaches), so a claim about one of them is tested on the engine here that shares the
property the claim is about, and `subject` says which: WiredTiger B-tree and LSM are themselves;
RocksDB stands for MongoRocks (and for TokuMX/InnoDB, engines whose updates "do about 1 read" and
scale with clients); LMDB, a B+tree in a memory-mapped file that leaves caching to the OS, stands for
mmapv1 where the claim is about that property; LMDB and SQLite, which admit one writer at a time,
stand for mmapv1 under its per-database lock. A claim whose subject has no stand-in is listed in the
inventory (data/published/claims_inventory.csv) as not testable, with the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

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
    metric: str               # what is measured here, with its unit and counter
    subject: str              # what it is measured on here
    published: tuple          # (published CSV, {column: value} filter, value column, label column) or ()
    picks: tuple              # measure.Pick, one per compared configuration
    rule: Callable            # samples -> rules.Verdict
    rule_text: str            # the rule, in words
    chart_unit: str = ""
    version: int = 1          # history.py: bumped, with a history.Change, when the rule changes
    needs: tuple = ()         # (Pick, regime.Gate): minimum counts on the Pick's configuration;
                              # missed = not testable (the inventory's finding_ids say which claims it tests)
    regime: tuple | None = None  # the gates that judge this claim: None, every gate of its experiments;
                              # else the quantity names kept (a claim is gated on the quantity it compares
                              # and the phase it is measured in: a load claim not on the query window's
                              # reads, a file count on none) and regime.Gate objects added for it alone

    def __post_init__(self):
        dup = duplicate_labels(self.picks)
        if dup:
            raise ValueError(f"finding {self.id}: two picks share the label {dup[0]!r} (a second pick would "
                             "replace the first one's samples): give each pick its own label")


def duplicate_labels(picks) -> list:
    """The labels that more than one of `picks` carries (each once, in order)."""
    seen, dup = set(), []
    for p in picks:
        if p.label in seen and p.label not in dup:
            dup.append(p.label)
        seen.add(p.label)
    return dup


def labels(picks) -> list:
    return [p.label for p in picks]


__all__ = ["Finding", "Pick", "SOURCE_FILE", "SOURCE_TITLE", "duplicate_labels", "labels"]
