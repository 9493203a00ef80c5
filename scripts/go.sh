#!/usr/bin/env bash
# The README's two commands. Each first makes sure what it needs is installed (scripts/setup.sh:
# idempotent and cached, so a second call is fast), then:
#   go.sh main   set-up of the core (build packages, .venv, WiredTiger, the driver), then the main
#                job: iibench on every available embedded engine (engbench main)
#   go.sh test   set-up of everything (core, the driver's unit tests, servers, workflow, browser,
#                tools), then the test suite: pytest over tests/ (the driver's unit tests among them,
#                tests/test_driver_conformance.py) and every notebook (nbval: strictly for the
#                notebooks committed with outputs, lax for the others), all but the slow tier
#   go.sh slow   set-up of everything, then the slow tier (tests marked `slow`: the README's commands
#                on a fresh clone); .ci/run runs `test` and then `slow`
#   go.sh lab    set-up of the core, then JupyterLab on notebooks/ with this checkout's kernel (.venv)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
what=${1:-}
shift || true
case "$what" in
  main|test|slow|lab) ;;
  *) echo "usage: bash scripts/go.sh main|test|slow|lab [extra args]" >&2; exit 2 ;;
esac
case "$what" in test|slow) bash scripts/setup.sh all ;; *) bash scripts/setup.sh core ;; esac
case "$what" in
  main) exec .venv/bin/engbench main "$@" ;;
  test)
    # Two pytest runs, both always made; the status is the first failure's. The shipped-data
    # notebooks (committed with their outputs) are checked strictly (--nbval: every output must match)
    # against git HEAD's data/raw and data/processed, not the working tree's, to which the main job
    # adds runs; then the run-side notebooks (committed without outputs: --nbval-lax) in one process, and
    # the suite on two xdist workers (tests/conftest.py: DEVICE keeps the device measurements on one of them).
    shipped=$(mktemp -d -t engbench-shipped-XXXXXX)
    trap 'rm -rf "$shipped"' EXIT
    .venv/bin/engbench notebooks --export-shipped "$shipped" >/dev/null
    mapfile -t strict < <(.venv/bin/engbench notebooks --list shipped-data)
    mapfile -t lax < <(.venv/bin/engbench notebooks --list run-side)
    [ ${#strict[@]} -gt 0 ] && [ ${#lax[@]} -gt 0 ] || { echo "go.sh test: engbench notebooks --list failed" >&2; exit 2; }
    rc=0
    ENGBENCH_RAW_DIR="$shipped/data/raw" ENGBENCH_PROCESSED_DIR="$shipped/data/processed" \
      .venv/bin/python -m pytest --nbval --nbval-sanitize-with notebooks/nbval-sanitize.cfg "${strict[@]}" "$@" || rc=$?
    [ "$rc" != 5 ] || rc=0   # 5: the extra arguments selected none of them
    # the run-side notebooks in one process: nbval's cells of a notebook share one kernel, and xdist
    # split a notebook's cells between its workers (a cell without the names the cells before it made)
    # (their runs go to a scratch directory, as the suite's do: tests/conftest.py)
    scratch=$(mktemp -d -t engbench-notebooks-XXXXXX)
    trap 'chmod -R u+w "$shipped" "$scratch" 2>/dev/null; rm -rf "$shipped" "$scratch"' EXIT
    s=0; ENGBENCH_RAW_DIR="$scratch/raw" ENGBENCH_PROCESSED_DIR="$scratch/processed" ENGBENCH_WORK_DIR="$scratch/work" \
      .venv/bin/python -m pytest -p no:xdist --nbval-lax "${lax[@]}" "$@" || s=$?
    [ "$s" = 0 ] || [ "$s" = 5 ] || [ "$rc" != 0 ] || rc=$s
    # the slow tier is `go.sh slow`'s (an -m given after this one replaces it: the fresh-clone check's -m smoke)
    .venv/bin/python -m pytest -n 2 --dist loadgroup -m "not slow" tests "$@" || { s=$?; [ "$rc" != 0 ] || rc=$s; }
    exit "$rc" ;;
  slow)
    exec .venv/bin/python -m pytest -n 2 --dist loadgroup -m slow tests "$@" ;;
  lab)
    root=(); [ "$(id -u)" = 0 ] && root=(--allow-root)   # JupyterLab refuses root unless told
    exec .venv/bin/jupyter lab --notebook-dir="$here/notebooks" --ip=127.0.0.1 --no-browser "${root[@]}" "$@" ;;
esac
