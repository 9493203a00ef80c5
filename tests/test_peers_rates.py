"""What the peer benchmarks (benchmarks/bench_peers.py, bench_sysbench.py, ...) compute, by hand on
small examples: the whole-run rate from the server's polled counters, the server's insert clock,
the pair ratios, and the CPU the rest of the machine used (engbench.peers)."""

import math
import time

import pytest

from engbench.peers import cpu, rates


def poll(t, questions, com_insert=0, handler_write=0):
    return (t, {"Questions": questions, "Com_insert": com_insert, "Handler_write": handler_write})


# A client on a server polled every 0.1 s (each poll one statement, so Questions rises by 1 a poll
# when the client is quiet). Its first statement (CREATE TABLE) arrives between the polls at 10.1
# and 10.2; its 3 INSERTs of 1000 rows start between 10.2 and 10.3, 10.4 and 10.5, 10.6 and 10.7,
# each writing its rows by the next poll; then the client says nothing (engbench's status reads
# after its last commit would only move Questions).
SAMPLES = [
    poll(10.0, 100),
    poll(10.1, 101),
    poll(10.2, 103),                 # + CREATE TABLE
    poll(10.3, 105, 1, 1000),        # + INSERT 1
    poll(10.4, 106, 1, 1000),
    poll(10.5, 108, 2, 2000),        # + INSERT 2
    poll(10.6, 109, 2, 2000),
    poll(10.7, 111, 3, 3000),        # + INSERT 3, the last commit
    poll(10.8, 114, 3, 3000),        # + 2 status reads after the run
    poll(10.9, 115, 3, 3000),
]


def test_whole_run_is_from_the_first_statement_to_the_last_commit():
    # first statement after the poll at 10.1; rows all written by the poll at 10.7: 3000 rows in 0.6 s
    assert rates.first_statement(SAMPLES) == 10.1
    assert rates.settled(SAMPLES, "Handler_write") == 10.7
    assert rates.whole_run_rate(3000, SAMPLES) == pytest.approx(3000 / 0.6)
    # a start known otherwise (engbench's load end, a request window) replaces the first statement
    assert rates.whole_run_rate(3000, SAMPLES, start=10.2) == pytest.approx(3000 / 0.5)
    # nothing ran: no rate
    quiet = [poll(1.0, 1), poll(1.1, 2), poll(1.2, 3)]
    assert math.isnan(rates.first_statement(quiet)) and math.isnan(rates.whole_run_rate(5, quiet))


def test_server_clock_is_all_inserts_but_the_last_over_their_span():
    # first INSERT started after the poll at 10.2, the last one by the poll at 10.7: 0.5 s for the
    # 2000 rows of the first two INSERTs (every INSERT carries 1000 rows)
    assert rates.first_move(SAMPLES, "Com_insert") == 10.2
    assert rates.settled(SAMPLES, "Com_insert") == 10.7
    assert rates.increase(SAMPLES, "Com_insert") == 3
    assert rates.server_rate(3000, 3, 0.5) == pytest.approx(4000.0)
    assert rates.insert_clock(3000, SAMPLES) == pytest.approx(3000 * 2 / 3 / 0.5)
    assert math.isnan(rates.server_rate(1000, 1, 0.5)) and math.isnan(rates.server_rate(1000, 2, 0.0))


def test_pair_ratios_and_their_median_skip_what_is_not_a_number():
    assert rates.pair_ratios([110, 90, 120], [100, 100, 100]) == pytest.approx([1.1, 0.9, 1.2])
    assert rates.pair_ratios([110, 90, 5], [100, 0, float("nan")]) == pytest.approx([1.1])
    assert rates.median([1.1, 0.9, 1.2]) == 1.1
    assert rates.median([1.0, float("nan"), 3.0]) == 2.0 and math.isnan(rates.median([]))


def test_other_cpu_is_the_machines_busy_time_less_the_measured_processes():
    # /proc/stat at two moments, 100 ticks a second (TICK is the host's: scale by it)
    t = cpu.TICK
    before = f"cpu  {100 * t} 0 {50 * t} {800 * t} {10 * t} 0 0 0 0 0\ncpu0 ...\n"
    after = f"cpu  {130 * t} {2 * t} {58 * t} {950 * t} {10 * t} {t} {t} 0 0 0\ncpu0 ...\n"
    b0, t0 = cpu.stat_times(before)
    b1, t1 = cpu.stat_times(after)
    assert (b0, t0) == (150, 960)
    # busy +42 CPU-s of 200 (busy + idle + iowait); the clients and the server used 30 of them
    assert (b1 - b0, t1 - t0) == (42, 192)
    assert cpu.other_pct(42, 192, 30) == pytest.approx(100 * 12 / 192)
    assert cpu.other_pct(42, 192, 50) == 0.0  # the measured processes' own count can run ahead: never < 0
    assert math.isnan(cpu.other_pct(1, 0, 0))
    with pytest.raises(ValueError, match="cpu"):
        cpu.stat_times("intr 1 2 3\n")


def test_steal_is_the_eighth_figure_of_the_cpu_line():
    # user nice system idle iowait irq softirq steal: 7 s of steal, then 10 s; a layout without the
    # 'cpu' line first is refused as stat_times refuses it
    t = cpu.TICK
    assert cpu.steal_time(f"cpu  {t} 0 0 {9 * t} 0 0 0 {7 * t} 0 0\n") == 7
    assert cpu.steal_time(f"cpu  {t} 0 0 {9 * t} 0 0 0 {10 * t} 0 0\n") == 10
    with pytest.raises(ValueError, match="cpu"):
        cpu.steal_time("intr 1 2 3\n")
    # a real window has all four figures, steal among the machine's busy time
    w = cpu.CpuWindow().close()
    assert set(w) == {"machine_pct", "own_pct", "other_pct", "steal_pct"}
    assert 0 <= w["steal_pct"] <= w["machine_pct"] + 1e-9 or math.isnan(w["steal_pct"])


def test_a_process_cpu_is_read_after_its_name_which_may_hold_parentheses_and_spaces():
    t = cpu.TICK
    line = f"4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 {7 * t} {3 * t} 0 0 20 0 9 0 100 0 0"
    assert cpu.process_cpu(4242, line) == pytest.approx(10.0)
    assert cpu.process_cpu(2 ** 22 + 12345) == 0.0  # no such process


def test_a_window_counts_this_process_as_its_own():
    w = cpu.CpuWindow()
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
    got = w.close()
    assert got["own_pct"] > 0 and got["machine_pct"] >= got["other_pct"] >= 0


def test_a_servers_cpu_per_update_is_over_the_updates_own_span():
    # Polls every 0.1 s: the server's CPU (µs) and its update counter. The updates start after the
    # poll at 10.1 and the last one is done by 10.4; CPU before and after them is not theirs.
    samples = [(10.0, {"Com_update": 0, "server_cpu_us": 1_000}),
               (10.1, {"Com_update": 0, "server_cpu_us": 2_000}),      # t_a
               (10.2, {"Com_update": 400, "server_cpu_us": 12_000}),
               (10.3, {"Com_update": 800, "server_cpu_us": 22_000}),
               (10.4, {"Com_update": 1000, "server_cpu_us": 27_000}),  # t_b: final value
               (10.5, {"Com_update": 1000, "server_cpu_us": 40_000})]  # after: not the updates'
    assert rates.per_op(samples, "server_cpu_us", "Com_update") == pytest.approx((27_000 - 2_000) / 1000)
    assert math.isnan(rates.per_op(samples[:2], "server_cpu_us", "Com_update"))


def test_the_medians_interval_is_from_order_statistics_by_hand():
    # 5 pairs: [min, max] covers the median unless all 5 fall on one side: 1 - 2/32 = 0.9375;
    # [x(2), x(4)] would cover only 1 - 2 (1 + 5)/32 = 0.625 < 0.90
    assert rates.median_interval([0.70, 1.02, 0.96, 0.81, 1.15]) == (0.70, 1.15, 0.9375)
    # 10 pairs: k = 2 covers 1 - 2 (1 + 10)/1024 = 0.978515625; k = 3 only 1 - 2 (1 + 10 + 45)/1024
    # = 0.890625 < 0.90, so [x(2), x(9)]
    ten = [0.93, 1.25, 0.93, 0.81, 0.89, 1.20, 1.08, 1.11, 1.23, 0.97]
    assert rates.median_interval(ten) == (0.89, 1.23, 0.978515625)
    assert rates.median_interval(ten, confidence=0.85)[:2] == (0.93, 1.20)  # k = 3: x(3), x(8)
    # 3 pairs never reach 90 %: [min, max] with its 75 %; NaN left out
    assert rates.median_interval([1.1, float("nan"), 0.9, 1.0]) == (0.9, 1.1, 0.75)
    lo, hi, cov = rates.median_interval([])
    assert math.isnan(lo) and math.isnan(hi) and math.isnan(cov)
