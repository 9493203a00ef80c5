"""How long the `engbench` command takes to start, next to the interpreter's own floor.

Runs, interleaved and repeated (medians of wall time, fresh process each):
  python -c pass                         the interpreter alone
  python -c "import pandas"              the floor for any command that builds a table
  engbench --help                        target: under 0.5 s here
  engbench parse iostat CAPTURE          target: under 0.5 s here
  engbench run iibench, null engine, 10 documents, beside the driver alone on the same config:
                                         the harness's fixed cost per run (captures started and
                                         their first report, the final report after the driver,
                                         manifest, sealing); iostat and vmstat tick every second,
                                         so about 2 s is the floor (one interval before, one after)
and prints each as seconds and as a ratio to `python -c pass` and to `import pandas`.

Usage: .venv/bin/python benchmarks/bench_cli.py [--reps 9]"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "tests" / "data" / "captures" / "burst_iostat_xkt.txt"
ENGBENCH = [sys.executable, "-m", "engbench.cli"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import pandas": [sys.executable, "-c", "import pandas"],
    "engbench --help": ENGBENCH + ["--help"],
    "engbench parse iostat": ENGBENCH + ["parse", "iostat", str(CAPTURE), "--device", "vda"],
}


def add_run_commands(scratch: Path) -> None:
    """The two run commands, writing into `scratch` (engbench's raw and work dirs, the driver's)."""
    os.environ.update(ENGBENCH_RAW_DIR=str(scratch / "raw"), ENGBENCH_WORK_DIR=str(scratch / "work"))
    config = scratch / "null.json"
    config.write_text(json.dumps({"workload": "iibench", "engine": "null", "params": {"max_rows": 10}, "seed": 1,
                                  "data_dir": str(scratch / "data"), "output_dir": str(scratch / "out")}))
    COMMANDS.update({
        "engbench run null x10": ENGBENCH + ["run", "iibench", "--engine", "null", "--set", "max_rows=10",
                                             "--no-progress"],
        "driver alone null x10": [str(REPO / "build" / "engbench-driver"), "run", str(config)],
    })


def wall(cmd) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=9)
    reps = ap.parse_args().reps
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as scratch:
        add_run_commands(Path(scratch))
        measure(reps)


def measure(reps: int) -> None:
    times = {name: [] for name in COMMANDS}
    for name, cmd in COMMANDS.items():  # warm the page cache once
        wall(cmd)
    for i in range(reps):
        order = list(COMMANDS.items())
        for name, cmd in (order if i % 2 == 0 else order[::-1]):
            times[name].append(wall(cmd))
    med = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"{'command':<24} {'median s':>9} {'min-max s':>13} {'x python':>9} {'x pandas':>9}")
    for name, ts in times.items():
        print(f"{name:<24} {med[name]:>9.3f} {min(ts):>6.3f}-{max(ts):<6.3f} "
              f"{med[name] / med['python -c pass']:>9.1f} {med[name] / med['import pandas']:>9.2f}")


if __name__ == "__main__":
    main()
