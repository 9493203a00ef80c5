"""The notebooks are their own source (jupytext pairs, edited in JupyterLab), keep the rules of
engbench.notebooks.rules, show their charts as images, and are covered by the test command: the
shipped-data notebooks strictly, with the outputs they are committed with, the others lax. A
notebook executed by engbench is kept inside the run directories it produced."""

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
import zlib
from pathlib import Path

import nbformat
import pytest

from engbench import paths
from engbench.notebooks import files, refresh, rules
from engbench.run import rundir

NOTEBOOKS = files.all_notebooks()
SANITIZE = paths.REPO / "notebooks" / "nbval-sanitize.cfg"


def copy_notebooks(dest):
    """notebooks/ (pairs, pairing config, sanitizers, parameter files) copied to `dest`."""
    shutil.copytree(paths.REPO / "notebooks", dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return dest


def test_the_test_command_checks_shipped_data_notebooks_strictly_and_the_rest_lax():
    go = (paths.REPO / "scripts" / "go.sh").read_text()
    section = go[go.index("\n  test)"):go.index("\n  lab)")]
    strict = next(line for line in section.splitlines() if "--nbval " in line)
    assert "pytest --nbval --nbval-sanitize-with notebooks/nbval-sanitize.cfg \"${strict[@]}\"" in strict
    assert "notebooks --list shipped-data" in section and "notebooks --list run-side" in section
    assert re.search(r'pytest -p no:xdist --nbval-lax "\$\{lax\[@\]\}"', section)  # one kernel per notebook
    assert re.search(r'pytest -n 2 --dist loadgroup -m "not slow" tests "\$@"', section)
    assert "--export-shipped" in section and "ENGBENCH_PROCESSED_DIR=" in section
    ci = (paths.REPO / ".ci" / "run").read_text()
    assert "go.sh test" in ci and "go.sh slow" in ci  # CI runs the slow tier too
    slow = go[go.index("\n  slow)"):]
    assert re.search(r'pytest -n 2 --dist loadgroup -m slow tests "\$@"', slow[:slow.index(";;")])
    # the two lists partition the notebooks, and every name the package calls shipped-data exists
    strict_nbs, lax_nbs = files.shipped_data(), files.run_side()
    assert sorted(strict_nbs + lax_nbs) == NOTEBOOKS and not set(strict_nbs) & set(lax_nbs)
    assert sorted(p.name for p in strict_nbs) == sorted(files.SHIPPED_DATA)


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_keeps_the_rules(nb_path):
    assert rules.problems(nb_path) == []


def test_the_rules_catch_what_they_promise(tmp_path):
    nbs = copy_notebooks(tmp_path / "nb")
    # a run-side notebook saved with outputs, a computed parameter and a function, by a tool that
    # writes only the .ipynb
    nb = nbformat.read(nbs / "iibench.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    code[0].source += "\nrows = 10 * 2"
    code[1].source = "def helper():\n    return 1\n" + code[1].source
    code[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    code[1].execution_count = 1
    nbformat.write(nb, nbs / "iibench.ipynb")
    found = "\n".join(rules.problems(nbs / "iibench.ipynb"))
    for needle in ("iibench.py and iibench.ipynb differ", "not a literal: rows = 10 * 2", "defines helper",
                   "committed without outputs"):
        assert needle in found, (needle, found)
    # a shipped-data notebook with its outputs cleared (saved in JupyterLab: the pair stays in sync)
    nb = nbformat.read(nbs / "findings.ipynb", as_version=4)
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs, c.execution_count = [], None
    files.lab_save(nbs / "findings.ipynb", nb)
    found = "\n".join(rules.problems(nbs / "findings.ipynb"))
    assert "not executed top to bottom" in found and "no chart among the outputs" in found
    assert "differ" not in found
    # an unpaired notebook, and one whose charts would need JavaScript
    (nbs / "fillseq.py").unlink()
    assert "fillseq.py is missing" in "\n".join(rules.problems(nbs / "fillseq.ipynb"))
    nb = nbformat.read(nbs / "check_published.ipynb", as_version=4)
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    last.outputs.append(nbformat.v4.new_output("display_data", data={"application/vnd.vegalite.v5+json": {}}))
    files.lab_save(nbs / "check_published.ipynb", nb)
    assert "needs JavaScript" in "\n".join(rules.problems(nbs / "check_published.ipynb"))


def test_setup_makes_every_chart_a_png_image_without_javascript():
    import altair as alt
    import pandas as pd
    import vl_convert

    from engbench import notebooks
    notebooks.setup()
    chart = alt.Chart(pd.DataFrame({"engine": ["rocksdb", "sqlite"], "v": [3, 4]})).mark_bar().encode(
        x="engine:N", y="v:Q")
    bundle, meta = chart._repr_mimebundle_()
    assert set(bundle) == {"image/png"}, "no vega-lite JSON, HTML or JavaScript output"
    png = bundle["image/png"]
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and meta["image/png"]["width"] > 0

    def pixels(data):  # the decompressed image data of a PNG
        pos, idat = 8, b""
        while pos < len(data):
            n = int.from_bytes(data[pos:pos + 4], "big")
            if data[pos + 4:pos + 8] == b"IDAT":
                idat += data[pos + 8:pos + 8 + n]
            assert zlib.crc32(data[pos + 4:pos + 8 + n]) == int.from_bytes(data[pos + 8 + n:pos + 12 + n], "big")
            pos += 12 + n
        return zlib.decompress(idat)
    drawn = vl_convert.vegalite_to_png(chart.to_dict(), scale=notebooks.display.PNG_SCALE)
    assert pixels(png) == pixels(drawn) and len(png) < len(drawn), "the same pixels, fewer bytes"
    assert chart._repr_mimebundle_()[0]["image/png"] == png, "same chart, same bytes"


def test_refresh_gives_the_committed_notebooks_byte_for_byte(tmp_path):
    """Same data, same bytes: re-executing the shipped-data notebooks against the committed data
    gives exactly the committed notebooks (outputs, charts and the paired .py). Fails when a change
    of code or data changed what they show and they were not refreshed (`engbench notebooks --refresh`)."""
    shipped = refresh.export_shipped(tmp_path / "shipped")
    nbs = copy_notebooks(tmp_path / "nb")
    written = refresh.refresh(folder=nbs, raw_dir=shipped / "data" / "raw",
                              processed_dir=shipped / "data" / "processed")
    assert sorted(p.name for p in written) == sorted(files.SHIPPED_DATA)
    for path in written:
        for f in (path, path.with_suffix(".py")):
            assert f.read_bytes() == (paths.REPO / "notebooks" / f.name).read_bytes(), \
                f"{f.name}: run `engbench notebooks --refresh` and commit the result"


def test_a_failing_refresh_leaves_the_notebook_as_it_was(tmp_path):
    nbs = copy_notebooks(tmp_path / "nb")
    nb = files.lab_read(nbs / "findings.ipynb")
    next(c for c in nb.cells if c.cell_type == "code" and "parameters" not in c.metadata.get("tags", [])) \
        .source += "\n1 / 0"
    files.lab_save(nbs / "findings.ipynb", nb)
    before = {f.name: f.read_bytes() for f in nbs.glob("findings.*")}
    with pytest.raises(refresh.RefreshError, match="ZeroDivisionError"):
        refresh.refresh(["findings"], folder=nbs)
    assert {f.name: f.read_bytes() for f in nbs.glob("findings.*")} == before
    with pytest.raises(ValueError, match="not a shipped-data notebook: iibench.ipynb"):
        refresh.refresh(["iibench"], folder=nbs)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(base, token, path, method="GET", body=None):
    req = urllib.request.Request(f"{base}/api/contents/{path}?token={token}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


LAB_LANGUAGE_INFO = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                     "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                     "pygments_lexer": "ipython3", "version": "3.11.2"}


def test_notebooks_edited_and_saved_in_jupyterlab_keep_the_suite_green(tmp_path):
    """A student's edits, saved through JupyterLab's own save path (its contents API, served by this
    checkout's JupyterLab with jupytext, as `go.sh lab` runs it): prose and a parameter of a run-side
    notebook, prose of a shipped-data notebook. Both files of each pair are written, every rule still
    holds, and nbval passes on the saved notebooks (lax, and strict for the one with outputs)."""
    nbs = copy_notebooks(tmp_path / "nb")
    port, token = _free_port(), uuid.uuid4().hex
    jupyter = str(Path(sys.executable).parent / "jupyter")  # this environment's, as go.sh lab runs it
    lab = subprocess.Popen([jupyter, "lab", f"--notebook-dir={nbs}", "--ip=127.0.0.1",
                            f"--port={port}", "--no-browser", "--allow-root", "--ServerApp.port_retries=0",
                            f"--IdentityProvider.token={token}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                _api(base, token, "")
                break
            except OSError:
                assert time.monotonic() < deadline and lab.poll() is None, "JupyterLab did not answer"
                time.sleep(0.5)
        model = _api(base, token, "iibench.ipynb")
        nb = model["content"]
        params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
        params["source"] = params["source"].replace("seed = 1", "seed = 2")
        nb["cells"].append({"cell_type": "markdown", "id": uuid.uuid4().hex[:8], "metadata": {},
                            "source": "**A student's note.** The seed changes the keys, not the rates."})
        nb["metadata"]["language_info"] = LAB_LANGUAGE_INFO  # what the frontend adds once a kernel ran
        _api(base, token, "iibench.ipynb", "PUT", {"type": "notebook", "format": "json", "content": nb})
        model = _api(base, token, "findings.ipynb")
        nb = model["content"]
        prose = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
        prose["source"] += "\n\nEdited in JupyterLab: the verdicts below are computed, never typed."
        _api(base, token, "findings.ipynb", "PUT", {"type": "notebook", "format": "json", "content": nb})
    finally:
        os.killpg(lab.pid, 15)
        lab.wait(timeout=60)
    assert "seed = 2" in (nbs / "iibench.py").read_text() and "A student's note" in (nbs / "iibench.py").read_text()
    assert "Edited in JupyterLab" in (nbs / "findings.py").read_text()
    for nb_path in files.all_notebooks(nbs):
        assert rules.problems(nb_path) == [], nb_path.name
    shipped = refresh.export_shipped(tmp_path / "shipped")
    env = {**os.environ, "ENGBENCH_RAW_DIR": str(shipped / "data" / "raw"),
           "ENGBENCH_PROCESSED_DIR": str(shipped / "data" / "processed")}
    strict = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
                             "--nbval-sanitize-with", str(SANITIZE), str(nbs / "findings.ipynb")],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800)
    assert strict.returncode == 0, strict.stdout[-3000:]
    lax = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
                          str(nbs / "iibench.ipynb")], cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert lax.returncode == 0, lax.stdout[-3000:]


def test_executed_notebook_is_sealed_inside_its_runs(scratch):
    from engbench import notebooks
    run_dirs, error = notebooks.execute(paths.REPO / "notebooks" / "iibench.ipynb",
                                        paths.REPO / "notebooks" / "params" / "iibench_tiny.yaml",
                                        {"engines": ["sqlite"], "params": {"max_rows": 3000, "batch": 500,
                                                                           "length_char_fields": 50},
                                         # papermill writes parameters into the notebook: a secret
                                         # among them (another target's knob) must not reach the run
                                         "knobs": {"sqlite.cache_size": "8MB",
                                                   "mongodb.uri": "mongodb://bench:Sup3rS3cret@127.0.0.1/x"}})
    assert error is None
    assert len(run_dirs) == 1
    d = run_dirs[0]
    nb = json.loads((d / "notebook.ipynb").read_text())
    assert any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), "executed copy has outputs"
    charts = [o["data"]["image/png"] for c in nb["cells"] if c["cell_type"] == "code"
              for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert charts and base64.b64decode(charts[0]).startswith(b"\x89PNG"), "the executed copy shows its chart"
    assert rundir.read_manifest(d)["status"] == "ok"
    assert rundir.check(d) == [] and "notebook.ipynb" in (d / rundir.SUMS).read_text()
    assert "mongodb.uri" in (d / "notebook.ipynb").read_text()
    for f in d.rglob("*"):
        assert not f.is_file() or b"Sup3rS3cret" not in f.read_bytes(), f


def test_workload_notebooks_are_the_registrys():
    from engbench.workloads import WORKLOADS
    named = {w.notebook for w in WORKLOADS.values() if w.notebook}
    assert named <= {p.name for p in NOTEBOOKS}
    assert len(named) == len(WORKLOADS)  # every workload has its notebook (tests/test_layout.py)
    assert not named & set(files.SHIPPED_DATA), "a workload's notebook starts runs: it is run-side"


def test_the_kernels_sockets_are_kept_out_of_the_notebooks_folder(tmp_path, monkeypatch):
    """A notebook runs with notebooks/ as its working directory; its kernel's IPC sockets go to
    Jupyter's runtime directory, not there (jupyter_client's default, kernel-ipc-N in the working
    directory, made a test that copies notebooks/ fail beside a running kernel), and are removed
    when the kernel stops."""
    from engbench.notebooks.execute import IPCKernelManager
    monkeypatch.chdir(tmp_path)
    km = IPCKernelManager()
    assert Path(km.ip).is_absolute() and Path(km.ip).parent.name == "runtime", km.ip
    km.start_kernel()
    try:
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        kc.stop_channels()
        socks = list(Path(km.ip).parent.glob(Path(km.ip).name + "-*"))
        assert socks and all(p.is_socket() for p in socks)
        assert list(tmp_path.iterdir()) == []
    finally:
        km.shutdown_kernel(now=True)
    assert not list(Path(km.ip).parent.glob(Path(km.ip).name + "-*"))
