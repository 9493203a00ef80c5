"""One definition per figure (issue 27): for the shipped runs, the paper's tables and the
notebooks' tables of the same runs are equal cell by cell — the per-experiment RUM tables
(notebooks/rum_tradeoffs.ipynb's first table), the YCSB RUM corners (rum_tradeoffs.ipynb and
notebooks/ycsb.ipynb, which processes the run directories itself) — and every cell is the mean of
the processed column its header names, so a second formula anywhere would make them drift apart.

What is compared is the shipped set as committed (HEAD's data/raw, data/processed, paper/build),
as tests/test_shipped.py does."""

import subprocess

import pandas as pd
import pytest

from engbench import paths
from engbench.report import comparison_tables as tables, data, rum_tradeoffs
from engbench.workloads.ycsb import report as ycsb_rum
from engbench.workloads.ycsb import tradeoffs
from engbench.tables.processed import load_processed

SHIPPED = ("data/raw", "data/processed", "paper/build")


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    dest = tmp_path_factory.mktemp("shipped")
    archive = dest / "shipped.tar"
    subprocess.run(["git", "-C", str(paths.REPO), "archive", "--format=tar", "-o", str(archive), "HEAD", "--",
                    *SHIPPED], check=True)
    subprocess.run(["tar", "-xf", str(archive), "-C", str(dest)], check=True)
    return dest


def _paper_csv(shipped, name) -> pd.DataFrame:
    return pd.read_csv(shipped / "paper" / "build" / "tables" / f"{name}.csv", dtype=str, keep_default_na=False)


def _same(got: pd.DataFrame, want: pd.DataFrame, what: str):
    got = got.astype(str).reset_index(drop=True)
    assert list(got.columns) == list(want.columns), what
    assert len(got) == len(want), what
    for i in range(len(want)):
        for c in want.columns:
            assert got.at[i, c] == want.at[i, c], (what, want.iat[i, 0], c, got.at[i, c], want.at[i, c])


def test_rum_notebook_table_is_the_papers_cell_by_cell(shipped):
    processed = shipped / "data" / "processed"
    summary = rum_tradeoffs.rum_summary(processed)
    proc = load_processed(processed)
    from engbench.report.data import ENGINE_ORDER
    from engbench.report.paper import DEFAULT_BASELINE
    # the notebook titles its experiments without the driver's parameter defaults (it runs on Binder,
    # where there is no driver: rum_tradeoffs.no_defaults); the experiments, their keys and cells are the paper's
    exps = [e for e in data.comparisons(proc["runs"], engine_order=[DEFAULT_BASELINE] + ENGINE_ORDER,
                                        defaults_of=rum_tradeoffs.no_defaults)
            if "rum" in e.spec.tables]
    assert exps and set(summary["experiment"]) == {e.title for e in exps}
    for e in exps:
        want = _paper_csv(shipped, f"{e.key}.rum")
        # the notebook's summary stacks every experiment's table: a column only another experiment's
        # table has (log and metadata beside space, where the runs record them) is empty here
        got = summary[summary["experiment"] == e.title].drop(columns=["experiment"]).dropna(axis=1, how="all")
        _same(got, want, e.key)
        # each cell is the mean of the runs column its header names (one definition: the column)
        for head, col in tables.RUM:
            printed = f"{head} ({tables.UNITS[head][0]})"
            for cfg, cell in zip(want["engine"], want[printed]):
                v = e.runs.loc[e.runs["config"] == cfg, col].dropna()
                assert cell.split(" ")[0] == (tables.fmt(v.mean(), 2) if len(v) else "NA"), (e.key, cfg, col)


def test_ycsb_rum_corners_are_the_papers_in_both_notebooks(shipped):
    processed = shipped / "data" / "processed"
    want = _paper_csv(shipped, "ycsb.rum")
    long = tradeoffs.ycsb_rum_long(processed)
    assert long["tag"].unique().tolist() == [""]  # one regime shipped: the paper's ycsb.rum
    _same(tradeoffs.ycsb_rum_table(long).drop(columns=["regime"]), want, "rum_tradeoffs.ipynb")
    # notebooks/ycsb.ipynb processes the run directories itself
    runs = sorted(p for p in (shipped / "data" / "raw").glob("*_ycsb_*") if (p / "manifest.json").is_file())
    assert len(runs) == 45  # repro_ycsb_rum_{a,c,e}: 5 engines x 3 repetitions
    table, chart = ycsb_rum.ycsb_rum_of_runs(runs)
    _same(table.printed, want, "ycsb.ipynb")
    # the paper's SQLite A update amplification is the processed runs' own columns, by counter
    proc = load_processed(processed)
    a = proc["runs"][(proc["runs"]["workload"] == "ycsb") & (proc["runs"]["engine"] == "sqlite")
                     & (proc["runs"]["param.letter"].astype(str) == "a")]
    row = want.set_index("engine").loc["sqlite"]
    for counter, col in (("process", "write_amp_process"), ("device", "write_amp_device")):
        cell = row[ycsb_rum.header("update amp (A, B, F: updates)", counter)]
        assert cell.split(" ")[0] == tables.fmt(a[col].mean(), 2), (counter, cell)
    # the chart shows what the table shows, the counter in each panel's name
    spec = chart.to_dict()
    (values,) = spec["datasets"].values()
    for v in values:
        assert v["panel"] == ycsb_rum.header(v["corner"], v["counter"])
        cell = want.set_index("engine").loc[v["config"], v["panel"]]
        assert cell.split(" ")[0] == v["label"] and abs(float(v["label"].replace(",", "")) - v["mean"]) <= 0.0051, (cell, v)
    nb_spec = tradeoffs.ycsb_rum_chart(long).to_dict()
    (nb_values,) = nb_spec["datasets"].values()
    assert nb_values == values


def test_the_findings_per_200k_costs_are_the_runs_columns(shipped):
    """The findings' KB per 200k inserts are the processed runs' proc_*_per_200k (per_n of the
    per-op column), not a second computation: their values are those columns' values."""
    processed = shipped / "data" / "processed"
    values = pd.read_csv(processed / "findings_values.csv")
    runs = pd.read_csv(processed / "runs.csv").set_index("run_id")
    for fid, col in (("003-kbw-btree-grows", "proc_wkb_per_200k"), ("003-kbr-btree-grows", "proc_rkb_per_200k")):
        v = values[values["id"] == fid]
        assert len(v) >= 9
        for r in v.itertuples():
            assert r.value == pytest.approx(runs.loc[r.run_id, col], rel=1e-9)
            assert runs.loc[r.run_id, col] == pytest.approx(runs.loc[r.run_id, col.replace("200k", "op")] * 200_000,
                                                            rel=1e-9)


def test_the_findings_amplifications_are_the_rum_tables(shipped):
    """The RUM findings (000-lsm-better-space-and-write, 000-btree-better-read) divide what the paper's
    and the notebooks' RUM tables divide: each value is the processed column the YCSB RUM table
    shows (space_amp, read_amp_cgroup; the load's write_amp_process), run by run."""
    processed = shipped / "data" / "processed"
    values = pd.read_csv(processed / "findings_values.csv")
    runs = pd.read_csv(processed / "runs.csv").set_index("run_id")
    loads = pd.read_csv(processed / "loads.csv").set_index("run_id")
    checked = 0
    for fid, table, col in (("000-lsm-better-space-and-write", runs, "space_amp"),
                            ("000-lsm-better-space-and-write", loads, "write_amp_process"),
                            ("000-btree-better-read", runs, "read_amp_cgroup")):
        v = values[(values["id"] == fid) & values["run_id"].isin(table.index)]
        for r in v.itertuples():
            if "load" in r.label and table is runs or "load" not in r.label and table is loads:
                continue
            assert r.value == pytest.approx(table.loc[r.run_id, col], rel=1e-9), (fid, r.label, col)
            checked += 1
    assert checked >= 18, checked  # 3 repetitions x 2 engines x (space, load write) + x (C, E read)
