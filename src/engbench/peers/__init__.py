"""engbench beside the reference clients (benchmarks/bench_peers.py, bench_sysbench.py, bench_ycsb.py,
driver_bench.py): the arithmetic those scripts print, kept here so that it is tested.

Modules: rates (the whole-run rate, the server's insert clock, medians of interleaved pairs),
timeline (a thread polling the server's status counters, the samples the rates are read from),
cpu (the CPU the rest of the machine used while a benchmark measured)."""
