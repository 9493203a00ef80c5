"""The sysbench-update workload (driver/src/workloads/sysbench_update/): its registry entry."""

from ...normalize.units import TRANSACTION
from ..spec import Workload

# update.c<N> repeat the updates of "update" per step
WORKLOAD = Workload("sysbench-update", TRANSACTION, "update", "update", ("op",), ("update",), ("per_txn", "rum"),
                    "sysbench update_non_index/update_index updates rows picked at random by primary key, "
                    "at a rising number of clients (one step per client count); disk reads per update is "
                    "iostat r/s over a step's window divided by its updates per second.",
                    "sysbench_update.ipynb",
                    cite=("sysbench", "source-001"))
