"""The regime a claim needs (issue 26): the machine's other CPU use over a run's window, a
database's bytes by kind, the gates of an experiment, and the wait for a quiet machine — by hand,
then on a real run in a counting-only cgroup."""

import json
import os
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from engbench import findings
from engbench.rulebook import regime, rules
from engbench.normalize import machine, sizes
from engbench.run import quiet
from test_findings import _tables


def test_other_cpu_is_the_machine_minus_the_runs_own_by_hand():
    vm = pd.DataFrame({"us": [50, 60], "sy": [10, 20], "st": [1, 4]})  # machine: mean(60, 80) = 70 % of all CPUs
    cg = pd.DataFrame({"t_unix_s": [0.0, 10.0], "cpu_ns": [0, 8e9]})  # 8 CPU-s in 10 s on 2 CPUs = 40 %
    got = machine.cpu_shares(vm, cg, None, 0.0, 10.0, 2)
    assert got == {"machine_cpu_pct": 70.0, "own_cpu_pct": 40.0, "other_cpu_pct": 30.0, "steal_pct": 2.5,
                   "own_cpu_source": "cgroup"}  # steal: mean(1, 4), other guests of the host
    # no cgroup: the driver process's user + system seconds (3 + 1 CPU-s in 10 s on 2 CPUs = 20 %)
    proc = pd.DataFrame({"t_unix_s": [0.0, 10.0], "cpu_user_s": [0.0, 3.0], "cpu_sys_s": [0.0, 1.0]})
    got = machine.cpu_shares(vm, None, proc, 0.0, 10.0, 2)
    assert (got["own_cpu_pct"], got["other_cpu_pct"], got["own_cpu_source"]) == (20.0, 50.0, "driver process")
    # an older cgroup.csv without cpu_ns falls back to the process; never below 0
    got = machine.cpu_shares(pd.DataFrame({"us": [5], "sy": [0]}), cg.drop(columns="cpu_ns"), proc, 0.0, 10.0, 2)
    assert got["other_cpu_pct"] == 0.0
    assert math.isnan(got["steal_pct"])  # a vmstat without st
    assert math.isnan(machine.cpu_shares(vm.iloc[0:0], cg, proc, 0.0, 10.0, 2)["other_cpu_pct"])


def test_sizes_by_kind_by_hand():
    wt = [{"path": p, "allocated_bytes": n} for p, n in [
        ("purchases_index.wt", 100), ("purchases_index._id_.wt", 10), ("purchases_index.pc.wt", 20),
        ("purchases_index.ptc.wt", 30), ("WiredTigerLog.0000000001", 1000), ("WiredTigerPreplog.0000000002", 500),
        ("WiredTiger.wt", 7), ("WiredTigerHS.wt", 3), ("WiredTiger.turtle", 1)]]
    got = sizes.sizes("wiredtiger", wt)
    assert got == {"data_bytes": 100, "index_bytes": 60, "table_bytes": 160, "log_bytes": 1500, "meta_bytes": 11,
                   "other_bytes": 0}
    assert sizes.secondary_index_bytes("wiredtiger", wt) == 50              # pc + ptc, not _id_
    lsm = [{"path": "p-000001.lsm", "allocated_bytes": 5}, {"path": "p.pc-000003.lsm", "allocated_bytes": 7},
           {"path": "p.pc-000003.bf", "allocated_bytes": 1}]
    assert sizes.sizes("wiredtiger-lsm", lsm)["data_bytes"] == 5 and sizes.sizes("wiredtiger-lsm", lsm)["index_bytes"] == 8
    rx = [{"path": "000012.sst", "allocated_bytes": 64}, {"path": "000013.log", "allocated_bytes": 9},
          {"path": "MANIFEST-000004", "allocated_bytes": 2}, {"path": "OPTIONS-000007", "allocated_bytes": 1}]
    got = sizes.sizes("rocksdb", rx)
    assert got["table_bytes"] == 64 and got["log_bytes"] == 9 and got["meta_bytes"] == 3
    assert math.isnan(got["data_bytes"]) and math.isnan(got["index_bytes"])  # one keyspace: not told apart
    assert sizes.sizes("sqlite", [{"path": "engbench.sqlite", "allocated_bytes": 4},
                                  {"path": "engbench.sqlite-wal", "allocated_bytes": 2}])["log_bytes"] == 2
    assert all(math.isnan(v) for v in sizes.sizes("lmdb", []).values())


def test_a_busy_machine_puts_a_claim_out_of_the_sources_regime(monkeypatch):
    monkeypatch.setattr(findings.catalog, "GATES", {})  # the quiet gate alone (the others: below)
    rates = {("repro_iibench_cache_large", "wiredtiger-lsm"): [100, 104, 98],
             ("repro_iibench_cache_medium", "wiredtiger-lsm"): [101, 99, 100],
             ("repro_iibench_cache_small", "wiredtiger-lsm"): [97, 103, 100]}
    quiet_t, busy_t = _tables(rates), _tables(rates, other_cpu_pct=55.0)
    f = findings.table(quiet_t, Path("/nonexistent")).set_index("id").loc["003-lsm-rate-flat"]
    assert f["verdict"] == rules.HOLDS and "other_cpu_pct <= 10" in f["gate"] and "other_cpu_pct 1.00 (n=3)" in f["regime"]
    f = findings.table(busy_t, Path("/nonexistent")).set_index("id").loc["003-lsm-rate-flat"]
    assert f["verdict"] == rules.NOT_IN_REGIME
    assert "other_cpu_pct 55.0 (n=3), gate other_cpu_pct <= 10" in f["why"], f["why"]
    assert "101 (98.0–104, n=3)" in f["measured"], "the values stay visible beside the verdict"


def test_a_gate_judges_every_run_of_a_configuration():
    t = _tables({("repro_x", "rocksdb"): [1, 1, 1]})
    t["runs"]["cg_r_per_op"] = [0.95, 1.1, 0.4]
    gates = {"repro_x": (regime.Gate("device_reads_per_op", lo=0.8, hi=1.25, source="s"),)}
    (q, dev) = regime.check(t, "repro_x", "rocksdb", gates)
    assert q.passed and q.gate is regime.QUIET
    assert not dev.passed and dev.measured() == "device_reads_per_op 0.400–1.10 (n=3)"
    assert dev.gate.bound() == "device_reads_per_op 0.800–1.25 reads / op"
    long = regime.run_quantities(t)
    assert set(long.loc[long["quantity"] == "device_reads_per_op", "value"]) == {0.95, 1.1, 0.4}


def test_reproduction_summary_by_hand():
    t = _tables({("repro_x", "rocksdb"): [100, 110, 80], ("repro_y", "lmdb"): [50, 52, 49]})
    runs = t["runs"]
    runs["other_cpu_pct"] = [1.0, 2.0, 12.0, 3.0, 4.0, 5.0]
    s = regime.reproduction_summary(runs)
    # medians 100 and 50: spreads max(0, .10, .20) = .20 and max(0, .04, .02) = .04
    assert s["runs"] == 6 and s["other_cpu_median"] == 3.5 and s["other_cpu_max"] == 12.0 and s["busy_runs"] == 1
    assert s["configurations"] == 2 and s["within"] == 1
    assert s["worst"] == pytest.approx(0.20) and s["worst_configuration"] == "repro_x, rocksdb"
    assert s["speed_runs"] == 0 and math.isnan(s["speed_q_rho"]), "tables made before the probe: no figures"
    assert math.isnan(s["steal_median"]) and math.isnan(s["steal_q_rho"]), "tables made before steal_pct"
    assert regime.reproduction_summary(runs.iloc[0:0]) == {}


def test_reproduction_summary_of_the_speed_probe_by_hand():
    t = _tables({("repro_x", "rocksdb"): [100, 110, 80], ("repro_y", "lmdb"): [50, 52, 49]})
    runs = t["runs"]
    runs["other_cpu_pct"] = 1.0
    runs["speed_cpu_mb_s"] = [1700.0, 1650.0, 1600.0, 1720.0, float("nan"), 1690.0]
    runs["speed_randread_iops"] = [15000.0, 16000.0, 12000.0, 14000.0, 14500.0, 13000.0]
    s = regime.reproduction_summary(runs)
    assert s["speed_runs"] == 5, "the run without a cpu figure is not a probed run"
    assert (s["speed_cpu_min"], s["speed_cpu_median"], s["speed_cpu_max"]) == (1600.0, 1690.0, 1720.0)
    assert (s["speed_iops_min"], s["speed_iops_median"], s["speed_iops_max"]) == (12000.0, 14250.0, 16000.0)
    # q / median: x 1.0, 1.1, 0.8; y 50/50, 52/50, 49/50 = 1.0, 1.04, 0.98
    # iops / median: x 15/15, 16/15, 12/15 = 1.0, 1.067, 0.8; y 14/14, 14.5/14, 13/14 = 1.0, 1.036, 0.929
    # ranks of q: 3.5, 6, 1, 3.5, 5, 2; of iops: 3.5, 6, 1, 3.5, 5, 2: the same order, rho 1
    assert s["speed_q_rho"] == pytest.approx(1.0)
    runs["speed_randread_iops"] = [15000.0, 12000.0, 16000.0, 14000.0, 13000.0, 14500.0]  # the other way round
    assert regime.reproduction_summary(runs)["speed_q_rho"] == pytest.approx(-1.0)


def test_reproduction_summary_of_the_hosts_steal_by_hand():
    t = _tables({("repro_x", "rocksdb"): [100, 110, 80], ("repro_y", "lmdb"): [50, 52, 49]})
    runs = t["runs"]
    runs["other_cpu_pct"] = 1.0
    runs["steal_pct"] = [0.5, 0.0, 13.5, 1.0, float("nan"), 2.0]
    s = regime.reproduction_summary(runs)
    assert (s["steal_median"], s["steal_max"]) == (1.0, 13.5)  # of 0, 0.5, 1, 2, 13.5
    # q / median: 1.0, 1.1, 0.8, 1.0, (1.04: no steal), 0.98; ranks of q 3.5, 5, 1, 3.5, 2;
    # of steal 2, 1, 5, 3, 4: Pearson of the ranks, d = rank - 3: dq .5, 2, -2, .5, -1; ds -1, -2, 2,
    # 0, 1; Σ dq·ds = -9.5, Σ dq² = 9.5, Σ ds² = 10: -9.5 / sqrt(95) = -0.975
    assert s["steal_q_rho"] == pytest.approx(-9.5 / 95 ** 0.5)


def test_wait_for_a_quiet_machine_settles_or_gives_up():
    seen = iter([80.0, 5.0, 4.0, 60.0, 3.0, 2.0, 1.0, 99.0])
    got = quiet.wait(60, sample=lambda s: next(seen))
    assert got["quiet"] and got["busy_pct_last"] == [3.0, 2.0, 1.0]
    got = quiet.wait(0, sample=lambda s: 95.0)                   # gives up at once, and says so
    assert not got["quiet"] and got["busy_pct_last"] == [95.0]
    assert 0 <= quiet.busy_pct(0.2) <= 100


@pytest.mark.skipif(not Path("/sys/fs/cgroup/cpuacct/cpuacct.usage").exists(), reason="no cgroup v1 cpuacct here")
def test_a_counting_cgroup_gives_the_runs_own_cpu_and_io(scratch):
    # 100k rows (~3 s): the machine-wide CPU needs two vmstat samples (1 s apart) in the client window
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "run", "iibench", "--engine", "sqlite",
                          "--set", "max_rows=100000", "--set", "query_threads=0", "--set", "run.cgroup=true",
                          "--no-progress"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    m = json.loads((run_dir / "manifest.json").read_text())
    assert m["run_limits"]["cgroup"]["paths"] and m["run_limits"]["memory_limit"] is None
    assert m["run_limits"]["as_written"] == {"cgroup": "true"}
    cg = pd.read_csv(run_dir / "cgroup.csv")
    assert cg["cpu_ns"].iloc[-1] > cg["cpu_ns"].iloc[0], "the driver's CPU time is counted in the group"
    assert all(not Path(p).exists() for p in m["run_limits"]["cgroup"]["paths"])
    p = subprocess.run([sys.executable, "-m", "engbench.cli", "process", "--raw", str(run_dir.parent),
                        "--out", str(scratch / "proc")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = pd.read_csv(scratch / "proc" / "runs.csv").iloc[0]
    assert r["own_cpu_source"] == "cgroup" and r["own_cpu_pct"] > 0 and r["other_cpu_pct"] >= 0
    assert r["limits"] == "none", "a counting-only group is no limit: the run groups with unlimited runs"


# --- the inventory and the rules lock -------------------------------------------------------

def _inventory():
    from engbench import paths
    from engbench.findings import inventory
    return inventory.load(paths.REPO / "data" / "published")


def test_every_finding_is_in_the_inventory_and_every_row_has_a_status_and_a_reason():
    from engbench.findings import catalog as claims, inventory
    inv = _inventory()
    assert len(inv) > 150 and inv["id"].is_unique
    ids = {f.id for f in claims.FINDINGS}
    named = inventory.finding_ids(inv)
    assert named <= ids, ("the inventory names findings that do not exist", named - ids)
    assert ids - named == set(), ("findings that test no claim of the inventory", ids - named)
    nt = inv[inv["status"] == inventory.NOT_TESTABLE_HERE]
    assert (nt["reason_not_testable"].str.len() > 10).all(), "a claim not testable here says why"
    counts = inventory.counts(inv)
    assert counts["claims"] == sum(counts[s] for s in inventory.STATUSES) == len(inv)


@pytest.mark.skipif(not (os.environ.get("ENGBENCH_SOURCES_DIR") and Path(os.environ["ENGBENCH_SOURCES_DIR"]).is_dir()),
                    reason="ENGBENCH_SOURCES_DIR not set: the source documents are not part of the repository")
def test_every_inventory_quote_and_every_findings_words_are_in_the_source_document():
    from engbench.findings import catalog as claims
    norm = lambda t: " ".join(t.split())  # noqa: E731
    docs = {p.name: norm(p.read_text()) for p in Path(os.environ["ENGBENCH_SOURCES_DIR"]).glob("*.txt")}
    inv = _inventory()
    missing = [r["id"] for r in inv.to_dict("records") if norm(r["quote"]) not in docs[r["source_file"]]]
    assert not missing, missing
    for f in claims.FINDINGS:
        for part in f.words.split(" … "):
            assert norm(part).strip(". ") in docs[claims.SOURCE_FILE[f.source]], (f.id, part)


def test_rules_are_locked_and_every_change_keeps_its_history():
    """A rule (its values, text, minimum counts) matches its locked fingerprint for its version: a rule
    moved without a new version fails here; a new version needs a history.Change for each step."""
    from engbench.findings import catalog as claims, history
    lock = history.read_lock()
    for f in claims.FINDINGS:
        assert f.id in lock, (f.id, "not locked: add it with `python -m engbench.findings.history --lock`")
        assert lock[f.id]["version"] == f.version, (f.id, "version differs from the lock")
        assert lock[f.id]["fingerprint"] == history.fingerprint(f), \
            (f.id, "the rule changed without a new version and a history.Change")
        versions = sorted(c.version for c in history.CHANGES if c.id == f.id)
        assert versions == list(range(2, f.version + 1)), (f.id, versions)
    assert {c.id for c in history.CHANGES} <= {f.id for f in claims.FINDINGS}
