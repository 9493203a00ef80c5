"""How much CPU the run's samplers cost: iostat, vmstat and the psutil sampler of the driver,
each as a percentage of one core, measured side by side over the same window while a process
they observe keeps a core busy (as a driver would).

    .venv/bin/python benchmarks/bench_samplers.py [seconds]      (target: each < 1% of one core)
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from engbench.run import capture


def main(seconds: float = 30.0) -> int:
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tools = [capture.ToolCapture(n, a, tmp / f"{n}.txt") for n, a in capture.TOOLS.items()]
        for t in tools:
            t.start()
        sampler = capture.ProcessSampler(busy.pid, tmp / "driver_process.csv")
        sampler.start()
        t0 = time.monotonic()
        time.sleep(seconds)
        wall = time.monotonic() - t0
        cpu = {}
        for t in tools:
            c = psutil.Process(t.proc.pid).cpu_times()
            cpu[t.name] = c.user + c.system
        sampler.stop()
        cpu["psutil sampler thread"] = sampler.cpu_s
        busy_cpu = sum(psutil.Process(busy.pid).cpu_times()[:2])
        for t in tools:
            t.stop()
        busy.kill()
        busy.wait()
    print(f"window: {wall:.1f} s; the observed busy process used {busy_cpu / wall * 100:.1f}% of one core")
    print(f"{'sampler':<24} {'CPU s':>8} {'% of one core':>14} {'target':>8}")
    worst = 0.0
    for name, s in cpu.items():
        pct = s / wall * 100
        worst = max(worst, pct)
        print(f"{name:<24} {s:>8.3f} {pct:>13.3f}% {'< 1%':>8}")
    total = sum(cpu.values()) / wall * 100
    print(f"{'all samplers together':<24} {sum(cpu.values()):>8.3f} {total:>13.3f}%")
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0))
