"""One definition of logical bytes (docs/driver.md "Logical bytes"): the workload counts them from
the request and what the store returned, so one seed gives the same counts on every engine and
server target.

Tiny same-seed runs of sysbench-update, iibench and linkbench on `null`, `sqlite`, a private
MariaDB (InnoDB, started by engbench for the run) and FerretDB (started here); the server targets
are skipped with the reason when their binaries are missing. linkbench reads count what the
requests returned, and `null` stores nothing, so its linkbench reads are compared only among the
storing engines. Also: the linkbench stream hash pinned from before linkbench went through its
KV store (one run loop, one loader for every engine and server target)."""

import json

import pytest

from engbench.run import params, runs
from engbench.run.servers import ferretdb as ferret_mod
from engbench.run.servers import mariadb as mariadb_mod

RUNS = {
    "sysbench-update": ["table_size=200", "tables=2", "clients=1", "updates_per_step=300", "seconds_per_step=0",
                        "load_batch=40", "mode=index", "seed=5"],
    "sysbench-update-c": ["table_size=200", "clients=1", "updates_per_step=200", "seconds_per_step=0",
                          "load_batch=40", "seed=5"],
    "iibench": ["max_rows=400", "batch=40", "length_char_fields=30", "num_char_fields=2", "seed=5"],
    "linkbench": ["maxid1=150", "requests=400", "threads=1", "load_batch=40", "getlinklist_limit=1000", "seed=5",
                  "graph=lognormal"],
}
STORING = ["sqlite", "mariadb-innodb", "mongodb"]


def skip_reason(engine):
    if engine == "mariadb-innodb":
        return mariadb_mod.unavailable_reason()
    if engine == "mongodb":
        return ferret_mod.unavailable_reason()
    return None


@pytest.fixture(scope="module")
def ferret(tmp_path_factory):
    from engbench.run.servers.ferretdb import FerretDB
    if ferret_mod.unavailable_reason():
        pytest.skip(str(ferret_mod.unavailable_reason()))
    with FerretDB(tmp_path_factory.mktemp("ferret")) as f:
        yield f


def summary(workload, engine, ferret_uri, out):
    sets = list(RUNS[workload])
    if engine == "mongodb":
        sets.append(f"mongodb.uri={ferret_uri}")
    res = runs.execute(params.resolve(workload.removesuffix("-c"), engine, sets), out_dir=out, show_progress=False)
    assert res.status == "ok", res.error
    return json.loads((res.run_dir / "driver" / "summary.json").read_text())


def logical(s, key):
    return {op: t[key] for op, t in s["totals"].items()}


@pytest.fixture(scope="module")
def summaries(request, tmp_path_factory):
    """Every workload on every available engine (server targets included): {(workload, engine): summary}."""
    out, uri, got = tmp_path_factory.mktemp("raw"), None, {}
    for engine in ["null", *STORING]:
        if skip_reason(engine):
            continue
        if engine == "mongodb":
            uri = request.getfixturevalue("ferret").uri
        for workload in RUNS:
            got[workload, engine] = summary(workload, engine, uri, out)
    return got


@pytest.mark.parametrize("workload", list(RUNS))
def test_every_engine_counts_the_same_logical_bytes(summaries, workload):
    engines = [t for w, t in summaries if w == workload]
    missing = [t for t in STORING if t not in engines]
    base = summaries[workload, "sqlite"]
    assert base["totals"][next(iter(base["totals"]))]["logical_bytes_written"] > 0
    for engine in engines:
        s = summaries[workload, engine]
        assert s["op_stream_hash"] == base["op_stream_hash"], engine
        assert logical(s, "logical_bytes_written") == logical(base, "logical_bytes_written"), engine
        assert s["logical_bytes_stored"] == base["logical_bytes_stored"] > 0, engine
        if workload != "linkbench" or engine != "null":
            assert logical(s, "logical_bytes_read") == logical(base, "logical_bytes_read"), engine
    if missing:
        pytest.skip(f"compared {engines}; not available: {missing} ({[skip_reason(t) for t in missing]})")


def test_linkbench_reads_count_what_came_back(summaries):
    """The same request stream reads real rows on sqlite and nothing on null (which stores nothing)."""
    kv, null = summaries["linkbench", "sqlite"]["totals"], summaries["linkbench", "null"]["totals"]
    for op in ("get_node", "get_links_list", "count_link"):
        assert kv[op]["items"] > 0 and kv[op]["logical_bytes_read"] > 0
        assert null[op]["logical_bytes_read"] == 0
    assert kv["request"]["logical_bytes_read"] == sum(
        t["logical_bytes_read"] for op, t in kv.items() if op != "request")


def test_sysbench_update_bytes_follow_the_definition(summaries):
    """In BSON, an element is type (1) + name + NUL + value, a document 4 + elements + 1.
    Index mode: each update reads and writes {_id, k}: 4 + (1+4+8) + (1+2+8) + 1 = 29 bytes;
    non-index: it writes {_id, c}: 4 + 13 + (1+2+4+120+1) + 1 = 146; a row image
    {_id, k, c, pad} is 4 + 13 + 11 + 128 + (1+4+4+60+1) + 1 = 227."""
    t = summaries["sysbench-update", "sqlite"]["totals"]["update"]
    assert (t["requests"], t["logical_bytes_read"], t["logical_bytes_written"]) == (300, 300 * 29, 300 * 29)
    t = summaries["sysbench-update-c", "null"]["totals"]["update"]
    assert (t["logical_bytes_read"], t["logical_bytes_written"]) == (0, 200 * 146)
    assert summaries["sysbench-update", "null"]["logical_bytes_stored"] == 2 * 200 * 227


# graph=lognormal: the stand-in graph the hash was pinned with (the default is now LinkBench's graph);
# the blends and getlinklist_history at the 0 they defaulted to then (since issue 26: FBWorkload's)
PINNED = ["maxid1=300", "requests=1500", "threads=1", "load_batch=50", "seed=7", "graph=lognormal",
          "read_uncorr_blend=0", "write_uncorr_blend=0", "getlinklist_history=0"]


@pytest.mark.parametrize("engine", ["null", "sqlite"])
def test_linkbench_stream_hash_is_the_one_pinned_before_the_kv_store(engine, scratch):
    res = runs.execute(params.resolve("linkbench", engine, PINNED), out_dir=scratch / "raw", show_progress=False)
    assert res.status == "ok", res.error
    s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
    assert s["op_stream_hash"] == "32dc1c84e17d4e24"
    assert s["totals"]["request"]["requests"] == 1500
