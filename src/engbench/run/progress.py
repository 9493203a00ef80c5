"""A progress bar fed by the driver's progress lines (docs/driver.md): operations/s and time left."""

from __future__ import annotations

import json

from tqdm import tqdm


class Progress:
    def __init__(self, enabled: bool = True, label: str = ""):
        self.enabled = enabled
        self.label = label
        self.bar = None
        self.last = None

    def __enter__(self):
        # disable=None: tqdm turns itself off when stderr is not a terminal (CI, captured output)
        if self.enabled:
            self.bar = tqdm(desc=self.label, unit="op", unit_scale=True, disable=None, dynamic_ncols=True)
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()

    def update_from_line(self, line: str) -> None:
        try:
            msg = json.loads(line)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") != "progress":
            return
        self.last = msg
        if self.bar is None:
            return
        total = msg.get("target_ops") or None
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.n = msg.get("ops", 0)
        post = {"ops/s": f"{msg.get('ops_per_s', 0):,.0f}"}
        if msg.get("target_s"):
            post["s left"] = f"{max(0, msg['target_s'] - msg.get('elapsed_s', 0)):.0f}"
        self.bar.set_postfix(post, refresh=False)
        self.bar.refresh()
