"""Run parameters from the places a researcher writes them: a YAML file per experiment and
`--set key=value` overrides. Values stay as written (strings from the command line, YAML scalars
from files); the driver types and validates them (docs/driver.md), so there is one set of rules.

An experiment file (notebooks/params/*.yaml) holds the same names as the notebooks' parameters
cells:

    workload: iibench          # optional
    engines: [wiredtiger, rocksdb]   # for notebooks and the main job; `engine:` for a single run
    seed: 1
    params: {max_rows: 100000, loader_threads: 1}
    knobs: {wiredtiger.cache_size: 1GB, rocksdb.block_cache_size: 1GB}

Knobs are namespaced by engine; a multi-engine experiment keeps each engine's own knobs and
leaves the others' out of that engine's run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .. import registry
from . import driver
from .errors import ParamError
from .limits import driver_config, driver_knobs  # run.* limits are engbench's (limits.py)

FILE_KEYS = {"workload", "engine", "engines", "seed", "repeat", "params", "knobs", "description"}


@dataclass
class RunRequest:
    workload: str
    engine: str
    params: dict = field(default_factory=dict)
    knobs: dict = field(default_factory=dict)
    seed: int = 1
    target: dict = field(default_factory=dict)  # server targets: connection details (docs/driver.md)

    def config(self, data_dir: Path, output_dir: Path) -> dict:
        cfg = {"workload": self.workload, "engine": self.engine, "knobs": driver_knobs(self.knobs),
               "params": self.params, "seed": self.seed,
               "data_dir": str(data_dir), "output_dir": str(output_dir), **driver_config(self.knobs)}
        if self.target:
            cfg["target"] = dict(self.target)
        return cfg


def load_file(path: Path) -> dict:
    try:
        data = yaml.safe_load(Path(path).read_text())
    except FileNotFoundError:
        raise ParamError(f"params file {path} does not exist: give an experiment YAML "
                         f"(notebooks/params/*.yaml)") from None
    except OSError as exc:
        raise ParamError(f"params file {path} cannot be read ({exc.strerror}): give a readable YAML file") from None
    except yaml.YAMLError as exc:
        raise ParamError(f"params file {path} is not valid YAML ({exc}): fix it") from None
    if data is None:  # an empty file, or only comments: would silently run every default
        raise ParamError(f"params file {path} is empty: write its params and knobs (keys {sorted(FILE_KEYS)}), "
                         f"or leave --params out")
    if not isinstance(data, dict):
        raise ParamError(f"{path}: expected a mapping with keys {sorted(FILE_KEYS)}")
    unknown = set(data) - FILE_KEYS
    if unknown:
        raise ParamError(f"{path}: unknown keys {sorted(unknown)}; valid: {sorted(FILE_KEYS)}")
    for key in ("params", "knobs"):
        if not isinstance(data.get(key, {}), dict):
            raise ParamError(f"{path}: `{key}` must be a mapping")
    return data


def parse_sets(items: list[str]) -> tuple[dict, dict, int | None]:
    """`--set k=v` → (params, knobs, seed). A dotted key (`wiredtiger.cache_size`) is a knob,
    `seed` is the seed, anything else a workload parameter."""
    params, knobs, seed = {}, {}, None
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ParamError(f"--set expects key=value, got {item!r}")
        if key == "seed":
            try:
                seed = int(value)
            except ValueError:
                raise ParamError(f"seed must be an integer, got {value!r}") from None
        elif "." in key:
            knobs[key] = value
        else:
            params[key] = value
    return params, knobs, seed


def knobs_for(engine: str, knobs: dict) -> dict:
    """The knobs of an experiment that apply to `engine`; knobs of other known engines are left
    out, a namespace that belongs to no engine is kept (so the driver refuses it). Which namespace
    is whose comes from the driver's `describe`."""
    owners = driver.knob_namespaces()
    namespaces, mine = set(owners.values()), owners.get(engine)
    out = {}
    for key, value in knobs.items():
        ns = key.split(".", 1)[0]
        if ns == mine or ns not in namespaces:
            out[key] = value
    return out


def resolve(workload: str, engine: str | None, sets: list[str] = (), params_file: Path | None = None,
            seed: int | None = None) -> RunRequest:
    data = load_file(params_file) if params_file else {}
    if data.get("workload") not in (None, workload):
        raise ParamError(f"{params_file} is for workload {data['workload']!r}, not {workload!r}")
    engine = engine or data.get("engine")
    if not engine:
        targets = [t["name"] for t in driver.describe().get("targets", [])]
        raise ParamError(f"no engine given (--engine); valid: {', '.join(driver.engine_names() + targets)}")
    set_params, set_knobs, set_seed = parse_sets(list(sets))
    params = {**data.get("params", {}), **set_params}
    # An experiment file may hold several engines' knobs; a --set knob is meant for this run, so one
    # of another engine's namespace goes to the driver, which refuses it with the valid choices.
    knobs = {**knobs_for(engine, data.get("knobs", {})), **set_knobs}
    refuse_old_names(workload, params)
    final_seed = seed if seed is not None else set_seed if set_seed is not None else data.get("seed", 1)
    return RunRequest(workload=workload, engine=engine, params=params, knobs=knobs, seed=int(final_seed))


def refuse_old_names(workload: str, params: dict) -> None:
    """ParamError naming each parameter or choice of `params` by its new name, where the workload
    renamed it (Workload.renamed): before the driver, which would only say the old name is unknown.
    `engbench run` (resolve) and the notebooks' path (experiments.run) both say it so."""
    renamed = registry.renamed_in(registry.get(workload), params)
    if renamed:
        raise ParamError(f"{'; '.join(renamed)} (engbench engines --workload-params {workload})")


def description(params_file: Path | None) -> str | None:
    """The experiment's name: its file's `description`, else the file's stem."""
    if not params_file:
        return None
    return load_file(params_file).get("description") or Path(params_file).stem
