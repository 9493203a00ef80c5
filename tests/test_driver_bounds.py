"""Parameter ranges as the Python side sees them (docs/driver.md "Parameter ranges"): the driver's
`describe` carries each knob's and param's range and unit, `engbench run` refuses a value outside
it in the driver's words with nothing written, and `engbench engines --knobs` / `--workload-params` show the
ranges to users."""

import json
import re

import pytest

from engbench import cli
from engbench.cli import engines
from engbench.run import driver

NUMERIC = {"int", "bytes", "double", "int_list"}
RANGE_FIELDS = ("min", "max", "min_exclusive", "max_exclusive", "range", "unit")


def specs():
    d = driver.describe()
    for group, key in (("engines", "knobs"), ("targets", "knobs"), ("workloads", "params")):
        for owner in d.get(group, []):
            for spec in owner[key]:
                yield owner["name"], spec


def inside(spec, value) -> bool:
    lo, hi = spec["min"], spec["max"]
    return ((lo is None or (value > lo if spec["min_exclusive"] else value >= lo))
            and (hi is None or (value < hi if spec["max_exclusive"] else value <= hi)))


def test_describe_carries_every_range_and_each_default_is_inside():
    ranged = 0
    for owner, spec in specs():
        # the fields the Python side read before are all still there, the range fields beside them
        assert {"name", "type", "default", "help", "choices", *RANGE_FIELDS} <= set(spec), (owner, spec["name"])
        if spec["type"] not in NUMERIC:
            assert spec["min"] is None and spec["max"] is None and spec["range"] == "", (owner, spec["name"])
            continue
        defaults = spec["default"] if spec["type"] == "int_list" else [spec["default"]]
        assert all(inside(spec, v) for v in defaults), (owner, spec["name"], spec["default"])
        if spec["type"] == "bytes":
            assert spec["unit"] == "bytes" and spec["min"] is not None and spec["min"] >= 0, (owner, spec["name"])
        ranged += spec["min"] is not None or spec["max"] is not None
    assert ranged > 60
    iibench = {s["name"]: s for o, s in specs() if o == "iibench"}
    assert (iibench["max_rows"]["min"], iibench["max_rows"]["max"], iibench["max_rows"]["range"]) == (0, None, ">= 0")
    pc = iibench["percent_compressible"]
    assert (pc["min"], pc["max"], pc["range"], pc["unit"]) == (0, 100, "in [0, 100]", "percent")
    ycsb = {s["name"]: s for o, s in specs() if o == "ycsb"}
    z = ycsb["zipfianconstant"]
    assert (z["min"], z["max"], z["min_exclusive"], z["max_exclusive"]) == (0, 1, True, True)


@pytest.mark.parametrize("engine, setting, words", [
    # --set values reach the driver as strings, shown as given
    ("null", "max_rows=-1", "bad value for param 'max_rows': expected an integer >= 0, got \"-1\""),
    ("null", "percent_compressible=101",
     "bad value for param 'percent_compressible': expected an integer in [0, 100], got \"101\""),
    ("null", "num_secondary_indexes=4", "bad value for param 'num_secondary_indexes': expected an integer in [0, 3]"),
    ("wiredtiger", "wiredtiger.cache_size=512KB",
     "bad value for knob 'wiredtiger.cache_size': expected a byte count in [1MiB, 10TiB], got \"512KB\""),
])
def test_a_value_outside_its_range_is_refused_in_the_specs_words_and_nothing_is_written(scratch, capsys, engine,
                                                                                      setting, words):
    if engine not in driver.engine_names():
        pytest.skip(f"driver without {engine}")
    rc = cli.main(["run", "iibench", "--engine", engine, "--set", setting, "--no-progress",
                   "--out", str(scratch / "out")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "refused, nothing written" in err and words in err, err
    assert not (scratch / "out").exists()
    for sub in ("raw", "work", "processed"):
        assert not (scratch / sub).exists() or not any((scratch / sub).rglob("*")), sub


def test_in_range_values_at_the_edges_are_accepted(tmp_path):
    """The ends of a range are values the hand-written checks took before; validate takes them."""
    cfg = {"workload": "iibench", "engine": "null", "data_dir": str(tmp_path / "data"),
           "output_dir": str(tmp_path / "out"),
           "params": {"max_rows": 0, "max_seconds": 1, "percent_compressible": 100, "num_secondary_indexes": 0,
                      "data_length": 4000, "length_char_fields": 1 << 20}}
    resolved = driver.validate(cfg)
    assert resolved["params"]["percent_compressible"] == 100 and resolved["params"]["max_rows"] == 0


def test_bounds_are_shown_with_their_unit_or_the_choices():
    assert engines.bounds({"range": "in [0, 100]", "unit": "percent", "choices": None}) == "in [0, 100] percent"
    assert engines.bounds({"range": ">= 1", "unit": None, "choices": None}) == ">= 1"
    assert engines.bounds({"range": "", "unit": "s", "choices": None}) == "s"
    assert engines.bounds({"range": "", "unit": None, "choices": ["a", "b"]}) == "one of: a, b"


def test_engines_knobs_and_params_show_each_range(capsys):
    assert cli.main(["engines", "--knobs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(re.fullmatch(r"\s+mariadb\.flush_log_at_trx_commit\s+int\s+1\s+in \[0, 2\]", ln) for ln in lines), lines
    if "wiredtiger" in driver.engine_names():
        assert any(re.fullmatch(r"\s+wiredtiger\.cache_size\s+bytes\s+1073741824\s+in \[1MiB, 10TiB\] bytes", ln)
                   for ln in lines), lines
    assert cli.main(["engines", "--workload-params", "iibench"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "iibench"
    assert any(re.fullmatch(r"\s+percent_compressible\s+int\s+90\s+in \[0, 100\] percent", ln) for ln in lines), lines
    assert any(re.fullmatch(r"\s+max_rows\s+int\s+100000000\s+>= 0", ln) for ln in lines), lines
    assert cli.main(["engines", "--workload-params", "ycsb", "--json"]) == 0
    [ycsb] = json.loads(capsys.readouterr().out)
    z = {s["name"]: s for s in ycsb["specs"]}["zipfianconstant"]
    assert z["range"] == "in (0, 1)"
