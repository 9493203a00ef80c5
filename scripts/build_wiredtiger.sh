#!/usr/bin/env bash
# Build WiredTiger 11.3.1 as a static Release library (with snappy, zlib, zstd and lz4 compiled in)
# plus its wtperf benchmark, from the PyPI sdist. Idempotent: the result lives in a cache directory
# keyed by version and build flags, and a finished build is reused (marker file `.complete`).
#
# Usage: scripts/build_wiredtiger.sh            prints the install prefix on its last line
# Env:   ENGBENCH_CACHE (default ~/.cache/engbench)
set -euo pipefail
WT_VERSION=11.3.1
CACHE=${ENGBENCH_CACHE:-$HOME/.cache/engbench}
# Flags that change the library: part of the cache key, so changing them rebuilds.
CMAKE_FLAGS=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DENABLE_STATIC=1 -DENABLE_SHARED=0 -DWITH_PIC=1
  -DENABLE_PYTHON=0 -DENABLE_STRICT=0
  -DHAVE_BUILTIN_EXTENSION_SNAPPY=1 -DHAVE_BUILTIN_EXTENSION_ZLIB=1
  -DHAVE_BUILTIN_EXTENSION_ZSTD=1 -DHAVE_BUILTIN_EXTENSION_LZ4=1
  -DENABLE_SNAPPY=0 -DENABLE_ZLIB=0 -DENABLE_ZSTD=0 -DENABLE_LZ4=0)
key=$(printf '%s\n' "$WT_VERSION" "${CMAKE_FLAGS[@]}" | sha256sum | cut -c1-12)
prefix="$CACHE/wiredtiger-$WT_VERSION-$key"
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"; exit 0
fi
rm -rf "$prefix"; mkdir -p "$prefix"
work=$(mktemp -d "$CACHE/wt-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 -m pip download --quiet --no-deps --no-binary :all: "wiredtiger==$WT_VERSION" -d . >&2
tar xzf "wiredtiger-$WT_VERSION.tar.gz"
src="$work/wiredtiger-$WT_VERSION"
cmake -S "$src" -B build "${CMAKE_FLAGS[@]}" >&2
ninja -C build wiredtiger_static wtperf >&2
mkdir -p "$prefix/lib" "$prefix/include" "$prefix/bin"
cp build/libwiredtiger.a "$prefix/lib/"
cp build/include/*.h "$prefix/include/" 2>/dev/null || true
cp "$src"/src/include/wiredtiger_ext.h "$prefix/include/" 2>/dev/null || true
cp "$(find build -name wtperf -type f -perm -u+x | head -1)" "$prefix/bin/wtperf"
echo "$WT_VERSION" > "$prefix/VERSION"
printf '%s\n' "${CMAKE_FLAGS[@]}" > "$prefix/CMAKE_FLAGS"
touch "$prefix/.complete"
echo "$prefix"
