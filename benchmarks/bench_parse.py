"""Parse + normalize a 24-hour capture at 1 s, against the seed author's grep|awk recipe.

Generates 86,400 iostat reports (4 devices, current extended layout, -t ISO stamps, avg-cpu
blocks) and 86,400 vmstat -w -t rows in a temp dir, then times
  engbench: parse_iostat (all devices) + parse_vmstat + trim to the window + per-op figures
  awk:      grep vda iostat.txt | awk (sum r/s rkB/s w/s wkB/s) and
            grep -v swpd vmstat.txt | awk 'NR>1' (sum cs, us+sy) — ios.sh / an.sh
and, apart, the iostat reference loop on the same capture: the path of the layouts the vectorized
fast path leaves to it (-h, --pretty, -g groups) and of any file it gives way on.
Usage: .venv/bin/python benchmarks/bench_parse.py [--seconds 86400]"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from engbench import normalize as nz
from engbench.parsers import parse_iostat, parse_vmstat
from engbench.parsers.iostat import _parse_text

HDR = ("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await "
       "wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util")
DEVS = ["vda", "vda1", "nvme0n1", "nvme0n1p1"]
T0 = 1795239934


def generate(d: Path, n: int):
    rng = np.random.default_rng(1)
    stamps = pd.to_datetime(T0 + np.arange(n), unit="s", utc=True).strftime("%Y-%m-%dT%H:%M:%S+0000")
    vals = rng.uniform(0, 5000, size=(n, len(DEVS), 22)).round(2)
    cpu = "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n          10.00    0.00    5.00    1.00    0.00   84.00\n\n"
    out = ["Linux 6.18.44-fc-v669 (vm) \t2026-11-21 \t_x86_64_\t(2 CPU)\n\n"]
    fmt = "%-13s" + " %8.2f" * 22 + "\n"
    for i in range(n):
        rows = "".join(fmt % ((dev,) + tuple(vals[i, j])) for j, dev in enumerate(DEVS))
        out.append(f"{stamps[i]}\n{cpu}{HDR}\n{rows}\n\n")
    (d / "iostat.txt").write_text("".join(out))
    vm = ["--procs-- -----------------------memory---------------------- ---swap-- -----io---- -system-- "
          "----------cpu---------- -----timestamp-----\n",
          "   r    b         swpd         free         buff        cache   si   so    bi    bo   in   cs  us  sy  id  wa  st  gu                 UTC\n"]
    cs = rng.integers(100, 5000, n)
    us = rng.integers(0, 60, n)
    vstamps = pd.to_datetime(T0 + np.arange(n), unit="s", utc=True).strftime("%Y-%m-%d %H:%M:%S")
    for i in range(n):
        vm.append(f"   1    0            0     24001412         8080       565420    0    0     0  1280   30 "
                  f"{cs[i]:4d} {us[i]:3d}   5 {95 - us[i]:3d}   0   0   0 {vstamps[i]}\n")
    (d / "vmstat.txt").write_text("".join(vm))


def engbench_way(d: Path, n: int):
    io = parse_iostat(d / "iostat.txt")
    vm = parse_vmstat(d / "vmstat.txt")
    start, end = T0 - 1 + 0.0, T0 + n - 1.0
    io = nz.trim_to_window(io[io["device"] == "vda"], start, end)
    vm = nz.trim_to_window(vm, start, end)
    q = 1000.0
    return {"wkb_per_op": nz.rate_per_op(io["wkb_per_s"].mean(), q),
            "mcpu_per_op": nz.mcpu_per_op((vm["us"] + vm["sy"]).mean(), q),
            "cs_per_op": nz.rate_per_op(vm["cs"].mean(), q),
            "coverage": nz.coverage(io, start, end)}


def awk_way(d: Path):
    io = subprocess.run(f"grep vda {d}/iostat.txt | awk '{{r+=$2; rk+=$3; w+=$8; wk+=$9; n+=1}} "
                        "END {print r/n, rk/n, w/n, wk/n, n}'", shell=True, capture_output=True, text=True, check=True)
    vm = subprocess.run(f"grep -v swpd {d}/vmstat.txt | awk 'NR>1 {{cs+=$12; cpu+=$13+$14; c+=1}} "
                        "END {print cs/c, cpu/c, c}'", shell=True, capture_output=True, text=True, check=True)
    return io.stdout.strip(), vm.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=86400)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        t = time.perf_counter()
        generate(d, args.seconds)
        gen = time.perf_counter() - t
        size = sum(p.stat().st_size for p in d.iterdir()) / 2**20
        t = time.perf_counter()
        res = engbench_way(d, args.seconds)
        ours = time.perf_counter() - t
        t = time.perf_counter()
        aw = awk_way(d)
        theirs = time.perf_counter() - t
        text = (d / "iostat.txt").read_text()
        t = time.perf_counter()
        _parse_text(text, d / "iostat.txt", False, None, "UTC", None)
        ref = time.perf_counter() - t
    print(f"capture: {args.seconds} s, 4 devices, {size:.0f} MiB (generated in {gen:.1f} s)")
    print(f"engbench parse+normalize: {ours:.2f} s   {res}")
    print(f"grep|awk recipe:          {theirs:.2f} s   iostat: {aw[0]} | vmstat: {aw[1]}")
    print(f"ratio engbench/awk: {ours / theirs:.2f}")
    print(f"iostat reference loop alone (the -h/--pretty/-g path): {ref:.2f} s")
    print("note: grep vda also matches vda1 (substring), so the awk n is 2 rows per report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
