"""The ycsb workload (driver/src/workloads/ycsb/): its registry entry."""

from ...normalize.units import REQUEST
from ..spec import Workload

# read, update, insert, scan, read_modify_write repeat "request" (one per YCSB operation)
WORKLOAD = Workload("ycsb", REQUEST, "request", "operation", ("op",), ("request",), ("per_request", "rum"),
                    "YCSB's core workloads A–F load usertable (records of ten 100-byte fields under hashed "
                    "keys), then run a mix of point reads, updates, inserts, short range scans and "
                    "read-modify-writes over zipfian, latest or uniform keys. Read amplification is device "
                    "KB read per logical KB the reads and scans returned; reads per point read is device "
                    "reads per YCSB read.",
                    "ycsb.ipynb", point_read_op="read",
                    cite=("ycsb",))
