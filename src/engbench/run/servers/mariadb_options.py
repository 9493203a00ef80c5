"""MariaDB server options: which binaries are there, and how a run's settings (cache size, flush
policy, compression) become `mariadbd` command-line options for InnoDB or MyRocks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..units import parse_size
from ._proc import ServerError


ENGINES = ("innodb", "myrocks")
ENV_PASSWORD = "ENGBENCH_MYSQL_PASSWORD"
SETTINGS_KEYS = ("cache_size", "innodb_buffer_pool_size", "rocksdb_block_cache_size",
                 "flush_log_at_trx_commit", "compression", "options")
COMPRESSIONS = ("none", "zlib", "lz4", "snappy", "zstd")
_ROCKSDB_COMPRESSION = {"none": "kNoCompression", "zlib": "kZlibCompression", "lz4": "kLZ4Compression",
                        "snappy": "kSnappyCompression", "zstd": "kZSTD"}
PLUGIN_DIR = Path("/usr/lib/mysql/plugin")
SOCKET_MAX = 100  # sun_path is 108 bytes


def find_binary(name: str) -> str:
    path = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}")
                                       if os.access(p, os.X_OK)), None)
    if not path:
        raise ServerError(f"{name} not found: install the Debian packages mariadb-server "
                          "mariadb-plugin-rocksdb (scripts/setup_servers.sh)")
    return path


def unavailable_reason() -> str | None:
    """None if a private MariaDB can be started here, else the reason why not."""
    try:
        find_binary("mariadbd")
        find_binary("mariadb-install-db")
    except ServerError as e:
        return str(e)
    return None


def _normalize_settings(settings: dict | None) -> dict:
    out = {}
    for key, value in (settings or {}).items():
        short = key.split(".", 1)[1] if key.split(".", 1)[0] in ("mariadb", "innodb", "myrocks") and "." in key else key
        if short not in SETTINGS_KEYS:
            raise ValueError(f"unknown MariaDB setting {key!r}; known: {', '.join(SETTINGS_KEYS)}")
        out[short] = value
    return out


def server_options(engine: str, settings: dict | None = None, plugin_dir: Path = PLUGIN_DIR) -> list[str]:
    """The mariadbd options (after --no-defaults and the paths) for an engine and run settings."""
    if engine not in ENGINES:
        raise ValueError(f"unknown MariaDB engine {engine!r}; known: {', '.join(ENGINES)}")
    s = _normalize_settings(settings)
    opts = ["--skip-name-resolve", "--skip-log-bin", "--sync-binlog=0"]
    if engine == "myrocks":
        opts += ["--plugin-load-add=ha_rocksdb", "--default-storage-engine=ROCKSDB"]
    else:
        opts += ["--default-storage-engine=InnoDB"]
    if "cache_size" in s:
        name = "rocksdb-block-cache-size" if engine == "myrocks" else "innodb-buffer-pool-size"
        opts.append(f"--{name}={parse_size(s['cache_size'])}")
    if "innodb_buffer_pool_size" in s:
        opts.append(f"--innodb-buffer-pool-size={parse_size(s['innodb_buffer_pool_size'])}")
    if "rocksdb_block_cache_size" in s:
        if engine != "myrocks":
            raise ValueError("rocksdb_block_cache_size needs engine='myrocks'")
        opts.append(f"--rocksdb-block-cache-size={parse_size(s['rocksdb_block_cache_size'])}")
    if "flush_log_at_trx_commit" in s:
        v = int(s["flush_log_at_trx_commit"])
        if v not in (0, 1, 2):
            raise ValueError(f"flush_log_at_trx_commit must be 0, 1 or 2, not {v}")
        opts.append(f"--innodb-flush-log-at-trx-commit={v}")
        if engine == "myrocks":
            opts.append(f"--rocksdb-flush-log-at-trx-commit={v}")
    comp = str(s.get("compression", "") or "").lower()
    if comp:
        if comp not in COMPRESSIONS:
            raise ValueError(f"compression must be one of {', '.join(COMPRESSIONS)}, not {comp!r}")
        if engine == "myrocks":
            opts.append(f"--rocksdb-default-cf-options=compression={_ROCKSDB_COMPRESSION[comp]}")
        elif comp == "none":
            opts.append("--innodb-compression-default=OFF")
        else:
            if comp != "zlib":
                provider = f"provider_{comp}"
                if not (Path(plugin_dir) / f"{provider}.so").exists():
                    raise ValueError(f"InnoDB {comp} page compression needs the Debian package "
                                     f"mariadb-plugin-provider-{comp} ({provider}.so not in {plugin_dir}); "
                                     "zlib is built in")
                opts.append(f"--plugin-load-add={provider}")
            opts += ["--innodb-compression-default=ON", f"--innodb-compression-algorithm={comp}"]
    for name, value in (s.get("options") or {}).items():
        name = str(name).lstrip("-")
        opts.append(f"--{name}" if value is None else f"--{name}={value}")
    return opts
