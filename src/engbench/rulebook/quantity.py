"""What a regime gate measures (regime.py): a Quantity, one value per run (per step for per-step
quantities) from the processed tables. The shared ones are regime.SHARED; a workload's own are
its folder's regime.py (workloads/<name>/regime.py, read through engbench.registry.quantities;
engbench.workloads.middle lists it), which imports this module and nothing else of the rulebook."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Quantity:
    name: str
    unit: str
    doc: str                    # the counter and the denominator, in words
    fn: Callable                # (tables, run row) -> list of floats (NaN: not measured)
    engines: tuple | None = None   # the engines whose design has the quantity (None: every engine), e.g.
                                   # an engine's own cache: LMDB leaves caching to the OS. A gate on it
                                   # judges every one of these engines (regime.gates_for); an engine of
                                   # them that does not report it is "not measured", never exempt
