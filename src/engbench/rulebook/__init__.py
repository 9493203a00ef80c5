"""The rulebook a finding is judged by, and nothing that names one: what a finding is (finding:
Finding, Pick, the source documents), what it measures (measure: one value per run from the
processed tables), the regime its runs must be in (regime: Gate, QUIET) and the verdict rules
(rules). Each workload folder's findings.py (workloads/<name>/findings.py) states its claims with
these; engbench.findings collects them through engbench.registry and judges
them (the findings table, the rules' history, the inventory).

This package imports nothing at load: it stands low in the package (pyproject.toml's layers),
below the workload folders that use it and the findings that collect them."""
