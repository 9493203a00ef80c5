"""The package as the ecosystem installs it: `pip install .` into a clean virtual environment, with
no requirements file, gives an `engbench` that says its version, runs a workload (the null engine:
the compiled driver storing nothing) and builds the paper from that run. What pyproject.toml
declares is then the whole of what the commands need (issue 46: `hdrhistogram`, which
`engbench run` imports, was missing, and pytest, nbval and jupyterlab were in the runtime).

The environment is made by uv (the `pip install` of scripts/setup.sh's tools environment, from the
shared download cache; registries for what the cache lacks) from a copy of the checkout's package
files, so that the build writes nothing into the working tree. The installed package is not
editable: it finds the driver, the run directories, the published tables and the paper's templates
through ENGBENCH_DRIVER, ENGBENCH_RAW_DIR / ENGBENCH_PROCESSED_DIR / ENGBENCH_WORK_DIR,
ENGBENCH_PUBLISHED_DIR and `report --out` (copies of the checkout's paper/ and data/published), as a
user of the wheel would."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from engbench import paths

PYPROJECT = paths.REPO / "pyproject.toml"
# what a clean install must not pull into the runtime: test, lab and workflow tools (the extras')
NOT_RUNTIME = {"pytest", "pytest-xdist", "nbval", "jupyterlab", "import-linter", "selenium", "snakemake",
               "snakemake-executor-plugin-slurm", "fastparquet", "execnet"}


def _name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0).lower().replace("_", "-")


def project() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["project"]


def pins() -> dict:
    """requirements.txt's pins, {name: version}."""
    out = {}
    for line in (paths.REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            out[_name(name)] = version
    return out


def test_pyproject_has_complete_pep_621_metadata():
    p = project()
    assert p["license"] == "MIT" and p["license-files"] == ["LICENSE", "LICENSES/*.txt"]
    assert p["readme"] == "README.md" and p["requires-python"].startswith(">=3.11")
    assert p["authors"] == [{"name": "The engbench authors"}], "an entity, as CITATION.cff names it"
    classifiers = p["classifiers"]
    for needle in ("Programming Language :: Python :: 3.11", "Operating System :: POSIX :: Linux",
                   "Topic :: Database", "Intended Audience :: Science/Research", "Framework :: Jupyter"):
        assert needle in classifiers, needle
    assert not [c for c in classifiers if c.startswith("License ::")], "PEP 639: the licence expression, no classifier"
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(p["urls"])


def test_runtime_dependencies_are_ranges_the_lock_satisfies_and_tools_are_extras():
    """Every runtime dependency is a compatible range (>=, <next major) that requirements.txt's pin
    lies in; hdrhistogram is among them; test, lab and workflow tools are extras, never runtime;
    every extra's package is pinned in requirements.txt too (the lock covers the whole project)."""
    from packaging.requirements import Requirement

    p = project()
    lock = pins()
    runtime = [Requirement(r) for r in p["dependencies"]]
    names = {_name(r.name) for r in runtime}
    assert "hdrhistogram" in names, "engbench run imports hdrh (run/ycsb_output.py)"
    assert not names & NOT_RUNTIME, names & NOT_RUNTIME
    for r in runtime:
        spec = str(r.specifier)
        assert ">=" in spec and "<" in spec.replace("<=", ""), f"{r}: a compatible range (>=x,<y)"
        assert lock[_name(r.name)] in r.specifier, f"requirements.txt's {r.name}=={lock[_name(r.name)]} outside {r}"
    extras = p["optional-dependencies"]
    assert {"lab", "test", "workflow"} <= set(extras)
    assert {"jupyterlab"} <= {_name(x) for x in extras["lab"]}
    assert {"pytest", "nbval", "pytest-xdist", "import-linter", "fastparquet"} <= {_name(x) for x in extras["test"]}
    assert {"snakemake", "snakemake-executor-plugin-slurm"} <= {_name(x) for x in extras["workflow"]}
    for extra, reqs in extras.items():
        for r in map(Requirement, reqs):
            if _name(r.name) == "engbench":
                continue
            assert _name(r.name) in lock, f"[{extra}] {r.name} is not pinned in requirements.txt"
            assert lock[_name(r.name)] in r.specifier, f"[{extra}] {r}: the lock's {lock[_name(r.name)]} is outside"
    assert set(lock) <= names | {_name(x) for reqs in extras.values() for x in reqs}, \
        "every pin of the lock is a dependency or an extra's"


def _copy_package(dest: Path) -> Path:
    """The files `pip install .` reads (pyproject.toml, README, licences, src/), as git lists them in
    the working tree: the build writes its build/ and egg-info there, not in the checkout."""
    listed = subprocess.run(["git", "-C", str(paths.REPO), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard", "pyproject.toml", "README.md", "LICENSE", "LICENSES", "src"],
                            capture_output=True, text=True, check=True).stdout
    for rel in filter(None, listed.split("\0")):
        if (paths.REPO / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(paths.REPO / rel, dest / rel)
    return dest


def test_pip_install_dot_gives_an_engbench_that_runs_and_reports(tmp_path):
    uv = paths.REPO / "build" / "uv"
    driver = paths.REPO / "build" / "engbench-driver"
    assert uv.exists() and driver.exists(), "build/uv and build/engbench-driver are made by scripts/setup.sh"
    src = _copy_package(tmp_path / "src")
    cache = Path(os.environ.get("ENGBENCH_CACHE", Path.home() / ".cache" / "engbench")) / "uv"
    uv_env = {**os.environ, "UV_CACHE_DIR": str(cache), "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1"}
    env_dir = tmp_path / "env"
    subprocess.run([str(uv), "venv", "--quiet", "--python", sys.executable, str(env_dir)], env=uv_env, check=True)
    made = subprocess.run([str(uv), "pip", "install", "--quiet", "--python", str(env_dir / "bin" / "python"), "."],
                          cwd=src, env=uv_env, capture_output=True, text=True, timeout=1800)
    assert made.returncode == 0, made.stderr[-3000:]
    listed = subprocess.run([str(uv), "pip", "list", "--python", str(env_dir / "bin" / "python")],
                            env=uv_env, capture_output=True, text=True, check=True).stdout
    installed = {_name(line.split()[0]) for line in listed.splitlines()[2:] if line.strip()}
    assert not installed & NOT_RUNTIME, f"test/lab/workflow tools in a plain install: {installed & NOT_RUNTIME}"

    work = tmp_path / "work"
    work.mkdir()
    env = {"PATH": f"{env_dir / 'bin'}:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": os.environ.get("HOME", "/root"),
           "LANG": "C.UTF-8", "ENGBENCH_DRIVER": str(driver.resolve()), "ENGBENCH_RAW_DIR": str(work / "raw"),
           "ENGBENCH_PROCESSED_DIR": str(work / "processed"), "ENGBENCH_WORK_DIR": str(work / "data")}
    engbench = str(env_dir / "bin" / "engbench")

    def run(*args, timeout=600):
        out = subprocess.run([engbench, *args], cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        assert out.returncode == 0, f"engbench {' '.join(args)}: {out.stdout[-2000:]}{out.stderr[-3000:]}"
        return out

    where = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import engbench; print(engbench.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(env_dir), f"the installed copy, not the checkout's: {where}"
    version = project()["version"]
    said = subprocess.run([engbench, "--version"], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    if said.returncode != 0 and "--version" not in subprocess.run([engbench, "--help"], cwd=work, env=env,
                                                                  capture_output=True, text=True).stdout:
        # the CLI's --version is issue 46's item 6 (another change); until it lands, the package's own
        said = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import engbench; print(engbench.__version__)"],
                              cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert said.returncode == 0 and said.stdout.split()[-1] == version, said.stdout + said.stderr

    out = run("run", "iibench", "--engine", "null", "--set", "max_rows=5000", "--set", "batch=500",
              "--set", "length_char_fields=50", "--no-progress")
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    assert run_dir.parent == work / "raw" and (run_dir / "driver" / "summary.json").is_file(), out.stdout
    run("process")
    assert (work / "processed" / "runs.csv").is_file()
    # the paper's templates and the source documents it cites are the repository's, not the package's
    paper = work / "paper"
    shutil.copytree(paths.REPO / "paper", paper, ignore=shutil.ignore_patterns("build"))
    shutil.copytree(paths.REPO / "data" / "published", work / "published")
    env["ENGBENCH_PUBLISHED_DIR"] = str(work / "published")
    out = run("report", "--out", str(paper), "--baseline", "none", timeout=900)
    html = Path(out.stdout.strip().splitlines()[-1])
    assert html.is_file() and html.parent == paper / "build" and (paper / "build" / "paper.pdf").is_file()
    assert "null" in html.read_text(errors="replace")
