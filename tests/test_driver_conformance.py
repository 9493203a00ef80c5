"""The driver's own suites (GoogleTest: engine conformance on every engine, the document layer,
the workloads), run as part of the one test command; each GoogleTest case is reported here."""

import json
import subprocess

import pytest

from engbench import paths

BINARY = paths.REPO / "build" / "engbench-driver-tests"


@pytest.fixture(scope="module")
def gtest_report(tmp_path_factory):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} missing: run `bash scripts/setup.sh tests` (go.sh test does)")
    out = tmp_path_factory.mktemp("gtest") / "report.json"
    proc = subprocess.run([str(BINARY), f"--gtest_output=json:{out}"], capture_output=True, text=True,
                          timeout=900)
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text()), proc


def test_driver_suites_pass(gtest_report):
    report, proc = gtest_report
    failures = [f"{s['name']}.{t['name']}: {t['failures'][0]['failure'][:500]}"
                for s in report["testsuites"] for t in s["testsuite"] if t.get("failures")]
    assert not failures, "\n".join(failures)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert report["tests"] > 0


def test_conformance_covers_every_engine(gtest_report):
    report, _ = gtest_report
    names = " ".join(f"{s['name']}.{t['name']}" for s in report["testsuites"] for t in s["testsuite"])
    for engine in ("wiredtiger", "wiredtiger_lsm", "rocksdb", "lmdb", "sqlite", "null"):
        assert engine in names.replace("-", "_"), f"no driver test names {engine}"
