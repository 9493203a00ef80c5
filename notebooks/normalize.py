# %% [markdown]
# # From raw captures to per-operation costs
#
# Every number in the source documents' tables is a ratio: something the operating system counted
# per second (iostat, vmstat) divided by something the benchmark client counted per second. This
# notebook takes the shipped run directories (`data/raw/`), parses their raw `iostat.txt` and
# `vmstat.txt` by column name, keeps only the samples inside each run's **client window** (a sample
# stamped *t* covers the second before *t*), and divides by the client's rate
# *q* = operations completed ÷ client seconds.
#
# The formulas (each is a pure function in `engbench.normalize`, with a hand-computed test):
#
# | column | meaning | formula |
# |---|---|---|
# | ips / tps | operations per second | q |
# | r/op, rKB/op | device reads and KB read per operation | mean(r/s) ÷ q, mean(rkB/s) ÷ q |
# | wKB/op | KB written per operation (discards are **not** writes: dKB/op is its own column) | mean(wkB/s) ÷ q |
# | cs/op | context switches per operation | mean(vmstat cs) ÷ q |
# | Mcpu/op | the source documents' CPU unit: percent of all CPUs per op/s, × 10⁶ | mean(us+sy) × 10⁶ ÷ q |
# | CPU µs/op | CPU time per operation | mean(us+sy) ÷ 100 × ncpu × 10⁶ ÷ q |
# | per 200k | the iibench tables' basis | x/op × 200,000 |
# | size, rss | data directory on disk; driver's peak resident memory | bytes ÷ 2³⁰ |
# | read / write / space amp | RUM: device bytes ÷ logical bytes | read ÷ returned, written ÷ inserted, on disk ÷ stored |
#
# `coverage` says which fraction of the client window the captures cover; a run whose captures do
# not cover it is flagged rather than silently averaged over fewer samples.

# %% tags=["parameters"]
raw_dir = None  # None: $ENGBENCH_RAW_DIR, else the run directories shipped with the repository (data/raw)
include_incomplete = False

# %%
from pathlib import Path

from engbench import notebooks, paths
from engbench.normalize.views import source_views
from engbench.tables import build_tables, runs_in

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
run_dirs = runs_in(Path(raw_dir) if raw_dir else paths.raw_dir())
tables = build_tables(run_dirs, include_incomplete=include_incomplete) if run_dirs else None
print(f"{len(run_dirs)} run directories")

# %% [markdown]
# **The runs.** One row per run: its engine, workload, the client window's length and rate, and how
# much of that window the iostat and vmstat samples cover.

# %%
if tables is None:
    print("no shipped runs yet: `engbench main` makes them")
else:
    display(tables["runs"][["run_id", "engine", "workload", "op_unit", "seconds", "q", "coverage", "warnings", "amp_notes"]])

# %% [markdown]
# **The costs at a glance.** Four of those ratios for every experiment (a row each: one workload,
# parameter set, machine and set of run limits, as the paper groups them), a dot per engine at the
# mean of its runs. The unit is the experiment's operation (`op_unit`: a document, transaction or
# request), so compare dots within a row; the scale is symmetric-logarithmic because the costs span
# orders of magnitude.

# %%
if tables is not None:
    costs = {"wkb_per_op": "KB written / op", "rkb_per_op": "KB read / op", "cpu_us_per_op": "CPU µs / op",
             "cs_per_op": "context switches / op"}
    display(notebooks.overview(notebooks.by_experiment(tables["runs"]), list(costs), "Cost per operation",
                               labels=costs))

# %% [markdown]
# **In the source documents' columns.** The same runs as the source documents print them: per
# insert (ips, wKB/i, Mcpu/i, size, rss), per 200k inserts (vm.cs, vm.us+sy, io.kBw, io.kBr, io.r),
# per transaction for sysbench-update and linkbench, and per request for cache-pollution's hot reads
# (each run's `op_unit`, from `engbench.workloads`). A B-tree whose indexes no longer fit in its cache
# shows it here first: wKB/i and io.kBr grow, and ips falls.

# %%
from IPython.display import Markdown

if tables is not None:
    for title, frame in source_views(tables["runs"]).items():
        display(Markdown(f"**{title}**"), frame)
