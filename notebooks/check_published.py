# %% [markdown]
# # Checking the arithmetic of published numbers
#
# The source documents (five blog posts and a bug thread about MongoDB engines: WiredTiger B-tree and
# LSM, MongoRocks, mmapv1, InnoDB, TokuMX) print tables whose columns depend on each other. This
# notebook recomputes every printed value that other printed values determine and says whether the
# two agree. It is a thin wrapper around `engbench.published` (the same code as
# `engbench check-published`).
#
# **Precision is part of the number.** A value printed with *d* decimals stands for x ± 0.5·10^-d
# (`9.70` is [9.695, 9.705]); exact counters (bytes, pages, documents) are exact; `~500K` is an
# approximate reading (at least ±10 %). Every recomputation is done with interval arithmetic, and a
# stated value *holds* when the recomputed interval overlaps the stated one. So *does not hold* means
# no choice of the unrounded inputs can produce the printed output — not that the author rounded
# differently; and where the numbers fit a definition other than the one the document states (an
# average per operation rather than a total, truncated rather than rounded), the verdict is *holds
# under another definition* and `benign_definition` names it. The verdict words are
# `engbench.verdicts`, the same as the findings'.

# %% tags=["parameters"]
published_dir = None  # None: $ENGBENCH_PUBLISHED_DIR or <repo>/data/published
csv_paths = []        # [] : every table in published_dir; else your own CSVs (same column names)

# %% [markdown]
# ## What is checked
#
# Each relation below is one declarative entry (output column, input columns, formula,
# explanation) in `engbench.published.relations.RELATIONS`; relations are keyed by column names, so
# a CSV of your own with the same columns is checked the same way.
#
# - **Per-operation CPU** (Linkbench `Mcpu/i`, `Mcpu/t`): Mark Callaghan's scripts compute
#   mean(vmstat us+sy) × 1e6 ÷ rate, and us+sy is a percentage of *all* CPUs, so Mcpu × rate ÷ 1e6
#   must lie in 0–100 %. The legend calls the column "CPU usecs per insert"; read that way,
#   Mcpu × rate ÷ 1e6 is CPU-seconds per second and cannot exceed the machine's hardware threads
#   (from `sources.csv`).
# - **Per-operation IO**: sysbench disk reads per update = iostat r/s ÷ TPS; KB read ÷ reads is a
#   mean request size (one 512 B sector .. 512 KiB) for Linkbench `rKB/t`/`r/t` and iibench
#   `io.kBr`/`io.r`; the iibench "KB written per 200k inserts" must at least cover the final database
#   size per 200k documents (a load from empty writes its database at least once).
# - **Totals, unit conversions and ratios** (16 loaders × 3,125,000,000 documents; ls sizes vs
#   `storageSize`/`totalIndexSize`; bytes × 16 collections; GB as 2^30 vs 10^9 bytes; compression
#   ratios), **percent changes** ((TRUE − FALSE) ÷ FALSE × 100), **difference rows**
#   (after − before, TRUE − FALSE), EBS CloudWatch captions (bytes per write op), and **quotes in the
#   prose** that restate a table value (927 MB, 31k evictions, 5.2 %).
# - **A part is no larger than its whole**, across a document's tables and its test conditions: a
#   WiredTiger checkpoint within its file, the data and index totals within the grand total, a
#   database within its SSD, both collections' bytes within the cache, a collection's bytes in cache
#   within the collection.

# %%
from engbench import notebooks
from engbench.published import check_paths, findings_frame

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
findings = findings_frame(check_paths(csv_paths or None, published_dir))
display(findings.groupby(["table", "verdict"]).size().unstack(fill_value=0))
notebooks.counts(findings, "table", "verdict", "Published values recomputed from other published values",
                 colors={"consistent": "#2f9e44", "INCONSISTENT": "#c9392b"})

# %% [markdown]
# ## The values that do not hold as stated

# %%
findings[findings.verdict != "holds"][["table", "row", "column", "stated", "recomputed", "verdict", "benign_definition", "relation"]]

# %% [markdown]
# ## What they mean
#
# The checker names the definition under which most of them are consistent (`benign_definition`);
# what is left does not hold under any definition it knows.
#
# - **Linkbench `Mcpu/i`, `Mcpu/t` are not CPU microseconds per operation** (every row of the four
#   000 tables). At 5359 inserts/s, 6807 "µs" per insert would be 36.5 CPU-seconds per second on a
#   2-core / 4-thread NUC. As vmstat us+sy × 1e6 ÷ rate the same numbers imply 17–76 % of all CPUs,
#   which is possible. The column is a relative, host-specific number; comparing it across machines,
#   or reading it as a CPU cost, is wrong. (wt.zlib's 75.8 % with one query client on 4 hardware
#   threads is possible but remarkable — consistent with the author's suspicion that zlib in
#   WiredTiger's single-threaded checkpoint is the bottleneck.)
# - **iibench `io.kBw` is not per 200k inserts.** The databases end at 290–815 GB for 2 B documents,
#   so just writing the final files costs ≥ 22,600 KB per 200k documents, 10–77 × more than the
#   printed 294–2524. The values fit a *per request* (1000 documents) basis, which the table's own
#   "per 200 requests" wording contradicts; the other per-200k columns (`vm.cs`, `io.kBr`, `io.r`)
#   probably share the per-request basis. Comparing them to per-document numbers elsewhere would be
#   off by 200 ×.
# - **002 index compression ratio**: 984 / 468.8 = 2.10, printed 2.01 (probably transposed digits). The data
#   ratio 1024 / 224 = 4.57 is right arithmetically, but compares the *logical* 22 B × count with the
#   zlib *file* size; the uncompressed data file is 90,922,614,784 B, a ratio of 6.05.
# - **002 zlib index file**: `ls -l` says 31,461,715,968 B, `stats().totalIndexSize` says
#   31,461,847,040 B (128 KiB more): the two were taken at different times, so the 468.8 GB total
#   rests on a snapshot that is not the one the stats show.
# - **002 uncompressed grand total**: the printed parts 1024 + 984 sum to 2008, but the exact bytes
#   give 2008.8 GiB — the total was truncated, not rounded. Harmless, but it shows the printed GB were
#   added after rounding.
# - **002 EBS captions**: 53,000 "bytes" over 2,600 write ops is 20 bytes per write, impossible for a
#   block device. The byte figures are most likely CloudWatch *Average* bytes per operation (52–59 KiB
#   per write, plausible) shown next to *Sum* operation counts; the captions do not say.
# - **002 uncompressed checkpoint**: `checkpoint size` 90,922,704,896 B is 90,112 B more than the
#   file it lives in (`file size in bytes` 90,922,614,784): a part larger than its whole, under any
#   reading the checker knows.
# - **004 hot collection in cache**: 1.78 GB of the hot collection in a 2 GB cache, though each
#   collection is said to be 75 % of the cache (1.5–1.6 GB): it fits only if that size is the
#   collection's compressed size on disk (~7:1, as the test conditions say) and the cache holds the
#   pages uncompressed.
#
# Everything else — the sysbench disk reads per update, the 004 differences and percent changes and
# the prose that restates them, the document totals, the GiB conversions — adds up within printed
# precision.
