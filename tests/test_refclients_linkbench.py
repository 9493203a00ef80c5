"""LinkBench's uncorrelated blends in engbench's linkbench, and benchmarks/bench_peers.py's handling of
a LinkBench build (issue 19). Real driver runs on sqlite; the script run as a user runs it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engbench import driver, params, runs

ROOT = Path(__file__).resolve().parents[1]


def _lb(scratch, sets):
    req = params.resolve("linkbench", "sqlite", ["maxid1=2001", "requests=2000", "loaders=1", "load_batch=4096",
                                                  "getlinklist=100", *(f"{m}=0" for m in (
                                                      "addlink", "deletelink", "updatelink", "countlink", "getlink",
                                                      "getnode", "addnode", "updatenode", "deletenode")), *sets])
    res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
    assert res.status == "ok", res.error
    return json.loads((res.run_dir / "driver" / "summary.json").read_text())


def test_uncorrelated_read_blend_takes_popularity_away_from_degree(scratch):
    """read_uncorr_blend=99.5 (LinkBench's FBWorkload value): the lists read are about the graph's
    typical ones, far shorter than when the most popular ids are the highest-degree ones (blend 0,
    the default, whose op stream is the default's)."""
    if "sqlite" not in {e["name"] for e in driver.describe().get("engines", [])}:
        pytest.skip("driver without sqlite")
    corr, default, uncorr = (_lb(scratch, s) for s in (["read_uncorr_blend=0"], [], ["read_uncorr_blend=99.5"]))
    rows = {k: s["totals"]["get_links_list"]["items"] / s["totals"]["get_links_list"]["requests"]
            for k, s in (("corr", corr), ("uncorr", uncorr))}
    assert rows["uncorr"] * 5 < rows["corr"], rows
    assert corr["op_stream_hash"] == default["op_stream_hash"] != uncorr["op_stream_hash"]
    assert corr["load"]["cpu_s"] > 0  # the load's own CPU, which bench_peers reports per link


def test_blend_outside_a_percentage_is_refused(scratch):
    with pytest.raises(Exception, match="write_uncorr_blend"):
        runs.execute(params.resolve("linkbench", "sqlite", ["write_uncorr_blend=101"]), out_dir=scratch / "refused",
                     show_progress=False)
    assert not (scratch / "refused").exists() or not any((scratch / "refused").iterdir())


def _peers(*argv):
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_peers.py"), *argv], capture_output=True,
                          text=True, env={k: v for k, v in os.environ.items() if k != "ENGBENCH_LINKBENCH"},
                          timeout=120)


def test_bench_peers_refuses_a_linkbench_that_is_not_built(tmp_path):
    """A directory without target/FacebookLinkBench.jar is refused (exit 2) saying how to build it;
    with no peer at all the script says what is missing and exits 0."""
    (tmp_path / "config").mkdir()
    out = _peers("--linkbench", str(tmp_path))
    assert out.returncode == 2, out
    assert "refused" in out.stdout and "FacebookLinkBench.jar" in out.stdout and "mvn" in out.stdout
    out = _peers("--linkbench", str(tmp_path / "absent"))
    assert out.returncode == 2 and "is not a directory" in out.stdout, out
    out = _peers()
    assert out.returncode == 0 and "nothing to compare" in out.stdout, out
