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
                    # seconds: the quiet reproduction's runs of the 2 GiB sizing took 34-55 s (~40);
                    # the experiment files are now twice that size (4 GiB cache): ~80 s a run
                    reproduction=("cache-pollution", "004", "repro_cache_pollution_"), seconds_per_run=80)
