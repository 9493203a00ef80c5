#!/usr/bin/env bash
# The README's two commands. Each first makes sure everything is installed (scripts/setup.sh:
# idempotent and cached, so a second call is fast), then:
#   go.sh main   the main job: iibench on every available embedded engine (engbench main)
#   go.sh test   the whole test suite: pytest over tests/ and every notebook (nbval)
#   go.sh lab    JupyterLab on notebooks/ with this checkout's kernel (.venv), on 127.0.0.1
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
what=${1:-}
shift || true
case "$what" in
  main|test|lab) ;;
  *) echo "usage: bash scripts/go.sh main|test|lab [extra args]" >&2; exit 2 ;;
esac
bash scripts/setup.sh
case "$what" in
  main) exec .venv/bin/engbench main "$@" ;;
  test) exec .venv/bin/python -m pytest --nbval-lax tests notebooks "$@" ;;
  lab)
    root=(); [ "$(id -u)" = 0 ] && root=(--allow-root)   # JupyterLab refuses root unless told
    exec .venv/bin/jupyter lab --notebook-dir="$here/notebooks" --ip=127.0.0.1 --no-browser "${root[@]}" "$@" ;;
esac
