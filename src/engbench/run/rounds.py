"""The order of repeated runs, shared by `experiments.run` and the workflow (engbench.matrix)."""


def interleave(items: list, repeat: int) -> list[tuple[int, object]]:
    """(repetition, item) in run order: round after round, each round runs every item once, so
    slow drift of a shared machine spreads over all items rather than landing on one."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    return [(rep, item) for rep in range(1, repeat + 1) for item in items]
