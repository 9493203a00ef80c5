"""iostat -o JSON → the same frame as the text layouts (keys as the text headers, `%` dropped)."""

import json

import numpy as np
import pandas as pd

from ._iostat_layout import finish, header, layout_of
from .errors import ParseError
from .timefmt import parse_stamps


def parse_json(text, source, since_boot_included, device, tz, dayfirst):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(source, f"truncated or invalid iostat JSON: {exc.msg}", exc.lineno) from exc
    try:
        stats = doc["sysstat"]["hosts"][0]["statistics"]
    except (KeyError, IndexError, TypeError) as exc:
        raise ParseError(source, "JSON without sysstat.hosts[0].statistics: not iostat -o JSON") from exc
    records, reps, stamps = [], [], []
    keys = None
    for r, rep in enumerate(stats):
        for d in rep.get("disk", []):
            k = [x for x in d if x != "disk_device"]
            if keys is None:
                keys = k
            elif k != keys:
                raise ParseError(source, f"the iostat layout changes at report {r}")
            records.append([d["disk_device"]] + [d[x] for x in k])
            reps.append(r)
            stamps.append(rep.get("timestamp"))
    if keys is None:
        raise ParseError(source, "no disk statistics in the JSON (iostat -c output?)")
    names, factors = header(keys, source, None)
    frame = pd.DataFrame(records, columns=["device"] + names)
    for name in names:
        frame[name] = pd.to_numeric(frame[name], errors="raise").astype(float)
    if all(s is not None for s in stamps):
        st = parse_stamps(stamps, [None] * len(stamps), source, tz=tz, dayfirst=dayfirst).to_numpy()
    else:
        st = np.full(len(records), np.datetime64("NaT"), dtype="datetime64[ns]")
        st = pd.Series(st).dt.tz_localize("UTC").to_numpy()
    return finish(frame, names, factors, st, np.asarray(reps, dtype=np.int64), source,
                   since_boot_included, device, layout_of(names))
