"""What the Python side reads from the driver instead of keeping its own copy: the knob namespaces
(from `describe`), and the one spelling of each latency percentile (`p999` for the 99.9th)."""

import json
import re

import pytest

from engbench import paths
from engbench.run import driver, params, runs


def test_knob_namespaces_come_from_describe(monkeypatch):
    fake = {"engines": [{"name": "wiredtiger-lsm", "knob_namespace": "wiredtiger"},
                        {"name": "newkv-fast", "knob_namespace": "nk"}],
            "targets": [{"name": "mariadb-myrocks", "knob_namespace": "mariadb"}]}
    monkeypatch.setattr(driver, "describe", lambda: fake)
    assert driver.knob_namespace("newkv-fast") == "nk"  # not the name's first part
    assert driver.knob_namespace("mariadb-myrocks") == "mariadb"
    assert driver.knob_namespace("nosuch") is None
    assert params.knobs_for("newkv-fast", {"nk.a": 1, "wiredtiger.cache_size": "1GB", "other.x": 2}) == {
        "nk.a": 1, "other.x": 2}


def test_describe_gives_every_engine_and_target_its_namespace():
    spaces = driver.knob_namespaces()
    assert spaces["wiredtiger-lsm"] == "wiredtiger" and spaces["rocksdb"] == "rocksdb"
    assert set(spaces) == set(driver.engine_names()) | {t["name"] for t in driver.describe().get("targets", [])}


def test_a_set_knob_of_another_engines_namespace_is_refused_with_the_valid_choices(tmp_path):
    req = params.resolve("iibench", "rocksdb", ["wiredtiger.cache_size=1GB"])
    with pytest.raises(driver.InvalidConfig) as e:
        driver.validate(req.config(tmp_path / "data", tmp_path / "out"))
    assert "wiredtiger.cache_size" in str(e.value) and "rocksdb.compaction" in str(e.value)
    assert not (tmp_path / "data").exists() and not (tmp_path / "out").exists()


def test_an_experiment_files_knobs_for_other_engines_are_left_out(tmp_path):
    f = tmp_path / "exp.yaml"
    f.write_text("knobs: {wiredtiger.cache_size: 1GB, rocksdb.compaction: universal}\n")
    assert params.resolve("iibench", "rocksdb", [], f).knobs == {"rocksdb.compaction": "universal"}


OTHER_SPELLINGS = re.compile(r"p99[._]9|p99\.90|99_9|p9990|\bp99_?9th\b")


def test_the_999th_percentile_has_one_spelling(scratch):
    res = runs.execute(params.resolve("fillseq", "null", ["num=200"]), out_dir=scratch / "raw", show_progress=False)
    assert res.status == "ok", res.error
    s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
    assert set(s["latency_us"]["insert"]) == {"mean", "p50", "p95", "p99", "p999", "max"}
    for path in [paths.REPO / "docs" / "driver.md", *sorted((paths.REPO / "driver" / "src").rglob("*.[ch]*"))]:
        assert not OTHER_SPELLINGS.search(path.read_text()), path
