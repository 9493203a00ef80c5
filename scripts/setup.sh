#!/usr/bin/env bash
# Everything engbench needs on a fresh Debian 12 machine, installed idempotently and cached:
#   1. Debian packages (only the missing ones; one `apt-get update` when something is missing)
#   2. WiredTiger 11.3.1 Release static library + wtperf (scripts/build_wiredtiger.sh, cached)
#   3. the compiled driver (cached by a hash of its sources and the WiredTiger build)
#   4. servers for the server targets and their tests: Debian MariaDB with MyRocks, FerretDB
#      v1.24.2 built from its Go module (scripts/setup_servers.sh, cached)
#   5. this checkout's own Python environment in ./.venv (pinned requirements.txt, engbench installed
#      in editable mode from this checkout), made by uv from a download cache shared by all checkouts
# Cache: $ENGBENCH_CACHE (default ~/.cache/engbench). Prints nothing but progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ENGBENCH_CACHE:-$HOME/.cache/engbench}
mkdir -p "$CACHE"
log() { echo "setup: $*" >&2; }

APT_PACKAGES=(build-essential cmake ninja-build pkg-config git python3 python3-venv python3-dev
  swig libsnappy-dev libzstd-dev liblz4-dev zlib1g-dev
  librocksdb-dev rocksdb-tools libbson-dev liblmdb-dev libsqlite3-dev
  nlohmann-json3-dev libyaml-cpp-dev libgtest-dev libmariadb-dev libmongoc-dev sysbench
  sysstat procps util-linux chromium chromium-driver fio fonts-dejavu-core poppler-utils)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# --- Python environment (before WiredTiger: its build uses pip download) ---
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
export UV_CACHE_DIR="$CACHE/uv" UV_PYTHON_DOWNLOADS=never UV_NO_PROGRESS=1
venv="$here/.venv"
env_key=$( (cat "$here/requirements.txt" "$here/pyproject.toml"; $PY --version; echo "$here") | sha256sum | cut -c1-12)
if [ -L "$venv" ]; then rm -f "$venv"; fi   # the shared, symlinked environment of earlier versions
if [ "$(cat "$venv/.engbench-env" 2>/dev/null)" != "$env_key" ] \
   || ! "$venv/bin/python" -c "import engbench, sys; sys.exit(0 if engbench.__file__.startswith('$here/src/') else 1)" 2>/dev/null; then
  log "creating this checkout's Python environment in $venv"
  rm -rf "$venv"
  "$tools/bin/uv" venv --quiet --python "$PY" "$venv" >&2
  "$tools/bin/uv" pip install --quiet --python "$venv/bin/python" -r "$here/requirements.txt" >&2
  "$tools/bin/uv" pip install --quiet --python "$venv/bin/python" --no-deps -e "$here" >&2
  echo "$env_key" > "$venv/.engbench-env"
fi

# --- WiredTiger ---
wt_prefix=$(PATH="$tools/bin:$PATH" bash "$here/scripts/build_wiredtiger.sh" | tail -n 1)

# --- driver ---
drv_key=$( (cd "$here/driver" && find . -type f \( -name '*.cc' -o -name '*.h' -o -name CMakeLists.txt \) -print0 \
            | sort -z | xargs -0 sha256sum; echo "$wt_prefix") | sha256sum | cut -c1-12)
drv="$CACHE/driver-$drv_key"
if [ ! -f "$drv/.complete" ]; then
  log "building the driver into $drv"
  rm -rf "$drv"
  cmake -S "$here/driver" -B "$drv" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWT_PREFIX="$wt_prefix" >&2
  ninja -C "$drv" >&2
  touch "$drv/.complete"
fi
# --- servers: private MariaDB (InnoDB, MyRocks) and FerretDB for the MongoDB client path ---
bash "$here/scripts/setup_servers.sh"

bash "$here/scripts/setup_workflow.sh"  # Slurm, munge: the workflow's cluster profile and its test
mkdir -p "$here/build"
ln -sfn "$drv/engbench-driver" "$here/build/engbench-driver"
ln -sfn "$drv/engbench-driver-tests" "$here/build/engbench-driver-tests"
ln -sfn "$wt_prefix" "$here/build/wiredtiger"
log "ready"
