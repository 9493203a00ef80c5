"""The rates the peer benchmarks compare, from the server's status counters polled every few ms
(timeline.StatusClock: samples (t, {counter: value}), t in unix seconds).

    whole run     rows / (t_last − t_first): t_first the last poll before the client's first
                  statement (Questions rose by more than the polls' own statements: each poll is
                  one), t_last the first poll at which the rows-written counter (Handler_write)
                  had its final value, i.e. after the last commit; what a user waits for from the
                  client's first statement to its last commit, setup statements and the client's
                  own gaps included, on one clock for every client (to within one poll)
    server clock  rows · (n − 1) / n / (t_b − t_a) over n INSERT statements (Com_insert): t_a the
                  last poll before the first INSERT started, t_b the first poll at the last
                  INSERT's start; the rows of all INSERTs but the last over the span in which they
                  ran (every INSERT carries the same rows but maybe the last); whatever a client
                  does before its first INSERT or after its last is outside it
    per op        Δkey / Δops over the ops' own span: from the last poll before `ops` first moved to
                  the first poll at which it had its final value (a server's CPU per update, the
                  polls sampling its CPU: timeline.StatusClock(pids=...))
    pair ratios   engbench / peer per interleaved pair, and their median (a loaded machine moves
                  both runs of a pair alike), with the median's distribution-free interval
                  (median_interval, from engbench.effects)

Counters are read as integers; a poll that finds a counter missing is an error in the caller."""

from __future__ import annotations

import math
import statistics

from ..effects import median_interval  # the one home of the statistics (engbench.effects)


def first_statement(samples: list, questions: str = "Questions") -> float:
    """t of the last poll before a statement other than the polls' own arrived (module docstring);
    nan when none did."""
    if not samples:
        return float("nan")
    q0 = samples[0][1][questions]
    for i, (_, st) in enumerate(samples):
        if st[questions] - q0 > i:  # poll i's own SHOW is the i-th statement since poll 0
            return samples[i - 1][0] if i else samples[0][0]
    return float("nan")


def _first_move_at(samples: list, key: str) -> int | None:
    """Index of the last poll before `key` first changed; None when it never did."""
    v0 = samples[0][1][key] if samples else None
    return next((i - 1 for i, (_, st) in enumerate(samples) if st[key] != v0), None)


def _settled_at(samples: list, key: str) -> int | None:
    """Index of the first poll at which `key` had its final value; None when it never changed."""
    if not samples or samples[0][1][key] == samples[-1][1][key]:
        return None
    final = samples[-1][1][key]
    return next(i for i, (_, st) in enumerate(samples) if st[key] == final)


def first_move(samples: list, key: str) -> float:
    """t of the last poll before `key` first changed; nan when it never did."""
    i = _first_move_at(samples, key)
    return float("nan") if i is None else samples[i][0]


def settled(samples: list, key: str) -> float:
    """t of the first poll at which `key` had its final value (the last poll's); nan when it
    never changed."""
    i = _settled_at(samples, key)
    return float("nan") if i is None else samples[i][0]


def increase(samples: list, key: str) -> int:
    return samples[-1][1][key] - samples[0][1][key] if samples else 0


def whole_run_rate(n: float, samples: list, end_key: str = "Handler_write", start: float | None = None) -> float:
    """n / (t_last − t_first) (module docstring); `start` overrides t_first (a client whose first
    statement is known otherwise). nan when either end is unknown."""
    t0 = first_statement(samples) if start is None else start
    t1 = settled(samples, end_key)
    return n / (t1 - t0) if t1 > t0 else float("nan")


def server_rate(rows: int, statements: int, span: float) -> float:
    """rows · (statements − 1) / statements / span (module docstring); nan with fewer than 2
    statements or no span."""
    return rows * (statements - 1) / statements / span if statements >= 2 and span > 0 else float("nan")


def insert_clock(rows: int, samples: list, key: str = "Com_insert") -> float:
    """The server-clock rate of a load whose INSERTs `key` counts (module docstring)."""
    t_a, t_b = first_move(samples, key), settled(samples, key)
    return server_rate(rows, increase(samples, key), t_b - t_a) if not math.isnan(t_a) else float("nan")


def per_op(samples: list, key: str, ops: str) -> float:
    """Δkey / Δops between the poll before `ops` first moved and the first poll at its final
    value (module docstring); nan when `ops` never moved."""
    a, b = _first_move_at(samples, ops), _settled_at(samples, ops)
    if a is None or b is None:
        return float("nan")
    a, b = samples[a][1], samples[b][1]
    return (b[key] - a[key]) / (b[ops] - a[ops])


def _numbers(xs) -> list:
    """xs without None and NaN."""
    return [x for x in xs if x is not None and not math.isnan(x)]


def pair_ratios(ours: list, peers: list) -> list:
    """ours[i] / peers[i] for every pair whose peer figure is a number other than 0."""
    return [o / p for o, p in zip(ours, peers)
            if p and not math.isnan(p) and o is not None and not math.isnan(o)]


def median(xs: list) -> float:
    xs = _numbers(xs)
    return statistics.median(xs) if xs else float("nan")


def interval_text(xs: list, confidence: float = 0.90) -> str:
    """median_interval as the benchmarks print it: `median in [0.70, 1.15] (94 %)`; `-` without ratios."""
    lo, hi, cov = median_interval(xs, confidence)
    return "-" if math.isnan(cov) else f"median in [{lo:.2f}, {hi:.2f}] ({cov:.0%})"
