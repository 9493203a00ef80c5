#!/usr/bin/env bash
# The README's two commands. Each first makes sure what it needs is installed (scripts/setup.sh:
# idempotent and cached, so a second call is fast), then:
#   go.sh main   set-up of the core (build packages, .venv, WiredTiger, the driver), then the main
#                job: iibench on every available embedded engine (engbench main)
#   go.sh test   set-up of everything (core, servers, workflow, browser, tools), then the whole
#                test suite: pytest over tests/ and every notebook (nbval)
#   go.sh lab    set-up of the core, then JupyterLab on notebooks/ with this checkout's kernel (.venv)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
what=${1:-}
shift || true
case "$what" in
  main|test|lab) ;;
  *) echo "usage: bash scripts/go.sh main|test|lab [extra args]" >&2; exit 2 ;;
esac
if [ "$what" = test ]; then bash scripts/setup.sh all; else bash scripts/setup.sh core; fi
case "$what" in
  main) exec .venv/bin/engbench main "$@" ;;
  test) exec .venv/bin/python -m pytest -n 2 --dist loadgroup --nbval-lax tests notebooks "$@" ;;
  lab)
    root=(); [ "$(id -u)" = 0 ] && root=(--allow-root)   # JupyterLab refuses root unless told
    exec .venv/bin/jupyter lab --notebook-dir="$here/notebooks" --ip=127.0.0.1 --no-browser "${root[@]}" "$@" ;;
esac
