"""environment.yml is the real analysis environment: it installs engbench itself and pins, at
requirements.txt's versions, exactly the packages the shipped-data notebooks need (NEEDED: what
they import, through engbench, plus JupyterLab and its kernel) and nothing of the benchmarking,
test or workflow toolchain; it follows repo2docker's (Binder's) conventions, and an environment
made from its own pip list runs the shipped-data notebooks, strictly checked, as a user without
root and without the compiled driver, as on a Binder image (nbval and pytest, the check's own
tools, are added to it by the test).

Conda is not reachable here, so the environment is made the way conda's pip step makes it: a fresh
virtual environment of the interpreter the yml names, `pip install -r <the yml's pip list>` run from
the repository root (done by uv from the shared download cache, scripts/setup.sh: no registry access
for cached wheels)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from engbench import paths
from engbench.notebooks import files, refresh

ENV_FILE = paths.REPO / "environment.yml"
LOCAL = "-e ."
# what the four shipped-data notebooks import (directly or through the engbench modules they use:
# tables, normalize, findings, published, report.rum_tradeoffs, workloads.ycsb.tradeoffs), and
# JupyterLab with its kernel to open them; engbench's other runtime dependencies (the report's
# typst and pandoc, the server clients, jupytext) come with `-e .`, in pyproject.toml's ranges
NEEDED = {"pandas", "numpy", "pyarrow", "scipy", "altair", "vl-convert-python", "frictionless", "hdrhistogram",
          "papermill", "nbformat", "ipykernel", "psutil", "pyyaml", "tqdm", "jinja2", "jupyterlab"}
CHECK_TOOLS = ("pytest", "nbval")  # the test's own, pinned from requirements.txt


def environment() -> dict:
    return yaml.safe_load(ENV_FILE.read_text())


def pip_list(env: dict) -> list[str]:
    lists = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(lists) == 1, "one pip list"
    return [str(x).strip() for x in lists[0]]


def requirements() -> list[str]:
    return [line.strip() for line in (paths.REPO / "requirements.txt").read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def python_of(env: dict) -> str:
    spec = next(d for d in env["dependencies"] if isinstance(d, str) and re.match(r"python\b", d))
    return re.fullmatch(r"python\s*=+\s*([\d.]+)", spec).group(1)


def test_the_pins_are_the_notebooks_needs_at_requirements_txts_versions():
    env = environment()
    listed = pip_list(env)
    assert LOCAL in listed, "environment.yml installs engbench from the repository (pip -e .)"
    pins = [x for x in listed if x != LOCAL]
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.+\-]+", p) for p in pins), "every entry pinned"
    names = {p.split("==")[0].lower() for p in pins}
    assert names == NEEDED, f"beyond the notebooks' needs: {sorted(names - NEEDED)}; missing: {sorted(NEEDED - names)}"
    lock = {r.lower() for r in requirements()}
    assert {p.lower() for p in pins} <= lock, "at requirements.txt's versions"
    for tool in ("selenium", "snakemake", "snakemake-executor-plugin-slurm", "pymongo", "pymysql", "pytest", "nbval",
                 "import-linter", "typst", "pypandoc-binary", "pytest-xdist", "fastparquet"):
        assert tool not in names, tool


def test_the_repository_follows_repo2dockers_conventions():
    """repo2docker reads environment.yml at the root (or in binder/), builds a conda environment from
    it with the named Python, and ignores requirements.txt when it is there; it stages the whole
    repository before the build when the pip list names a local path, as `-e .` does."""
    env = environment()
    assert not (paths.REPO / "binder").exists() and not (paths.REPO / ".binder").exists(), \
        "one configuration: the root's environment.yml"
    version = python_of(env)
    assert version.count(".") == 1, "python=MAJOR.MINOR: repo2docker picks its base by it"
    requires = re.search(r'requires-python\s*=\s*">=([\d.]+)"', (paths.REPO / "pyproject.toml").read_text()).group(1)
    assert tuple(map(int, version.split("."))) >= tuple(map(int, requires.split(".")))
    assert "pip" in env["dependencies"], "conda installs pip before the pip list"
    post = paths.REPO / "postBuild"
    assert not post.exists() or os.access(post, os.X_OK), "a postBuild must be executable"


def _uv() -> Path:
    uv = paths.REPO / "build" / "uv"
    assert uv.exists(), "build/uv is made by scripts/setup.sh (the uv of its tools environment)"
    return uv


def _copy_checkout(dest: Path) -> Path:
    """What a Binder build has of this repository: the working tree's files that git knows or would
    add, with git HEAD's shipped runs and tables (the main job adds runs to the working tree's)."""
    listed = subprocess.run(["git", "-C", str(paths.REPO), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, text=True, check=True).stdout
    for rel in filter(None, listed.split("\0")):
        if rel.startswith(refresh.SHIPPED_PATHS) or not (paths.REPO / rel).is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(paths.REPO / rel, dest / rel)
    refresh.export_shipped(dest)
    return dest


def test_an_environment_from_environment_yml_runs_the_shipped_data_notebooks_without_root(tmp_path):
    env = environment()
    assert f"{sys.version_info.major}.{sys.version_info.minor}" == python_of(env), \
        "the tests' interpreter is the one environment.yml names"
    root = Path(tempfile.mkdtemp(prefix="engbench-binder-"))  # not under pytest's root-only tmp
    try:
        os.chmod(root, 0o755)
        repo = _copy_checkout(root / "repo")
        started = time.monotonic()
        uv_env = {**os.environ, "UV_CACHE_DIR": str(Path(os.environ.get("ENGBENCH_CACHE", Path.home() / ".cache"
                                                                         / "engbench")) / "uv"),
                  "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1",
                  "UV_LINK_MODE": "copy"}  # copies, not hard links: the environment is chowned below
        subprocess.run([str(_uv()), "venv", "--quiet", "--python", sys.executable, str(root / "env")],
                       env=uv_env, check=True, capture_output=True, text=True)
        reqs = tmp_path / "environment-pip.txt"
        tools = [r for r in requirements() if r.split("==")[0].lower() in CHECK_TOOLS]
        assert len(tools) == len(CHECK_TOOLS)
        reqs.write_text("\n".join([*pip_list(env), *tools]) + "\n")
        made = subprocess.run([str(_uv()), "pip", "install", "--quiet", "--python", str(root / "env" / "bin" / "python"),
                               "-r", str(reqs)], cwd=repo, env=uv_env, capture_output=True, text=True, timeout=1800)
        assert made.returncode == 0, made.stderr[-3000:]
        print(f"analysis environment made in {time.monotonic() - started:.1f} s")
        (root / "home").mkdir()
        subprocess.run(["chown", "-R", "nobody:nogroup", str(root)], check=True)
        user_env = {"HOME": str(root / "home"), "PATH": f"{root / 'env' / 'bin'}:/usr/bin:/bin", "LANG": "C.UTF-8",
                    "ENGBENCH_DRIVER": str(root / "no-driver" / "engbench-driver")}  # no compiled driver
        as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        where = subprocess.run([*as_user, str(root / "env" / "bin" / "python"), "-c",
                                "import engbench, os; print(engbench.__file__); print(os.geteuid())"],
                               cwd=repo, env=user_env, capture_output=True, text=True, check=True).stdout.split()
        assert Path(where[0]).is_relative_to(repo / "src") and where[1] != "0", where
        notebooks = [str(p.relative_to(repo)) for p in files.shipped_data(repo / "notebooks")]
        assert len(notebooks) == len(files.SHIPPED_DATA)
        started = time.monotonic()
        out = subprocess.run([*as_user, str(root / "env" / "bin" / "python"), "-m", "pytest", "-q", "-p",
                              "no:cacheprovider", "--nbval", "--nbval-sanitize-with", "notebooks/nbval-sanitize.cfg",
                              *notebooks], cwd=repo, env=user_env, capture_output=True, text=True, timeout=3600)
        assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
        assert re.search(r"\b\d+ passed\b", out.stdout) and "failed" not in out.stdout
        print(f"shipped-data notebooks checked strictly in {time.monotonic() - started:.1f} s")
    finally:
        shutil.rmtree(root, ignore_errors=True)



def test_the_readme_links_binder_and_says_what_needs_set_up():
    readme = (paths.REPO / "README.md").read_text()
    section = readme[readme.index("## Binder, conda, and what needs root"):]
    section = section[:section.index("\n## ", 1)]
    assert re.search(r"\[!\[Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]\(https://mybinder\.org/v2/gh/", section)
    for notebook in files.SHIPPED_DATA:
        assert f"`{Path(notebook).stem}`" in section, notebook
    assert "scripts/setup.sh" in section and "placeholder" in section.lower(), \
        "what needs the set-up, and that the link waits for a public repository"
