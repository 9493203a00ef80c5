"""The linkbench workload (driver/src/workloads/linkbench/): its registry entry."""

from ...normalize.units import TRANSACTION
from ..spec import Workload

# the per-type ops repeat "request"; the per-transaction table of linkbench is its query table
# (report.workload_tables), which adds the p99 of four operations to the per_txn columns
WORKLOAD = Workload("linkbench", TRANSACTION, "request", "request", ("op",), ("request",), ("rum",),
                    "LinkBench runs a social-graph mix of node and link reads and writes; one request is "
                    "one transaction, and the p99 columns are update_node (un), get_node (gn), update_link "
                    "(ul) and get_links_list (gll).",
                    "linkbench.ipynb",
                    cite=("linkbench", "source-000"))
