#!/usr/bin/env bash
# Real servers for engbench, installed idempotently (skipping what is already there):
#   1. Debian mariadb-server + mariadb-plugin-rocksdb (MariaDB 10.11 with InnoDB and MyRocks).
#      apt cannot start the system service on these machines; engbench starts private instances.
#   2. FerretDB v1.24.2 (MongoDB wire protocol over SQLite), built from its Go module into
#      ${ENGBENCH_CACHE:-$HOME/.cache/engbench}/ferretdb-1.24.2/ferretdb
#      (`go install ...@v1.24.2` fails here: the proxy refuses the version list; `go mod download`
#      of the exact version works. The build needs build/version/version.txt or it panics at start.)
# Prints nothing but progress on stderr. Needs root for apt, and `go` (PATH or /usr/local/go/bin).
set -euo pipefail
CACHE=${ENGBENCH_CACHE:-$HOME/.cache/engbench}
mkdir -p "$CACHE"
log() { echo "setup_servers: $*" >&2; }

# --- MariaDB ---
APT_PACKAGES=(mariadb-server mariadb-plugin-rocksdb)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
    || { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; }
  # The packaged service may have been started by the postinst on machines that allow it; engbench
  # never uses it. Leave it alone rather than guess how it is managed.
fi

# --- FerretDB ---
FERRET_VERSION=v1.24.2
fdir="$CACHE/ferretdb-${FERRET_VERSION#v}"
if [ -x "$fdir/ferretdb" ] && [ -f "$fdir/.complete" ]; then
  :
else
  GO=$(command -v go || true)
  [ -n "$GO" ] || { [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go; }
  if [ -z "$GO" ]; then
    log "go not found: cannot build FerretDB (install Go >= 1.21); the FerretDB tests will skip"
    exit 0
  fi
  log "building FerretDB $FERRET_VERSION into $fdir (about a minute and a half on a cold cache)"
  rm -rf "$fdir"
  mkdir -p "$fdir"
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local
  own_go_cache=
  if [ -z "${GOMODCACHE:-}" ] && [ -z "${GOCACHE:-}" ]; then own_go_cache=1; fi
  export GOPATH=${GOPATH:-$CACHE/go} GOMODCACHE=${GOMODCACHE:-$CACHE/go/pkg/mod} GOCACHE=${GOCACHE:-$CACHE/go/build-cache}
  moddir=$(cd "$fdir" && "$GO" mod download -json "github.com/FerretDB/FerretDB@$FERRET_VERSION" \
           | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  [ -d "$moddir" ] || { log "go mod download did not give a module directory"; exit 1; }
  src="$fdir/src"
  cp -r "$moddir" "$src"
  chmod -R u+w "$src"
  mkdir -p "$src/build/version"
  echo "$FERRET_VERSION" > "$src/build/version/version.txt"
  (cd "$src" && nice -n 10 "$GO" build -o "$fdir/ferretdb" ./cmd/ferretdb) >&2
  "$fdir/ferretdb" --version >/dev/null
  rm -rf "$src"
  touch "$fdir/.complete"
  if [ -n "$own_go_cache" ]; then  # ~1 GB of modules and build cache, only needed to rebuild
    "$GO" clean -cache -modcache >&2 || true
    rm -rf "$CACHE/go"
  fi
fi
log "ready (mariadbd: $(command -v mariadbd || echo missing), ferretdb: $fdir/ferretdb)"
