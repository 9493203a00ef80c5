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
