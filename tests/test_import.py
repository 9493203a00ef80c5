"""`engbench import` (issue 14): real runs (sqlite, null) are imported from a directory and from a
tarball; a tampered, an unfinished, a duplicate and a conflicting run are refused with their reason
and nothing is written; runs from two hosts (two manifests with different hardware) get two
machine keys, and so two groups when the processed runs table is keyed by them."""

import json
import os
import shutil
import subprocess
import sys
import tarfile

import pandas as pd
import pytest

from engbench import importer
from engbench.run import machine, rundir

ENGBENCH = [sys.executable, "-m", "engbench.cli"]
HW = {"cpu_model": "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", "ncpu": 2, "memory_bytes": 24 * 2**30 - 5 * 2**20,
      "data_device": {"name": "vda", "model": None, "scheduler": "mq-deadline", "rotational": False},
      "filesystem": {"mount_point": "/", "fstype": "ext4", "options": "rw,relatime"}}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Two real, sealed runs made here (sqlite and null, a second or two each)."""
    out = tmp_path_factory.mktemp("made")
    for engine in ("sqlite", "null"):
        subprocess.run(ENGBENCH + ["run", "iibench", "--engine", engine, "--set", "max_rows=2000",
                                   "--set", "num_secondary_indexes=1", "--out", str(out), "--no-progress"],
                       check=True, capture_output=True, env={**os.environ, "ENGBENCH_WORK_DIR": str(out / "work")})
    shutil.rmtree(out / "work", ignore_errors=True)
    return sorted(p for p in out.iterdir() if (p / "manifest.json").is_file())


def _import(source, raw, *extra):
    return subprocess.run(ENGBENCH + ["import", str(source), "--raw", str(raw), *extra],
                          capture_output=True, text=True)


def _editable_copy(run, dest, name=None):
    copy = dest / (name or run.name)
    shutil.copytree(run, copy)
    for root, dirs, files in os.walk(copy):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    return copy


def _as_other_host(run, dest, host, hardware):
    """The run as another machine would have made it: its name, run_id and hardware, sealed."""
    name = run.name.rsplit("_", 1)[0] + f"_{host}"
    copy = _editable_copy(run, dest, name)
    (copy / "SHA256SUMS").unlink()
    manifest = rundir.read_manifest(copy)
    manifest.update(run_id=name, hardware=hardware)
    rundir.write_manifest(copy, manifest)
    rundir.seal(copy)
    return copy


def test_machine_key_by_hand():
    key = machine.machine_key(HW)
    assert key.startswith("2cpu-24g-ext4-") and len(key) == len("2cpu-24g-ext4-") + 8
    assert machine.machine_key(json.loads(json.dumps(HW))) == key  # pure and stable
    # names are not hardware; a few MB of memory is not another machine
    renamed = {**HW, "memory_bytes": HW["memory_bytes"] + 3 * 2**20,
               "data_device": {**HW["data_device"], "name": "nvme0n1"},
               "filesystem": {**HW["filesystem"], "mount_point": "/data"}}
    assert machine.machine_key(renamed) == key
    for other in ({**HW, "cpu_model": "AMD EPYC 7B13"}, {**HW, "ncpu": 4}, {**HW, "memory_bytes": 8 * 2**30},
                  {**HW, "data_device": {**HW["data_device"], "rotational": True}},
                  {**HW, "filesystem": {**HW["filesystem"], "fstype": "xfs"}}):
        assert machine.machine_key(other) != key
    assert machine.machine_key(None).startswith("?cpu-0g-unknown-")


def test_import_a_directory_and_a_tarball(made, tmp_path):
    raw = tmp_path / "raw"
    out = _import(made[0].parent, raw)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in raw.iterdir()) == [r.name for r in made]
    for r in made:
        assert rundir.check(raw / r.name) == []
        assert (raw / r.name / "SHA256SUMS").read_bytes() == (r / "SHA256SUMS").read_bytes()
        assert not os.stat(raw / r.name / "manifest.json").st_mode & 0o222  # read-only, as sealed
        assert f"machine {machine.machine_key(rundir.read_manifest(r)['hardware'])}" in out.stdout

    tarball = tmp_path / "runs.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(made[0], arcname=f"cluster/raw/{made[0].name}")
    raw2 = tmp_path / "raw2"
    out = _import(tarball, raw2)
    assert out.returncode == 0, out.stderr
    assert [p.name for p in raw2.iterdir()] == [made[0].name] and rundir.check(raw2 / made[0].name) == []


def test_tampered_unfinished_duplicate_and_conflicting_runs_are_refused(made, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    tampered = _editable_copy(made[0], src)
    with open(tampered / "iostat.txt", "a") as f:
        f.write("\n")
    raw = tmp_path / "raw"
    out = _import(src, raw)
    assert out.returncode == 1
    assert f"refused {tampered.name}: tampered: {tampered.name}/iostat.txt: changed" in out.stderr
    assert not raw.exists()  # nothing written

    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    run = _editable_copy(made[1], unfinished)  # as a machine that died mid-run leaves it
    (run / "SHA256SUMS").unlink()
    rundir.write_manifest(run, {**rundir.read_manifest(run), "status": "running", "ended_utc": None})
    out = _import(unfinished, raw)
    assert out.returncode == 1 and "unfinished: manifest status is 'running'" in out.stderr
    assert not raw.exists()

    assert _import(made[0], raw).returncode == 0
    before = {p: p.stat().st_mtime_ns for p in (raw / made[0].name).rglob("*")}
    out = _import(made[0], raw)
    assert out.returncode == 1 and f"refused {made[0].name}: duplicate: already in {raw}" in out.stderr

    conflict = tmp_path / "conflict"
    conflict.mkdir()
    other = _as_other_host(made[0], conflict, "elsewhere", HW)
    other = other.rename(conflict / made[0].name)  # same name, different content
    manifest = rundir.read_manifest(other)
    manifest["run_id"] = other.name
    rundir.write_manifest(other, manifest)
    rundir.seal(other)
    out = _import(conflict, raw)
    assert out.returncode == 1 and "conflict: a different run named" in out.stderr
    assert {p: p.stat().st_mtime_ns for p in (raw / made[0].name).rglob("*")} == before  # untouched

    # a mix: strict by default, --skip-refused takes what passes
    mixed = tmp_path / "mixed"
    shutil.copytree(src, mixed / "a")
    _editable_copy(made[1], mixed)
    assert _import(mixed, raw).returncode == 1 and not (raw / made[1].name).exists()
    out = _import(mixed, raw, "--skip-refused")
    assert out.returncode == 1 and (raw / made[1].name).is_dir() and "refused" in out.stderr


def test_unsafe_or_bad_sources_are_refused(tmp_path, made):
    evil = tmp_path / "evil.tar"
    with tarfile.open(evil, "w") as tar:
        tar.add(made[0], arcname=made[0].name)
        info = tarfile.TarInfo("../escape")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tar.addfile(info)
    raw = tmp_path / "raw"
    out = _import(evil, raw)
    assert out.returncode == 2 and "unsafe archive member '../escape'" in out.stderr and not raw.exists()
    (tmp_path / "junk.tar.gz").write_bytes(b"not an archive")
    out = _import(tmp_path / "junk.tar.gz", raw)
    assert out.returncode == 2 and "not a readable tar archive" in out.stderr
    (tmp_path / "empty").mkdir()
    out = _import(tmp_path / "empty", raw)
    assert out.returncode == 2 and "no run directory" in out.stderr and not raw.exists()


def test_runs_from_two_hosts_give_two_machine_groups(made, tmp_path):
    src = tmp_path / "two-hosts"
    src.mkdir()
    mine = rundir.read_manifest(made[0])["hardware"]
    _editable_copy(made[0], src)
    _as_other_host(made[0], src, "bignode", {**mine, "ncpu": 64, "memory_bytes": 512 * 2**30,
                                             "cpu_model": "AMD EPYC 7B13"})
    raw = tmp_path / "raw"
    assert _import(src, raw).returncode == 0
    processed = tmp_path / "processed"
    out = subprocess.run(ENGBENCH + ["process", "--raw", str(raw), "--out", str(processed)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    runs = pd.read_csv(processed / "runs.csv")
    runs["machine"] = [machine.machine_key(rundir.read_manifest(raw / r)["hardware"]) for r in runs["run_id"]]
    groups = runs.groupby("machine")["run_id"].apply(sorted).to_dict()
    assert len(groups) == 2
    assert machine.machine_key(mine) in groups and any(k.startswith("64cpu-512g-") for k in groups)
    assert all(len(v) == 1 for v in groups.values())


def _kib(tree) -> int:
    """KiB a tree's files take on tmpfs: whole 4 KiB pages (directories take none)."""
    return sum(-(-p.stat().st_size // 4096) * 4 for p in tree.rglob("*") if p.is_file())


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_copy_that_fails_half_way_imports_nothing(made, tmp_path):
    """All or nothing: data/raw on a tmpfs with room for the first run but not the second (a disk
    that fills during the import). Before, the first run stayed imported and nothing said which;
    now nothing is imported, the error says so, and no staging directory is left."""
    raw = tmp_path / "raw"
    raw.mkdir()
    first, second = (_kib(r) for r in made)
    size = first + second // 2  # the first run and half the second
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}k", "tmpfs", str(raw)], check=True)
    try:
        out = _import(made[0].parent, raw)
        assert out.returncode == 2, (out.stdout, out.stderr)
        assert "engbench import: import failed (" in out.stderr and "No space left on device" in out.stderr
        assert f"nothing imported into {raw}" in out.stderr
        assert list(raw.iterdir()) == []  # not the first run, not the staging directory
        assert out.stdout == ""
        with pytest.raises(importer.ImportFailed) as err:
            importer.import_runs(made[0].parent, raw)
        assert err.value.imported == []
    finally:
        subprocess.run(["umount", str(raw)], check=True)
    out = _import(made[0].parent, raw)  # with room, both
    assert out.returncode == 0 and sorted(p.name for p in raw.iterdir()) == [r.name for r in made]
