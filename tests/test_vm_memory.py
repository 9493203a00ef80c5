"""engbench.run.vm_memory on a sysfs tree laid out as the kernel lays it out (the files and values
of the machine the shipped runs were measured on, 2026-11-27), figures computed by hand."""

from pathlib import Path

from engbench.run import vm_memory


def put(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text + "\n")


def damon_scheme(root: Path, kd: int, sch: int, action: str, applied: int, state: str = "on") -> None:
    k = f"kernel/mm/damon/admin/kdamonds/{kd}"
    put(root, f"{k}/state", state)
    c = f"{k}/contexts/0"
    put(root, f"{c}/operations", "paddr")
    put(root, f"{c}/monitoring_attrs/intervals/aggr_us", "5000000")
    s = f"{c}/schemes/{sch}"
    put(root, f"{s}/action", action)
    put(root, f"{s}/access_pattern/age/min", "12")
    put(root, f"{s}/access_pattern/nr_accesses/max", "1")
    put(root, f"{s}/quotas/bytes", "134217728")
    put(root, f"{s}/quotas/reset_interval_ms", "1000")
    put(root, f"{s}/watermarks/metric", "none")
    put(root, f"{s}/stats/sz_applied", str(applied))


def machine(root: Path) -> tuple[Path, Path]:
    sys_root, proc_root = root / "sys", root / "proc"
    put(sys_root, "kernel/mm/transparent_hugepage/enabled", "always [madvise] never")
    put(sys_root, "kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never")
    put(proc_root, "meminfo", "MemTotal:       24684096 kB\nSwapTotal:             0 kB")
    put(sys_root, "bus/virtio/devices/virtio2/device", "0x0001")  # a network device: not the balloon
    put(sys_root, "bus/virtio/devices/virtio0/device", "0x0005")
    put(sys_root, "bus/virtio/devices/virtio0/features", "0110010100000000")
    put(sys_root, "module/page_reporting/parameters/page_reporting_order", "9")
    damon_scheme(sys_root, 0, 0, "pageout", 27_026_575_360)
    return sys_root, proc_root


def test_the_vms_memory_management_read_from_sysfs_by_hand(tmp_path):
    sys_root, proc_root = machine(tmp_path)
    got = vm_memory.memory_management(sys_root, proc_root)
    # min_age_s = 12 aggregation intervals x 5,000,000 us = 60 s; quota 134217728 B per 1000 ms;
    # features "01100101...": bit 5 (free page reporting) '1', bit 3 (free page hint) '0'
    assert got == {
        "thp_enabled": "madvise", "thp_defrag": "madvise", "swap_bytes": 0,
        "damon_schemes": [{"kdamond": 0, "state": "on", "operations": "paddr", "action": "pageout",
                           "min_age_s": 60.0, "max_nr_accesses": 1, "quota_bytes_per_s": 134217728.0,
                           "watermark_metric": "none"}],
        "balloon": {"device": "virtio0", "free_page_reporting": True, "free_page_hint": False,
                    "page_reporting_order": 9}}


def test_paged_out_bytes_sum_the_running_pageout_schemes_only(tmp_path):
    sys_root, _ = machine(tmp_path)
    damon_scheme(sys_root, 0, 1, "stat", 5_000)  # not a pageout: not counted
    damon_scheme(sys_root, 1, 0, "pageout", 7_000, state="off")  # a stopped kdamond: not counted
    damon_scheme(sys_root, 2, 0, "pageout", 1_000)
    assert vm_memory.damon_applied_bytes(sys_root) == 27_026_575_360 + 1_000
    # the refresh was asked of the running kdamonds only
    assert (sys_root / "kernel/mm/damon/admin/kdamonds/0/state").read_text() == "update_schemes_stats"
    assert (sys_root / "kernel/mm/damon/admin/kdamonds/1/state").read_text().strip() == "off"


def test_a_machine_without_damon_or_balloon_records_none(tmp_path):
    put(tmp_path / "proc", "meminfo", "SwapTotal:       1048576 kB")
    got = vm_memory.memory_management(tmp_path / "sys", tmp_path / "proc")
    assert got == {"thp_enabled": None, "thp_defrag": None, "swap_bytes": 1024 ** 3, "damon_schemes": [],
                   "balloon": None}
    assert vm_memory.damon_applied_bytes(tmp_path / "sys") is None
