"""Sealed run directories are read-only (engbench seals them): what a test needs to remove its own."""

import os


def unlock(root) -> None:
    """Make every directory under ``root`` writable again, so that pytest can remove tmp trees."""
    for dirpath, dirs, _ in os.walk(root):
        for d in dirs:
            os.chmod(os.path.join(dirpath, d), 0o755)
