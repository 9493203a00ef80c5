"""The checklists of docs/adding-a-workload.md and docs/adding-an-engine.md, kept honest: for every
workload, engine and target the compiled driver registers (its `describe`), the folder, stores,
registry entries, notebook, parameter files and paper section the docs promise are there."""

import importlib
import re

import pytest
import yaml

from engbench import paths, workloads
from engbench import registry as engbench_registry
from engbench.report import comparison_tables as tables, data, theme
from engbench.run import driver, limits

DRIVER = paths.REPO / "driver" / "src"
DESCRIBE = driver.describe()
WORKLOADS = [w["name"] for w in DESCRIBE["workloads"]]
ENGINES = [e["name"] for e in DESCRIBE["engines"]]
TARGETS = DESCRIBE["targets"]


def folder(workload: str):
    return DRIVER / "workloads" / workload.replace("-", "_")


def backends_of(workload: str) -> set[str]:
    """The server backends whose targets list the workload (describe: targets[].workloads)."""
    return {t["knob_namespace"] for t in TARGETS if workload in t["workloads"]}


def test_the_docs_exist_and_name_the_files_this_test_checks():
    wl = (paths.REPO / "docs" / "adding-a-workload.md").read_text()
    en = (paths.REPO / "docs" / "adding-an-engine.md").read_text()
    for needle in ("driver/src/workloads/<name>/workload.cc", "store_kv.cc", "store_mariadb.cc",
                   "store_mongodb.cc", "driver/src/workloads/registry.cc", "src/engbench/workloads/<name>/",
                   "src/engbench/workloads/__init__.py", "FOLDERS",
                   "notebooks/<name>.py", "notebooks/params/<name>_tiny.yaml",
                   "tests/test_layout.py", "src/engbench/run/readback.py", "Workload.written",
                   "src/engbench/workloads/<name>/report.py", "src/engbench/workloads/upper.py", "REPORTS",
                   "src/engbench/workloads/<name>/findings.py", "FINDINGS", "src/engbench/rulebook/",
                   "reproduction=(name, number, prefix)", "seconds_per_run",
                   "src/engbench/workloads/<name>/normalize.py", "src/engbench/workloads/middle.py", "NORMALIZE"):
        assert needle in wl, needle
    for needle in ("driver/src/engines/<name>.cc", "driver/src/engines/registry.cc", "ENGINE_CACHES",
                   "FAMILY", "COLORS", "ENGINE_ORDER", "driver/src/targets/<backend>/"):
        assert needle in en, needle


def test_the_driver_registers_what_the_python_registry_knows():
    assert WORKLOADS and ENGINES and TARGETS
    assert set(WORKLOADS) == set(workloads.WORKLOADS), "one Workload entry per driver workload"
    assert sorted(engbench_registry.order()) == sorted(WORKLOADS), "every workload has its place in the paper's order"
    py = paths.REPO / "src" / "engbench" / "workloads"
    folders = {p.name for p in py.iterdir() if (p / "__init__.py").is_file()}
    assert folders == {f.__name__.rsplit(".", 1)[1] for f in workloads.FOLDERS}, "no folder outside the registry"


@pytest.mark.parametrize("name", WORKLOADS)
def test_every_workload_has_its_python_folder_listed_by_the_registry(name):
    d = paths.REPO / "src" / "engbench" / "workloads" / name.replace("-", "_")
    assert (d / "__init__.py").is_file(), f"{d}/__init__.py, the mirror of {folder(name)}"
    listed = [f for f in workloads.FOLDERS if f.WORKLOAD.name == name]
    assert len(listed) == 1, f"engbench.workloads.FOLDERS lists {name}'s folder once"
    assert listed[0].__name__ == f"engbench.workloads.{name.replace('-', '_')}", listed[0].__name__
    assert workloads.WORKLOADS[name] is listed[0].WORKLOAD


# a folder's own module (workloads/<name>/<stem>.py) → the list that names its folder (module of
# engbench.workloads, list); engbench.registry loads it by name under the kind <stem>
FOLDER_MODULES = {
    "report": ("upper", "REPORTS"),
    "findings": ("upper", "FINDINGS"),
    "normalize": ("middle", "NORMALIZE"),
    "regime": ("middle", "REGIME"),
}


@pytest.mark.parametrize("stem", sorted(FOLDER_MODULES))
@pytest.mark.parametrize("name", WORKLOADS)
def test_a_folders_module_is_listed_once_and_found_by_the_registry(name, stem):
    where, listing = FOLDER_MODULES[stem]
    lists = importlib.import_module(f"engbench.workloads.{where}")
    folder = f"engbench.workloads.{name.replace('-', '_')}"
    has = (paths.REPO / "src" / "engbench" / "workloads" / name.replace("-", "_") / f"{stem}.py").is_file()
    listed = [f for f in getattr(lists, listing) if f.__name__ == folder]
    assert len(listed) == (1 if has else 0), f"{where}.{listing} lists {folder} once if it has {stem}.py, else not"
    own = engbench_registry.module(stem, name)
    assert (own.__name__ if own else None) == (f"{folder}.{stem}" if has else None), \
        "the registry loads the folder's own module by its entry's name"


@pytest.mark.parametrize("name", WORKLOADS)
def test_every_workload_has_its_folder_stores_and_registry_line(name):
    d = folder(name)
    assert (d / "workload.cc").is_file(), f"{d}/workload.cc"
    info = f"{name.replace('-', '_')}_info"
    assert re.search(rf"WorkloadInfo {info}\(\)\s*\{{", "".join(p.read_text() for p in d.glob("*.cc"))), \
        f"{info}() is defined in {d}"
    reg = (DRIVER / "workloads" / "registry.cc").read_text()
    assert reg.count(f"{info}()") == 2, f"registry.cc declares and lists {info}()"
    stray = [p.name for p in (DRIVER / "workloads").glob("*.cc") if p.name != "registry.cc"]
    assert not stray, f"workload code outside a workload's folder: {stray}"
    servers = backends_of(name)
    if servers:
        store_h = (d / "store.h").read_text()
        assert "StoreFactories<" in store_h
        assert (d / "store_kv.cc").is_file()
        for backend in servers:
            assert (d / f"store_{backend}.cc").is_file(), f"{name} runs on {backend} targets: store_{backend}.cc"
            assert f'"{backend}"' in store_h, f"{d}/store.h lists the {backend} store"
    # a store file is for a backend some target has (no orphan store of a backend the targets lost)
    for p in d.glob("store_*.cc"):
        backend = p.stem.removeprefix("store_")
        assert backend == "kv" or backend in servers, p


@pytest.mark.parametrize("name", WORKLOADS)
def test_every_workload_has_its_notebook_params_pin_and_paper_section(name):
    w = workloads.WORKLOADS[name]
    # the paper section: its introduction and table kinds the report knows
    assert len(w.intro) > 40, "the paper's section introduction"
    assert w.tables and all(k in tables.KINDS for k in w.tables), w.tables
    # the notebook, a jupytext pair, output-free, that runs this workload (tests/test_notebooks.py
    # checks its rules, nbval runs it)
    nb = paths.REPO / "notebooks" / w.notebook if w.notebook else None
    assert nb and nb.is_file() and nb.with_suffix(".py").is_file(), f"{w.notebook} and its paired .py"
    assert f'experiments.run("{name}"' in nb.with_suffix(".py").read_text(), f"{w.notebook} runs {name}"
    # parameter files: a tiny one, and each names this workload
    stem = name.replace("-", "_")
    files = sorted((paths.REPO / "notebooks" / "params").glob(f"{stem}_*.yaml"))
    assert (paths.REPO / "notebooks" / "params" / f"{stem}_tiny.yaml") in files
    for f in files:
        assert yaml.safe_load(f.read_text())["workload"] == name, f
    # an op-stream pin in the driver's tests
    pins = (paths.REPO / "driver" / "tests" / "test_stream_pins.cc").read_text()
    assert f'{{"{name}", R"' in pins or f'pinned_run("{name}"' in pins, f"a stream pin of {name}"
    # the README's workload table
    assert f"| `{name}` |" in (paths.REPO / "README.md").read_text()


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_has_its_file_registry_line_caches_and_look(name):
    base = name.split("-", 1)[0]
    src = DRIVER / "engines" / f"{base}.cc"
    fn = f"{name.replace('-', '_')}_engine_info"
    assert src.is_file() and re.search(rf"EngineInfo {fn}\(\)\s*\{{", src.read_text()), f"{fn}() in {src}"
    assert (DRIVER / "engines" / "registry.cc").read_text().count(f"{fn}()") == 2
    assert name in limits.ENGINE_CACHES, f"run/limits.py ENGINE_CACHES states {name}'s caches"
    knobs = {k["name"] for e in DESCRIBE["engines"] if e["name"] == name for k in e["knobs"]}
    for knob, _ in limits.ENGINE_CACHES[name]:
        assert knob in knobs or f"{base}.{knob}" in knobs, f"{name} has no knob {knob}"
    assert name in theme.FAMILY and name in theme.COLORS
    if name != "null":
        assert name in data.ENGINE_ORDER


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t["name"])
def test_every_target_has_its_backend_folder_and_registry_line(target):
    backend = target["knob_namespace"]
    d = DRIVER / "targets" / backend
    assert (d / "target.cc").is_file() and (d / f"{backend}.h").is_file(), d
    assert target["name"] in (d / "target.cc").read_text()
    assert [p.name for p in (DRIVER / "targets").glob("*.cc")] == ["registry.cc"], "target code lives in its folder"
    for w in target["workloads"]:
        assert (folder(w) / f"store_{backend}.cc").is_file(), (target["name"], w)


def test_limits_count_each_engines_stated_caches():
    """ENGINE_CACHES is what check_fit adds up (hand-computed: 8 MiB + 2 × 4 MiB = 16 MiB)."""
    assert limits.engine_memory("rocksdb", {"rocksdb.block_cache_size": "8MiB", "rocksdb.write_buffer_size": "4MiB"}) \
        == 16 * limits.MiB
    assert limits.engine_memory("wiredtiger-lsm", {"wiredtiger.cache_size": "16MiB"}) == 16 * limits.MiB
    assert limits.engine_memory("lmdb", {"lmdb.map_size": "1GiB"}) == 0


@pytest.mark.parametrize("workload", sorted({w for t in TARGETS for w in t["workloads"]}))
def test_every_workload_a_target_runs_says_what_to_read_back(workload):
    """A run on a server target reads back what the workload wrote (run.readback): every workload a
    target lists has its collections there (none is read back as another workload's)."""
    from engbench.run import readback
    got = readback.expected(workload, {}, {"load": {}, "totals": {}})
    assert got and all(isinstance(k, str) and k for k in got)


def test_every_reproduction_file_belongs_to_the_group_its_workload_folder_states():
    """notebooks/params/repro_*.yaml: each file's stem starts with exactly one folder's reproduction
    prefix, and that folder is the file's workload; every stated group has files (reproduce.GROUPS
    is read from the folders)."""
    from engbench import reproduce
    groups = {w.name: w.reproduction for w in map(engbench_registry.get, engbench_registry.order()) if w.reproduction}
    assert set(reproduce.GROUPS) == {g[0] for g in groups.values()}
    files = sorted((paths.REPO / "notebooks" / "params").glob("repro_*.yaml"))
    assert files
    for f in files:
        owners = [name for name, (_, _, prefix) in groups.items() if f.stem.startswith(prefix)]
        assert len(owners) == 1, (f.name, owners)
        assert yaml.safe_load(f.read_text())["workload"] == owners[0], f.name
    for name, (group, _, prefix) in groups.items():
        assert any(f.stem.startswith(prefix) for f in files), (name, group)
        assert engbench_registry.get(name).seconds_per_run, name


def test_one_workload_is_the_main_jobs_and_its_parameters_are_there():
    """`engbench main` runs the notebook of the one workload whose folder names main_job parameters."""
    mains = [w for w in workloads.WORKLOADS.values() if w.main_job]
    assert mains == [engbench_registry.main()], [w.name for w in mains]
    assert (paths.REPO / "notebooks" / "params" / mains[0].main_job).is_file()
    assert (paths.REPO / "notebooks" / mains[0].notebook).is_file()
