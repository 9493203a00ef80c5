"""The cache-pollution workload (driver/src/workloads/cache_pollution/): its registry entry."""

from ...registry.spec import Workload
from ...registry.units import REQUEST

WORKLOAD = Workload("cache-pollution", REQUEST, "get", "hot read", ("op",), None, ("per_request", "rum"),
                    "Cache pollution: a hot collection is read at random while a cold collection is passed "
                    "once (a scan or an index build); read_once asks the engine not to keep the cold pages. "
                    "The hot reads per second before, during and after the cold pass, the engine's cache "
                    "statistics and the time of a full hot scan afterwards show how much of the hot set "
                    "the cold pass pushed out.",
                    "cache_pollution.ipynb",
                    cite=("source-004",),
                    # seconds: the quiet reproduction's runs of the 2 GiB sizing took 34-55 s (~40), of
                    # 4 GiB ~80 s; the files are now 6 GiB with paced readers: 72-114 s a run on a busy
                    # machine (2026-11-29), ~100 s
                    reproduction=("cache-pollution", "004", "repro_cache_pollution_"), seconds_per_run=100)
