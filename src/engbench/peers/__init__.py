"""engbench beside the reference clients (benchmarks/bench_peers.py, bench_sysbench.py, bench_ycsb.py,
driver_bench.py): the arithmetic those scripts print, kept here so that it is tested.

Modules: verdict (each pair's order from a recorded seed, the ratio of the means over the pairs
with its interval, and its word: ahead / at parity / behind / inconclusive), rates (the whole-run
rate, the server's insert clock, the pairs' ratios),
timeline (a thread polling the server's status counters, the samples the rates are read from),
cpu (the CPU the rest of the machine used while a benchmark measured)."""
