"""The rule history's rows for 004's experiment files resized for their gate (issue 43, class 2), appended
to history.CHANGES after issue 43's rows (changes_43). One row per finding that reads those files: the
rule is the same, the files it is measured on changed after the shipped runs.

    rows(Change) -> [(finding id, Change)]      Change is history.Change (passed in: history imports this
                                                module); versions are numbered by changes_43.numbered

Why: the gate is now what the hot collection lost from WiredTiger's cache over the cold pass
(hot_bytes_lost >= 0.25; the source lost 57 %). The shipped runs lost 0.45-1.0 %: their two hot readers
were closed loops in the driver's process (100k-290k reads/s), so every hot page was read again within a
second and kept a newer read generation than the cold pages, which WiredTiger inserts half-way down its
LRU order (its eviction then takes the cold pages first, whatever read_once says). The files now pace the
readers (target_rate 2,500 reads/s) and are 1.5x larger (a 6 GiB cache, 4,395,000 hot and 4,710,000 cold
documents, every ratio kept), as paced readers no longer slow the cold pass towards its 10 s gate. Like the resize of 2026-11-26
(changes_43.RESIZED_IDS), the shipped runs are of the files before: both verdicts of these rows are
computed on them, and the verdict under the files as they are awaits their re-measurement."""

from __future__ import annotations

from ..rulebook import rules
from .catalog import FINDINGS

RESIZED = ("2026-11-29", "this change (issue 43 class 2: 004 sized for its gate, H8)")
FILES = ("repro_cache_pollution_read_once_false", "repro_cache_pollution_read_once_true")
_SHIPPED = "the shipped reproduction (the runs in data/processed on 2026-11-29)"
WHY = ("Issue 43, class 2: the experiment files were resized after the shipped runs so that the hot collection "
       "loses at least a quarter of its cached bytes over the cold pass without read_once, as the source's lost "
       "57 %. The shipped runs' two closed-loop readers read the hot collection at 100k-290k reads/s, so its pages "
       "never aged behind the cold ones (0.45-1.0 % lost); the readers are now paced (target_rate 2,500 reads/s, "
       "fewer than one read per cached hot page over the pass), and cache and collections are 1.5x larger (6 GiB) "
       "so that the pass, no longer slowed by the readers, stays above its 10 s gate. Measured at the new size on a "
       "busy machine: the hot set lost 52.7-61.9 % without read_once and 5.0-23.3 % with it (3 runs each). The shipped "
       "runs are of the files before, so both verdicts here are on them; the verdict under the files as they "
       "are awaits their re-measurement.")
OLD_RULE = "the same rule on the experiment files before they were resized (closed-loop hot readers, unpaced)"


# Paced readers read ~2,500/s with and without read_once by construction, so a rule on their reads/s can no
# longer fail: 004-read-throughput-unchanged is judged on their latency during the cold pass instead (H12).
PACED = ("2026-11-29", "this change (H12: 004's read-throughput claim on hot-read latency under paced readers)")
WHY_PACED = ("The hot readers are now paced (target_rate 2,500 reads/s), so both files read ~2,500/s during the "
             "cold pass by construction and 'read_once true at most 1.25x false in reads/s' could no longer fail. "
             "A paced client's latency is the service it gets: the claim (\"no performance benefits\") is now "
             "judged on the hot reads' mean latency during the cold pass (the get intervals inside it, "
             "measure.DERIVED cp_get_latency_us_during): read_once false's at most 1.25x read_once true's, i.e. "
             "read_once does not serve the hot reads faster by more than the tolerance.")
OLD_PACED = "hot reads/s during the cold pass: read_once true at most 1.25x false"


def _reads_per_s() -> dict:
    """The reads/s rule (versions up to 5) as a Change's old form: its picks and its rule function."""
    return {"old_fn": lambda s, picks: rules.at_most(s, picks[0].label, picks[1].label),
            "old_picks": lambda m: tuple(m._READ)}


WHY_KEPT = ("The hot readers are now paced (target_rate 2,500 reads/s) and the runs gated on the hot collection "
            "losing at least 25 % of its cached bytes without read_once (hot_bytes_lost >= 0.25), so 'after within "
            "1.25x of before' could no longer hold in the source's regime: the gate decided it. The claim's "
            "hypothesis is about the hot collection's rate of activity, which the experiment now fixes; it is "
            "'not tested', naming the experiment it needs (closed-loop against paced readers).")
OLD_KEPT = "flat: hot bytes right after the pass within 1.25x of before, read_once false"


def _paced(Change) -> list:
    return [("004-read-throughput-unchanged",
             Change("004-read-throughput-unchanged", 0, *PACED, _SHIPPED, WHY_PACED, OLD_PACED, {}, **_reads_per_s())),
            ("004-hot-kept-without-read-once",
             Change("004-hot-kept-without-read-once", 0, *PACED, _SHIPPED, WHY_KEPT, OLD_KEPT, {}, **_hot_kept()))]


def _hot_kept() -> dict:
    """The hot-kept claim's rule up to version 4 as a Change's old form: flat on its hot bytes before/after."""
    return {"old_fn": lambda s, picks: rules.flat(s, [p.label for p in picks]),
            "old_picks": lambda m: tuple(m._HOTKEPT)}


def rows(Change) -> list:
    """One (finding id, Change) with version 0 (numbered by the caller) for every finding whose picks read
    one of FILES (the resize), then the rules re-founded for paced readers (_paced)."""
    # the resize's row of the read-throughput claim keeps its rule then (reads/s), now re-founded (_paced)
    # and so does the hot-kept claim's (flat on its hot bytes, now not tested: it has no picks)
    then = {"004-read-throughput-unchanged": _reads_per_s(), "004-hot-kept-without-read-once": _hot_kept()}
    return [(f.id, Change(f.id, 0, *RESIZED, _SHIPPED, WHY, OLD_RULE, {}, **then.get(f.id, {})))
            for f in FINDINGS if {p.experiment for p in f.picks} & set(FILES) or f.id in then] + _paced(Change)


__all__ = ["rows", "FILES", "RESIZED", "WHY"]
