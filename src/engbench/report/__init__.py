"""From processed tables to the write-up: tables in the source documents' shapes (tables),
charts (charts, theme), the paper (paper, methods) and the notebook helpers (notebook).
Entry point: engbench.report.paper.build, behind `engbench report`."""
