"""Notebooks stay thin, output-free and covered by the test command; a notebook executed by
engbench is kept inside the run directories it produced."""

import ast
import json
import re
from pathlib import Path

import pytest

from engbench import paths
from engbench.run import rundir

NOTEBOOKS = sorted((paths.REPO / "notebooks").glob("*.ipynb"))


def test_every_notebook_is_executed_by_the_test_command():
    go = (paths.REPO / "scripts" / "go.sh").read_text()
    test_line = next(line for line in go.splitlines() if line.strip().startswith("test)") and "pytest" in line)
    assert "--nbval-lax" in test_line and re.search(r"\bnotebooks\b", test_line), test_line
    ci = (paths.REPO / ".ci" / "run").read_text()
    assert "go.sh test" in ci
    assert NOTEBOOKS, "there are notebooks"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_thin_and_output_free(nb_path):
    nb = json.loads(nb_path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code), "strip outputs"
    params = [c for c in code if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, "exactly one cell tagged `parameters`"
    tree = ast.parse("".join(params[0]["source"]))
    for stmt in tree.body:
        assert isinstance(stmt, ast.Assign), ast.dump(stmt)
        ast.literal_eval(stmt.value)  # raises if not a literal
    assert any(c["cell_type"] == "markdown" for c in nb["cells"]), "prose explains what is measured"


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
    assert rundir.read_manifest(d)["status"] == "ok"
    assert rundir.check(d) == [] and "notebook.ipynb" in (d / rundir.SUMS).read_text()
    assert "mongodb.uri" in (d / "notebook.ipynb").read_text()
    for f in d.rglob("*"):
        assert not f.is_file() or b"Sup3rS3cret" not in f.read_bytes(), f


GENERATORS = ["make_notebooks.py", "make_workload_notebooks.py"]


def test_regenerating_the_notebooks_gives_the_committed_files(tmp_path):
    """Every committed notebook is written by a generator (scripts/make_*notebooks.py), and
    running the generators now gives exactly the committed bytes: an edit made to a notebook
    and not to its generator (or the other way round) fails here."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "ENGBENCH_NOTEBOOKS_OUT": str(tmp_path)}
    for script in GENERATORS:
        out = subprocess.run([sys.executable, str(paths.REPO / "scripts" / script)], env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
    generated = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert generated == [p.name for p in NOTEBOOKS]
    for name in generated:
        assert (tmp_path / name).read_bytes() == (paths.REPO / "notebooks" / name).read_bytes(), name


def test_workload_notebooks_are_the_registrys():
    from engbench.workloads import WORKLOADS
    named = {w.notebook for w in WORKLOADS.values() if w.notebook}
    assert named <= {p.name for p in NOTEBOOKS}
    assert len(named) == len(WORKLOADS)  # every workload has its notebook (tests/test_layout.py)
