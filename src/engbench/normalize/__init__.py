"""Per-operation normalization: pure functions from parsed captures and driver outputs to the
figures of the source documents (r/op, wKB/op, Mcpu/op, per 200k, p99, RUM ...).

Each function states its formula in its docstring. Inputs are plain numbers or the tidy frames of
engbench.parsers; nothing here reads files."""

from .costs import window_costs
from .percentiles import latency_percentiles, partial_intervals, throughput_percentiles
from .perop import (cpu_us_per_op, gib, max_rss_gb, mcpu_per_op, per_n, process_cpu_us_per_op,
                    process_cs_per_op, process_kb_per_op, rate, rate_per_op)
from .amplification import (load_write_amp, read_amp_cgroup, read_amp_device, read_amp_process, space_amp,
                            write_amp_device, write_amp_process)
from .rum import why_no_ratio
from .windows import coverage, missed_seconds, trim_to_window

__all__ = ["coverage", "missed_seconds", "trim_to_window", "why_no_ratio", "rate", "rate_per_op", "mcpu_per_op", "cpu_us_per_op",
           "process_cpu_us_per_op", "process_cs_per_op", "process_kb_per_op", "per_n", "gib", "max_rss_gb", "latency_percentiles",
           "throughput_percentiles", "partial_intervals", "window_costs", "read_amp_device", "read_amp_cgroup",
           "read_amp_process", "write_amp_device", "write_amp_process", "load_write_amp", "space_amp"]
