"""The linkbench workload (driver/src/workloads/linkbench/): its registry entry and what it writes
(read back on the server targets, engbench.run.readback)."""

from ...registry.spec import Workload, op_items
from ...registry.units import TRANSACTION


def written(params: dict, summary: dict) -> dict:
    """<prefix>node: the load's nodes + add_node − delete_node items; <prefix>link and <prefix>count:
    more than 0 (deletes hide links; counts follow them)."""
    load, totals = summary.get("load") or {}, summary.get("totals") or {}
    prefix = str(params.get("collection_prefix", "lb_"))
    nodes = load.get("nodes")
    return {f"{prefix}node": int(nodes) + op_items(totals, "add_node") - op_items(totals, "delete_node")
            if nodes is not None else None, f"{prefix}link": None, f"{prefix}count": None}


# the per-type ops repeat "request"; the per-transaction table of linkbench is its query table
# (its report.py), which adds the p99 of four operations to the per_txn columns
WORKLOAD = Workload("linkbench", TRANSACTION, "request", "request", ("op",), ("request",), ("rum",),
                    "LinkBench runs a social-graph mix of node and link reads and writes; one request is "
                    "one transaction, and the p99 columns are update_node (un), get_node (gn), update_link "
                    "(ul) and get_links_list (gll).",
                    "linkbench.ipynb",
                    cite=("linkbench", "source-000"),
                    written=written,
                    load_sums=("nodes", "links"),
                    reproduction=("linkbench", "000", "repro_linkbench_"), seconds_per_run=55,
                    # node; link, its pk and id1_type; count and its id_type (linkbench/store_kv.cc)
                    column_families=lambda p: 6)
