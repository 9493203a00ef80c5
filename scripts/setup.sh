#!/usr/bin/env bash
# What engbench needs on a fresh Debian 12 machine, installed by need, idempotently and cached.
#
#   bash scripts/setup.sh [PART ...]        PART: core (always), tests, servers, workflow, browser, tools, all
#
#   core      what the main job needs: Debian build packages and sysstat; this checkout's Python
#             environment in ./.venv (pinned requirements.txt, engbench editable from this checkout,
#             made by uv from a download cache shared by all checkouts); WiredTiger 11.3.1 as a
#             Release static library + wtperf (scripts/build_wiredtiger.sh); the compiled driver
#             (cached by a hash of its sources and the WiredTiger build)
#   tests     the driver's unit tests (GoogleTest: build/engbench-driver-tests, built in the driver's
#             cached build directory; tests/test_driver_conformance.py runs them): the test command's,
#             not the main job's
#   servers   MariaDB 10.11 with MyRocks, FerretDB v1.24.2 from its Go module (scripts/setup_servers.sh):
#             the server targets (mariadb-innodb, mariadb-myrocks, mongodb) and their tests
#   workflow  Slurm and munge (scripts/setup_workflow.sh): the workflow's cluster profile and its test
#   browser   Debian's chromium and chromium-driver: the paper's browser checks (tests)
#   tools     fio (engbench calibrate, engbench reproduce), sysbench and RocksDB's db_bench (the
#             reference tools of benchmarks/ and of the reference-client tests)
#   all       every part: what the test command needs
#
# `go.sh main` and `go.sh lab` set up core only (no GoogleTest, no test binary); `go.sh test` sets up all; an engbench command that
# needs a part it does not find runs this script for that part (engbench.setup.ensure).
# Cache: $ENGBENCH_CACHE (default ~/.cache/engbench). Driver and WiredTiger builds that no checkout
# uses any more are removed (the newest $ENGBENCH_KEEP_BUILDS, default 3, of each kind stay), and
# set-up says which.
# Prints nothing but progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ENGBENCH_CACHE:-$HOME/.cache/engbench}
KEEP_BUILDS=${ENGBENCH_KEEP_BUILDS:-3}
mkdir -p "$CACHE"
log() { echo "setup: $*" >&2; }
took() { echo "setup: $1 took $((SECONDS - $2)) s" >&2; }   # took WHAT START: how long a step took

parts=()
for a in "${@:-core}"; do
  case "$a" in
    core) ;;
    tests|servers|workflow|browser|tools) parts+=("$a") ;;
    all) parts+=(tests servers workflow browser tools) ;;
    *) echo "setup.sh: unknown part '$a' (core, tests, servers, workflow, browser, tools, all)" >&2; exit 2 ;;
  esac
done
want() { local p; for p in "${parts[@]:-}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

# Debian packages of the given names that are not installed yet, installed in one apt-get call
# (one `apt-get update` first, only when something is missing).
apt_need() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local t0=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  took "installing ${#missing[@]} Debian packages" "$t0"
}

# A cached build is in use while a checkout's build/ link points into it: each set-up records its
# checkout in the build's `.users`. A build that no recorded checkout links any more (the checkout
# moved on to another build, or is gone) is removed, except the newest $KEEP_BUILDS of its kind
# (by last use), which stay for a quick switch back.
use_build() {  # use_build DIR: this checkout uses DIR
  touch "$1/.last-used"
  grep -qxF "$here" "$1/.users" 2>/dev/null || echo "$here" >> "$1/.users"
}
in_use() {  # in_use DIR LINKNAME: some recorded checkout's build/LINKNAME resolves into DIR
  local u target
  [ -f "$1/.users" ] || return 1
  while IFS= read -r u; do
    target=$(readlink -f "$u/build/$2" 2>/dev/null) || continue
    case "$target" in "$1"|"$1"/*) return 0 ;; esac
  done < "$1/.users"
  return 1
}
prune_builds() {  # prune_builds WHAT GLOB LINKNAME
  local what=$1 glob=$2 link=$3 d stamp kept=0 removed=()
  mapfile -t dirs < <(for d in $CACHE/$glob; do
                        [ -f "$d/.complete" ] || continue   # a build in progress is never touched
                        stamp="$d/.last-used"; [ -e "$stamp" ] || stamp=$d
                        echo "$(stat -c %Y "$stamp") $d"
                      done | sort -rn | cut -d' ' -f2-)
  local hour_ago=$(( $(date +%s) - 3600 ))
  for d in "${dirs[@]}"; do
    if in_use "$d" "$link"; then continue; fi
    # used in the last hour: another set-up may be linking it right now (its .users not yet written)
    if [ "$(stat -c %Y "$d/.last-used" 2>/dev/null || stat -c %Y "$d")" -gt "$hour_ago" ]; then continue; fi
    if [ $kept -lt "$KEEP_BUILDS" ]; then kept=$((kept + 1)); continue; fi
    rm -rf "$d" && removed+=("$(basename "$d")")
  done
  [ ${#removed[@]} -eq 0 ] || log "removed ${#removed[@]} old $what build(s) that no checkout uses: ${removed[*]}"
}

# --- core: Debian packages the driver, WiredTiger and the captures need ---
apt_need ca-certificates build-essential cmake ninja-build pkg-config git python3 python3-venv python3-dev \
  libsnappy-dev libzstd-dev liblz4-dev zlib1g-dev librocksdb-dev libbson-dev liblmdb-dev libsqlite3-dev \
  nlohmann-json3-dev libyaml-cpp-dev libmariadb-dev libmongoc-dev sysstat procps util-linux \
  fonts-dejavu-core poppler-utils

# --- core: Python environment (before WiredTiger: its build uses pip download) ---
# Each checkout gets its own virtual environment in ./.venv with this checkout installed in editable
# mode, so two clones on one machine never run each other's code. What is shared between checkouts
# is uv's download cache ($CACHE/uv): a second checkout's environment is made from cached wheels in
# seconds, with no registry access. uv itself lives in a small tools environment ($CACHE/tools-*),
# which also holds the pip that downloads the WiredTiger sdist.
PY=/usr/bin/python3
UV_VERSION=0.13.9
tools="$CACHE/tools-$( (echo "uv==$UV_VERSION"; $PY --version) | sha256sum | cut -c1-12)"
if [ ! -f "$tools/.complete" ]; then
  log "creating the tools environment $tools (pip, uv $UV_VERSION)"
  rm -rf "$tools"
  $PY -m venv "$tools"
  "$tools/bin/pip" install --quiet --upgrade pip >&2
  "$tools/bin/pip" install --quiet "uv==$UV_VERSION" >&2
  touch "$tools/.complete"
fi
touch "$tools/.last-used"
export UV_CACHE_DIR="$CACHE/uv" UV_PYTHON_DOWNLOADS=never UV_NO_PROGRESS=1
venv="$here/.venv"
env_key=$( (cat "$here/requirements.txt" "$here/pyproject.toml"; $PY --version; echo "$here") | sha256sum | cut -c1-12)
if [ -L "$venv" ]; then rm -f "$venv"; fi   # the shared, symlinked environment of earlier versions
if [ "$(cat "$venv/.engbench-env" 2>/dev/null)" != "$env_key" ] \
   || ! "$venv/bin/python" -c "import engbench, sys; sys.exit(0 if engbench.__file__.startswith('$here/src/') else 1)" 2>/dev/null; then
  log "creating this checkout's Python environment in $venv"
  t0=$SECONDS
  rm -rf "$venv"
  "$tools/bin/uv" venv --quiet --python "$PY" "$venv" >&2
  "$tools/bin/uv" pip install --quiet --python "$venv/bin/python" -r "$here/requirements.txt" >&2
  "$tools/bin/uv" pip install --quiet --python "$venv/bin/python" --no-deps -e "$here" >&2
  echo "$env_key" > "$venv/.engbench-env"
  took "the Python environment" "$t0"
fi

# --- core: WiredTiger ---
t0=$SECONDS
wt_prefix=$(PATH="$tools/bin:$PATH" bash "$here/scripts/build_wiredtiger.sh" | tail -n 1)
[ $((SECONDS - t0)) -lt 2 ] || took "WiredTiger" "$t0"
use_build "$wt_prefix"

# --- core: the driver (its unit tests are the `tests` part's, below) ---
drv_key=$( (cd "$here/driver" && find . -type f \( -name '*.cc' -o -name '*.h' -o -name CMakeLists.txt \) -print0 \
            | sort -z | xargs -0 sha256sum; echo "$wt_prefix") | sha256sum | cut -c1-12)
drv="$CACHE/driver-$drv_key"
if [ ! -f "$drv/.complete" ]; then
  log "building the driver into $drv"
  t0=$SECONDS
  rm -rf "$drv"
  # configured without the tests (GoogleTest is not a core package); the tests part turns them on
  cmake -S "$here/driver" -B "$drv" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWT_PREFIX="$wt_prefix" -DEB_TESTS=OFF >&2
  ninja -C "$drv" engbench-driver >&2
  touch "$drv/.complete"
  took "the driver" "$t0"
fi
use_build "$drv"
mkdir -p "$here/build"
ln -sfn "$drv/engbench-driver" "$here/build/engbench-driver"
# a test binary of another build (older sources) is not this driver's: the tests part links it again
if [ -L "$here/build/engbench-driver-tests" ] \
   && [ "$(dirname "$(readlink "$here/build/engbench-driver-tests")")" != "$drv" ]; then
  rm -f "$here/build/engbench-driver-tests"
fi
ln -sfn "$wt_prefix" "$here/build/wiredtiger"
ln -sfn "$tools/bin/uv" "$here/build/uv"   # tests/test_environment.py makes the analysis environment with it
prune_builds driver 'driver-*' engbench-driver
prune_builds WiredTiger 'wiredtiger-*' wiredtiger

# --- the parts beyond the main job ---
# tests: the driver's unit tests, built in the driver's own cached build directory (the same ebcore)
if want tests; then
  apt_need libgtest-dev
  if [ ! -f "$drv/.tests-complete" ]; then
    log "building the driver's unit tests into $drv"
    t0=$SECONDS
    cmake -S "$here/driver" -B "$drv" -DEB_TESTS=ON >&2
    ninja -C "$drv" engbench-driver-tests >&2
    touch "$drv/.tests-complete"
    took "the driver's unit tests" "$t0"
  fi
  ln -sfn "$drv/engbench-driver-tests" "$here/build/engbench-driver-tests"
fi
if want tools; then apt_need fio sysbench rocksdb-tools; fi
if want browser; then apt_need chromium chromium-driver; fi
if want servers; then bash "$here/scripts/setup_servers.sh"; fi
if want workflow; then bash "$here/scripts/setup_workflow.sh"; fi
log "ready (${parts[*]:-core})"
