"""normalize.device by hand: run limits as columns and a label, a run's own device I/O per op from
cgroup.csv counters, and the share of the device's calibrated limits a run used."""

import math

import pandas as pd

from engbench.normalize import device as dev

V1 = {"version": 1, "paths": [], "device": "254:0"}


def test_limit_fields_and_label_by_hand():
    rl = {"memory_limit": 64 * 2**20, "read_iops": 150, "write_iops": None, "read_bps": None,
          "write_bps": 3 * 2**20, "drop_caches": True, "cgroup": V1}
    f = dev.limit_fields(rl)
    assert f["limit.memory_bytes"] == 67108864.0 and f["limit.read_iops"] == 150.0
    assert math.isnan(f["limit.write_iops"]) and math.isnan(f["limit.read_bps"])
    assert f["limit.write_bps"] == 3145728.0 and f["limit.drop_caches"] is True
    assert f["limit.cgroup_version"] == 1.0
    assert f["limits"] == "memory 64 MiB, read 150 IOPS, write 3 MiB/s, drop caches, cgroup v1"


def test_runs_before_run_limits_have_none():
    for rl in (None, {}, {"memory_limit": None, "cgroup": None, "drop_caches": False}):
        f = dev.limit_fields(rl)
        assert f["limits"] == "none" and math.isnan(f["limit.memory_bytes"])
        assert math.isnan(f["limit.cgroup_version"]) and f["limit.drop_caches"] is False


def test_different_limits_give_different_labels():
    a = dev.limits_label({"memory_limit": 64 * 2**20, "cgroup": V1})
    b = dev.limits_label({"memory_limit": 160 * 2**20, "cgroup": V1})
    c = dev.limits_label({"memory_limit": 64 * 2**20, "read_iops": 100, "cgroup": V1})
    assert len({a, b, c, "none"}) == 4


def test_cgroup_per_op_by_hand():
    # samples at t = 0, 1, 2, 3; window [0.5, 2.5]; 10 ops
    cg = pd.DataFrame({"t_unix_s": [0, 1, 2, 3], "read_ios": [0, 10, 30, 40],
                       "read_bytes": [0, 4096, 12288, 20480], "write_ios": [0, 0, 4, 4],
                       "write_bytes": [0, 0, 8192, 8192]})
    got = dev.cgroup_per_op(cg, 0.5, 2.5, 10)
    # read_ios(2.5) = 35, read_ios(0.5) = 5 → 30 reads / 10 ops
    assert got["cg_r_per_op"] == 3.0
    # read_bytes(2.5) = 16384, (0.5) = 2048 → 14336 B = 14 KiB / 10 ops
    assert got["cg_rkb_per_op"] == 1.4
    # write_ios(2.5) = 4, (0.5) = 0; write_bytes 8192 − 0 = 8 KiB
    assert got["cg_w_per_op"] == 0.4 and got["cg_wkb_per_op"] == 0.8


def test_cgroup_per_op_without_cgroup_is_nan():
    assert all(math.isnan(v) for v in dev.cgroup_per_op(None, 0, 1, 10).values())
    one = pd.DataFrame({"t_unix_s": [0], "read_ios": [5], "read_bytes": [0], "write_ios": [0], "write_bytes": [0]})
    assert all(math.isnan(v) for v in dev.cgroup_per_op(one, 0, 1, 10).values())


def test_clients_and_calibrated_iops():
    assert dev.clients({"loader_threads": 1, "query_threads": 0}) == 1
    assert dev.clients({"loader_threads": 1, "query_threads": 1}) == 2
    assert dev.clients({"clients": [1, 2, 4]}) == 4
    assert dev.clients({"threads": 3}) == 3 and dev.clients({}) == 1
    cal = {"randread_qd1_iops": 150.0, "randread_qd32_iops": 1200.0}
    assert dev.calibrated_read_iops(cal, 1) == 150.0 and dev.calibrated_read_iops(cal, 2) == 1200.0


def test_use_by_hand():
    assert dev.use(75.0, 150.0) == 0.5
    assert math.isnan(dev.use(75.0, float("nan"))) and math.isnan(dev.use(75.0, 0))
    # 1000 KiB/s = 1.024 MB/s; against 2.048 MB/s sequential → 0.5
    assert dev.mb_per_s(1000) == 1.024 and dev.use(dev.mb_per_s(1000), 2.048) == 0.5


def test_ops_ceiling_by_hand():
    # 150 reads/s allowed, 0.6 reads per update → at most 250 updates/s
    assert dev.ops_ceiling(150, 0.6) == 250.0
    assert math.isnan(dev.ops_ceiling(150, 0.0)) and math.isnan(dev.ops_ceiling(float("nan"), 1.0))
