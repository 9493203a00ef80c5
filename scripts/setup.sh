#!/usr/bin/env bash
# Everything engbench needs on a fresh Debian 12 machine, installed idempotently and cached:
#   1. Debian packages (only the missing ones; one `apt-get update` when something is missing)
#   2. WiredTiger 11.3.1 Release static library + wtperf (scripts/build_wiredtiger.sh, cached)
#   3. the compiled driver (cached by a hash of its sources and the WiredTiger build)
#   4. servers for the server targets and their tests: Debian MariaDB with MyRocks, FerretDB
#      v1.24.2 built from its Go module (scripts/setup_servers.sh, cached)
#   5. a Python virtual environment with the pinned requirements (cached by a hash of requirements.txt),
#      linked at ./.venv, with engbench installed in editable mode
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
  sysstat procps util-linux)
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
PY=/usr/bin/python3
req_key=$( (cat "$here/requirements.txt"; $PY --version) | sha256sum | cut -c1-12)
venv="$CACHE/venv-$req_key"
if [ ! -f "$venv/.complete" ]; then
  log "creating Python environment $venv"
  rm -rf "$venv"
  $PY -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip setuptools wheel >&2
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt" >&2
  touch "$venv/.complete"
fi
ln -sfn "$venv" "$here/.venv"
# editable install of this checkout (fast; re-pointed for each clone that uses the shared venv)
if ! "$venv/bin/python" -c "import engbench, sys; sys.exit(0 if engbench.__file__.startswith('$here/') else 1)" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --no-deps --no-build-isolation -e "$here" >&2
fi

# --- WiredTiger ---
wt_prefix=$(PATH="$venv/bin:$PATH" bash "$here/scripts/build_wiredtiger.sh" | tail -n 1)

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

mkdir -p "$here/build"
ln -sfn "$drv/engbench-driver" "$here/build/engbench-driver"
ln -sfn "$drv/engbench-driver-tests" "$here/build/engbench-driver-tests"
ln -sfn "$wt_prefix" "$here/build/wiredtiger"
log "ready"
