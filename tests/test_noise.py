"""The machine's own spread (engbench.rulebook.noise, issue 26): window rates, their variation and the
fraction of repetition-sized sets within the spread bound, computed by hand."""

import math

import pytest

from engbench.rulebook import noise


def test_window_rates_are_work_over_time_of_the_units_starting_in_each_window():
    # (t_start, work, duration): window 0 = [0, 10) holds the units at 0 and 4 (work 10 + 20 over
    # 4 + 4 s = 3.75/s), window 1 = [10, 20) the units at 10 and 12 (work 5 + 5 over 2 + 8 s = 1.0/s;
    # a mean of the unit rates would say 1.375), window 2 = [20, 30) ends at 23 + 2 = 25: partial, dropped
    samples = [(0, 10, 4), (4, 20, 4), (10, 5, 2), (12, 5, 8), (23, 7, 2)]
    assert noise.window_rates(samples, 10) == [3.75, 1.0]
    assert noise.window_rates([], 10) == []
    with pytest.raises(ValueError):
        noise.window_rates(samples, 0)


def test_variation_is_the_sample_stdev_over_the_mean():
    # mean 1.0, deviations -0.1, 0, +0.1: stdev sqrt(0.02 / 2) = 0.1
    assert noise.variation([0.9, 1.0, 1.1]) == pytest.approx(0.1)
    assert math.isnan(noise.variation([1.0]))


def test_within_fraction_counts_the_triples_within_the_bound_of_their_median():
    # triples of [1.0, 1.1, 1.3, 0.9], bound 0.15:
    #   1.0 1.1 1.3  median 1.1: |1.3/1.1 - 1| = 0.18   out
    #   1.0 1.1 0.9  median 1.0: 0.10, 0.10            in
    #   1.0 1.3 0.9  median 1.0: 0.30                  out
    #   1.1 1.3 0.9  median 1.1: 0.18                  out
    assert noise.within_fraction([1.0, 1.1, 1.3, 0.9], reps=3, bound=0.15) == 0.25
    assert noise.within_fraction([1.0, 1.1, 1.3, 0.9], reps=3, bound=0.31) == 1.0
    assert math.isnan(noise.within_fraction([1.0, 1.1], reps=3))


def test_adjacent_ratios_are_each_window_over_the_one_before():
    assert noise.adjacent_ratios([2.0, 1.0, 1.5, 3.0]) == [0.5, 1.5, 2.0]
    assert noise.adjacent_ratios([1.0]) == []


def test_host_noise_script_reads_a_samples_file_and_prints_every_figure(tmp_path):
    """benchmarks/host_noise.py --from: the figures from saved units, nothing measured. 60 units of
    500,000 keys starting a second apart, alternately 1.0M and 0.5M keys/s (0.5 s and 1 s long), so
    each 2-s window is 1M keys over 1.5 s, the same in every window; the last unit ends at 60 s:
    30 complete 2-s windows, 6 of 10 s, 29 A/A ratios of 1.0."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    path = tmp_path / "units.jsonl"
    path.write_text("".join(json.dumps({"t": float(i), "keys": 500_000,
                                        "fillseq_per_s": [1e6 if i % 2 == 0 else 5e5],
                                        "sha_mib_s": 1600.0, "other_cpu_pct": 0.5}) + "\n" for i in range(60)))
    out = subprocess.run([sys.executable, "host_noise.py", "--from", str(path), "--windows", "2,10",
                          "--pair-windows", "2", "--pairs", "5"], cwd=root / "benchmarks",
                         capture_output=True, text=True, check=True).stdout
    lines = {" ".join(line.split()[:2]): line.split() for line in out.splitlines()}
    assert lines["fillseq 2s"][2:7] == ["30", "0.0%", "1.00", "1.00", "100%"]
    assert lines["fillseq 10s"][2:7] == ["6", "0.0%", "1.00", "1.00", "100%"]
    assert "A/A pairs of 2 s (29 ratios): one pair 1.00-1.00; the median of 5 pairs 1.00-1.00" in out
    assert "60 fillseq units" in out and "shipped reproduction:" in out


def test_the_readmes_host_noise_figures_come_from_the_saved_units():
    """README "How much of the spread is the machine's" and the peers' A/A paragraph quote these,
    computed from benchmarks/measured/ by the script (its A/A draws are seeded)."""
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[1] / "benchmarks"

    def rows(name):
        out = subprocess.run([sys.executable, "host_noise.py", "--from", f"measured/host_noise-2026-11-27-{name}.jsonl"],
                             cwd=bench, capture_output=True, text=True, check=True).stdout
        return out, {" ".join(line.split()[:2]): " ".join(line.split()[2:]) for line in out.splitlines()}

    out, one = rows("one-cpu")
    assert [one[f"fillseq {w}s"] for w in (10, 30, 60, 120)] == [
        "143 9.2% 0.77 1.20 74%", "47 6.7% 0.86 1.16 92%", "23 5.5% 0.88 1.10 98%", "11 4.7% 0.92 1.06 100%"]
    out, two = rows("two-cpus")
    assert [two[f"fillseq {w}s"] for w in (10, 30, 60, 120)] == [
        "84 11.8% 0.31 1.13 70%", "28 10.2% 0.65 1.09 71%", "14 9.9% 0.75 1.09 68%", "7 7.3% 0.85 1.05 83%"]
    assert two["sha256 30s"].split()[1] == "1.0%"
    assert "A/A pairs of 2 s (415 ratios): one pair 0.81-1.20; the median of 5 pairs 0.91-1.12" in out
    assert "A/A pairs of 10 s (83 ratios): one pair 0.88-1.11; the median of 5 pairs 0.94-1.07" in out
