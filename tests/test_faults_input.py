"""Hostile but honest input (issue 42 items 3, 4, 7, 8 and its unclear messages): names that would
reach the file system outside the run's data directory, counts that become threads or buffers
beyond what the machine holds, a tampered capture beside good runs, endless or blocking files for
the parsers, and the command line's own inputs (--out, an empty params file, --wait-quiet,
parse --device). Each is refused with one sentence naming the input, before anything is written."""

import json
import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from engbench import cli, paths
from engbench.run import driver

RAW = paths.REPO / "data" / "raw"
CAPTURE = paths.REPO / "tests" / "data" / "captures" / "burst_iostat_xkt.txt"
# Parameters that name tables, collections or their prefixes: they reach the engines' files.
NAME_PARAMS = {"collection", "table", "collection_prefix"}
TRAVERSALS = ["../../escaped", "/tmp/engbench-escaped-abs", "a/b", "..", "."]


def name_params() -> list[tuple[str, str]]:
    """(workload, param) for every parameter that names a table or collection."""
    return [(w["name"], s["name"]) for w in driver.describe()["workloads"] for s in w["params"]
            if s["name"] in NAME_PARAMS]


def kv_engines() -> list[str]:
    return [e for e in driver.engine_names() if e != "null"]


def config(tmp_path, workload, engine, params) -> dict:
    return {"workload": workload, "engine": engine, "params": params, "seed": 1,
            "data_dir": str(tmp_path / "data"), "output_dir": str(tmp_path / "out")}


# ---- item 3: names that reach the file system ----

def test_every_name_parameter_is_declared_as_a_name():
    """The driver says which parameters name something on disk (type `name`), so both layers agree."""
    found = name_params()
    assert {w for w, _ in found} >= {"iibench", "ycsb", "fillseq", "bulk-insert", "linkbench", "sysbench-update",
                                     "cache-pollution"}
    types = {(w["name"], s["name"]): s["type"] for w in driver.describe()["workloads"] for s in w["params"]}
    assert {types[k] for k in found} == {"name"}, {k: types[k] for k in found}


@pytest.mark.parametrize("value", TRAVERSALS + ["x" * 65, "a b", "a\x00b", ""])
def test_a_traversal_or_odd_name_is_refused_for_every_workload_and_engine(tmp_path, value):
    for workload, param in name_params():
        for engine in kv_engines() + ["null"]:
            with pytest.raises(driver.InvalidConfig) as err:
                driver.validate(config(tmp_path, workload, engine, {param: value}))
            assert f"'{param}'" in str(err.value) and "one file-system name" in str(err.value), str(err.value)
    assert not (tmp_path / "data").exists() and not (tmp_path / "out").exists()


def test_plain_names_are_still_accepted(tmp_path):
    for workload, param in name_params():
        for value in ("bulk", "cp_", "purchases_index", "Table_2"):
            resolved = driver.validate(config(tmp_path, workload, "null", {param: value}))
            assert resolved["params"][param] == value


@pytest.mark.parametrize("target", ["mongodb", "mariadb-innodb"])
def test_a_server_targets_database_is_one_name_too(tmp_path, target):
    cfg = {**config(tmp_path, "iibench", target, {}), "target": {"database": "../../escaped"}}
    with pytest.raises(driver.InvalidConfig, match="target key 'database': expected one file-system name"):
        driver.validate(cfg)


@pytest.mark.parametrize("value", ["../../escaped", "ABSOLUTE"])
def test_a_real_run_with_a_traversal_name_creates_nothing_outside_its_data_dir(scratch, capsys, value):
    """A real `engbench run` on each KV engine: refused with nothing written, and nothing appears next
    to (or above) the work directory, where WiredTiger used to put ../../escaped.wt."""
    deep = scratch / "a" / "b"
    os.environ["ENGBENCH_WORK_DIR"] = str(deep / "work")  # scratch's monkeypatch restores it
    value = str(scratch / "abs" / "escaped") if value == "ABSOLUTE" else value
    for engine in kv_engines():
        rc = cli.main(["run", "fillseq", "--engine", engine, "--set", f"table={value}", "--set", "num=100",
                       "--no-progress", "--out", str(scratch / "out")])
        err = capsys.readouterr().err
        assert rc == 2, (engine, err)
        assert "refused, nothing written" in err and "'table'" in err, err
    assert not (scratch / "out").exists()
    outside = [p for p in scratch.rglob("*") if "escaped" in p.name]
    assert not outside, outside
    assert not (deep / "work").exists() or not any((deep / "work").rglob("*.wt"))


# ---- item 4: counts that become threads, buffers or files ----

# every count that becomes threads, per-request buffers or files, per workload (engines: knobs)
BOUNDED = {
    "iibench": ["loader_threads", "query_threads", "batch", "docs_per_txn", "num_char_fields", "query_limit"],
    "bulk-insert": ["threads", "batch", "docs_per_txn"],
    "fillseq": ["threads", "batch"],
    "cache-pollution": ["threads"],
    "linkbench": ["threads", "loaders", "load_batch", "link_type_count", "getlinklist_limit"],
    "sysbench-update": ["tables", "clients", "load_batch"],
    "ycsb": ["threads", "load_batch", "maxscanlength", "fieldcount"],
}


def test_every_thread_buffer_or_file_count_has_an_upper_bound_in_its_spec():
    specs = {(w["name"], s["name"]): s for w in driver.describe()["workloads"] for s in w["params"]}
    unbounded = [k for w, names in BOUNDED.items() for k in ((w, n) for n in names) if specs[k]["max"] is None]
    assert not unbounded, unbounded
    knobs = {(e["name"], s["name"]): s for e in driver.describe()["engines"] for s in e["knobs"]}
    if ("rocksdb", "max_background_jobs") in knobs:
        assert knobs[("rocksdb", "max_background_jobs")]["max"] is not None


@pytest.mark.parametrize("workload, setting", [
    ("iibench", "loader_threads=100000"), ("iibench", "query_threads=100000"), ("iibench", "batch=1000000000"),
    ("fillseq", "threads=100000"), ("bulk-insert", "threads=100000"), ("linkbench", "loaders=100000"),
    ("cache-pollution", "threads=100000"), ("ycsb", "maxscanlength=1000000000"),
])
def test_an_oversized_count_is_refused_before_anything_is_written(scratch, capsys, workload, setting):
    rc = cli.main(["run", workload, "--engine", "null", "--set", setting, "--no-progress",
                   "--out", str(scratch / "out")])
    err = capsys.readouterr().err
    assert rc == 2, err
    name = setting.split("=")[0]
    assert "refused, nothing written" in err and f"'{name}'" in err, err
    assert not (scratch / "out").exists()
    for sub in ("raw", "work"):
        assert not (scratch / sub).exists() or not any((scratch / sub).rglob("*")), sub


def test_a_batch_that_does_not_fit_in_memory_is_refused_naming_the_memory(tmp_path):
    """Inside each range, a request's documents (batch x document bytes) must fit in the machine's memory."""
    params = {"batch": 1000000, "num_char_fields": 1000, "length_char_fields": 1 << 20}
    with pytest.raises(driver.InvalidConfig, match="memory"):
        driver.validate(config(tmp_path, "iibench", "null", params))
    big = {"cold_action": "index", "cold_docs": 10 ** 12}  # every cold key sorted in memory
    with pytest.raises(driver.InvalidConfig, match="'cold_docs'.*memory"):
        driver.validate(config(tmp_path, "cache-pollution", "null", big))
    resolved = driver.validate(config(tmp_path, "cache-pollution", "null", {**big, "cold_action": "scan"}))
    assert resolved["params"]["cold_docs"] == 10 ** 12


# ---- item 7: process checks SHA256SUMS ----

def _copy_runs(dest):
    good, bad = sorted(RAW.glob("*_iibench_wiredtiger_vm"))[:2]
    for src in (good, bad):
        shutil.copytree(src, dest / src.name)
    for root, dirs, files in os.walk(dest):
        for x in dirs + files:
            os.chmod(os.path.join(root, x), 0o755 if x in dirs else 0o644)
    return dest / good.name, dest / bad.name


def test_process_refuses_a_tampered_run_and_processes_the_good_one_beside_it(tmp_path, capsys):
    raw = tmp_path / "raw"
    raw.mkdir()
    good, bad = _copy_runs(raw)
    vm = bad / "vmstat.txt"
    text = vm.read_text()
    lines = text.splitlines(keepends=True)
    i = 2 + next(j for j, ln in enumerate(lines[2:]) if any(c in "12345678" for c in ln.split()[3]))
    field = lines[i].split()[3]
    flipped = field.replace(next(c for c in field if c in "12345678"), "9", 1)
    lines[i] = lines[i].replace(field, flipped, 1)
    vm.write_text("".join(lines))
    assert vm.read_text() != text and (RAW / bad.name / "vmstat.txt").read_text() == text  # data/raw untouched
    rc = cli.main(["process", "--raw", str(raw), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert bad.name in err and "vmstat.txt" in err and "SHA256SUMS" in err, err
    runs = pd.read_csv(tmp_path / "out" / "runs.csv")
    assert list(runs["run_id"]) == [good.name]


# ---- item 8: parsers read with a bound ----

def _parse_rss(args, timeout=60):
    """(returncode, stderr, max RSS in KiB) of `engbench parse ...` in a child, under a 3 GiB address-space
    limit so that a parser without a bound fails (MemoryError) rather than taking the machine."""
    probe = ("import resource, subprocess, sys\n"
             "def lim(): resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
             f"r = subprocess.run([sys.executable, '-m', 'engbench.cli', 'parse', *{args!r}], preexec_fn=lim,"
             f" capture_output=True, text=True, timeout={timeout - 10})\n"
             "print(r.returncode); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.stderr.write(r.stderr)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=timeout)
    rc, rss = out.stdout.split()
    return int(rc), out.stderr, int(rss)


@pytest.mark.parametrize("kind", ["iostat", "vmstat"])
def test_parse_of_dev_zero_ends_quickly_with_a_clear_error_and_bounded_memory(kind):
    rc, err, rss = _parse_rss([kind, "/dev/zero"])
    assert rc == 2, err
    assert "Traceback" not in err and "/dev/zero" in err and "not a regular file" in err, err
    assert rss < 400 * 1024, rss


def test_parse_of_a_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "capture.fifo"
    os.mkfifo(fifo)
    rc, err, _ = _parse_rss(["iostat", str(fifo)], timeout=30)
    assert rc == 2 and "not a regular file" in err and str(fifo) in err, err


def test_a_capture_beyond_the_size_cap_is_refused_unread(tmp_path, monkeypatch):
    from engbench.parsers import ParseError, _read, parse_iostat
    big = tmp_path / "iostat.txt"
    big.write_bytes(CAPTURE.read_bytes())
    monkeypatch.setattr(_read, "MAX_BYTES", 1000)
    with pytest.raises(ParseError, match="larger than"):
        parse_iostat(big)


# ---- unclear messages ----

def _run_cli(argv, capsys):
    rc = cli.main(argv)
    cap = capsys.readouterr()
    return rc, cap.err


def _one_sentence(err: str, prog: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in err and "Errno" not in err, err
    return " ".join(ln for ln in lines if prog in ln or not ln.startswith("status"))


@pytest.mark.parametrize("where", ["file", "proc", "under-file"])
def test_out_that_is_no_directory_is_refused_in_one_sentence(scratch, capsys, where):
    f = scratch / "a-file"
    f.write_text("x")
    out = {"file": f, "proc": "/proc/engbench-out", "under-file": f / "sub"}[where]
    rc, err = _run_cli(["run", "iibench", "--engine", "null", "--set", "max_rows=10", "--no-progress",
                        "--out", str(out)], capsys)
    assert rc == 2, err
    msg = _one_sentence(err, "engbench run")
    assert str(out) in msg and "--out" in msg, err
    assert not (scratch / "raw").exists() and not (scratch / "work").exists()


def test_an_empty_params_file_is_refused(scratch, capsys):
    p = scratch / "empty.yaml"
    for text in ("", "# nothing yet\n"):
        p.write_text(text)
        rc, err = _run_cli(["run", "iibench", "--engine", "null", "--params", str(p), "--no-progress",
                            "--out", str(scratch / "out")], capsys)
        assert rc == 2, err
        assert f"params file {p} is empty" in err, err
    assert not (scratch / "out").exists()


@pytest.mark.parametrize("argv", [["run", "iibench", "--engine", "null", "--wait-quiet", "-3"],
                                  ["reproduce", "--plan", "--wait-quiet", "-3"]])
def test_a_negative_wait_quiet_is_refused(scratch, capsys, argv):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv + (["--out", str(scratch / "out")] if argv[0] == "run" else []))
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--wait-quiet" in err and "-3" in err and ">= 0" in err, err
    assert not (scratch / "out").exists()


def test_parse_with_a_device_not_in_the_capture_names_the_devices_there(capsys):
    rc, err = _run_cli(["parse", "iostat", str(CAPTURE), "--device", "nosuch"], capsys)
    assert rc == 2, err
    assert "nosuch" in err and "vda" in err and str(CAPTURE) in err, err


def test_parse_and_process_of_a_missing_path_say_so(tmp_path, capsys):
    rc, err = _run_cli(["parse", "vmstat", str(tmp_path / "nosuch.txt")], capsys)
    assert rc == 2 and "Errno" not in err and "nosuch.txt" in err and "no such file" in err.lower(), err
    rc, err = _run_cli(["process", str(tmp_path / "nosuch-run"), "--out", str(tmp_path / "o")], capsys)
    assert rc == 2 and "Errno" not in err and "nosuch-run" in err, err


def test_a_params_file_that_is_not_a_mapping_or_missing_is_one_sentence(scratch, capsys):
    rc, err = _run_cli(["run", "iibench", "--engine", "null", "--params", str(scratch / "nosuch.yaml"),
                        "--out", str(scratch / "out")], capsys)
    assert rc == 2 and "Errno" not in err and "nosuch.yaml" in err, err
    json.dumps(err)


@pytest.mark.parametrize("command", ["process", "report"])
def test_process_and_report_out_that_is_a_file_is_one_sentence(scratch, capsys, command):
    f = scratch / "a-file"
    f.write_text("x")
    rc, err = _run_cli([command, "--out", str(f)], capsys)
    assert rc == 2 and "Errno" not in err and "Traceback" not in err, err
    assert f"--out {f} is a file, not a directory" in err, err
    assert f.read_text() == "x"


def test_main_with_a_missing_or_empty_params_file_is_one_sentence(scratch, capsys):
    rc, err = _run_cli(["main", "--params", str(scratch / "nosuch.yaml")], capsys)
    assert rc == 2 and "Traceback" not in err and f"params file {scratch / 'nosuch.yaml'} does not exist" in err, err
    (scratch / "empty.yaml").write_text("")
    rc, err = _run_cli(["main", "--params", str(scratch / "empty.yaml")], capsys)
    assert rc == 2 and "is empty" in err, err
    assert not (scratch / "raw").exists()


@pytest.mark.parametrize("engine,setting", [("wiredtiger", "wiredtiger.cache_size=4TiB"),
                                            ("rocksdb", "rocksdb.block_cache_size=4TiB")])
def test_an_engine_cache_beyond_the_machines_memory_is_refused(scratch, capsys, engine, setting):
    """An engine cache is a buffer too (issue 42 item 4): without run.memory_limit, its knobs are
    held against the machine's own memory (MemTotal), before anything is written."""
    rc = cli.main(["run", "fillseq", "--engine", engine, "--set", setting, "--no-progress",
                   "--out", str(scratch / "out")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "memory" in err and setting.split("=")[0] in err, err
    assert not (scratch / "out").exists()
