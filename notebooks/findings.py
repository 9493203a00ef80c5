# %% [markdown]
# # Findings: the source documents' claims, measured here
#
# The source documents (blog posts and a bug thread about MongoDB's engines) state findings in words:
# "the insert rate for the LSM is insensitive to cache size", "WiredTiger throughput is much worse
# with zlib than with snappy", "TPS does increase with concurrency for InnoDB and TokuMX". The
# reproduction experiments (`notebooks/params/repro_*.yaml`, run by `engbench reproduce`) measure
# each of them again at small scale, IO-bound where the claim is about IO-bound engines (a memory
# limit makes the engine's data several times larger than the memory it gets).
#
# Each claim has a **rule** (in its workload folder's `findings.py`, collected by `engbench.findings.catalog`;
# the vocabulary in `engbench.rulebook.rules`): the effect the words are about (a ratio of means: "much"
# is beyond 1.5×, "huge" 2×, "insensitive" within 25 %) and its interval (`engbench.effects`: 95 %, or
# 90 % for an equivalence such as "insensitive"). The whole interval on the claim's side holds, wholly
# off it does not hold, anything between is "inconclusive here", with the repetitions that would decide
# it. Fewer than 3 repetitions is "not testable", and so is a claim about an engine with no
# stand-in here. The verdict is computed from the processed tables; this notebook only shows it.

# %% tags=["parameters"]
processed_dir = None  # None: $ENGBENCH_PROCESSED_DIR (data/processed), else the shipped tables
claim = None          # None: the first claim the processed runs measured; else a claim's id (the table's `id`)

# %%
from engbench import findings, notebooks

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
tables = findings.load(processed_dir)
table = findings.table(tables)
table[["id", "words", "subject", "measured", "verdict", "why"]]

# %% [markdown]
# ## One claim, each repetition
#
# Every dot is one run (one repetition of one configuration); the charts of all claims are in the
# paper's Findings section (`paper/build/paper.html`).

# %%
from engbench.report import findings as findings_report

values = findings.values(tables)
tested = [f for f in findings.catalog.FINDINGS if (values["id"] == f.id).any() and claim in (None, f.id)]
findings_report.chart(values, tested[0], tested[0].chart_unit) if tested else "no runs of this claim processed"
