"""The run directory: its name, its manifest, and its seal (SHA256SUMS + read-only files).

A run directory is created exclusively (never reused), its manifest is written first with status
`running` and finalized last, and sealing is the last write it ever receives."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
from pathlib import Path

from .. import paths
from . import machine
from .servers.redact import redact

MANIFEST = "manifest.json"
WORKFLOW_RECORD = "workflow.json"  # a workflow trial's record (engbench.matrix), sealed with the run
SUMS = "SHA256SUMS"
DRIVER_PROCESS = "driver_process.csv"  # the driver process's samples (capture.ProcessSampler, 1 s)
DRIVER_PROCESS_NAMES = (DRIVER_PROCESS, "process.csv")  # process.csv: its name in runs recorded before
STATUSES = ("running", "ok", "failed", "interrupted", "abandoned")
LEFTOVERS = (MANIFEST + ".tmp", SUMS + ".tmp")  # engbench's own half-written files, removed before a late seal


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def iso(t: dt.datetime) -> str:
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def create(parent: Path, workload: str, engine: str, when: dt.datetime | None = None) -> Path:
    """Make `<parent>/<UTC timestamp>_<workload>_<engine>_<host>` exclusively; if that name is
    taken (two runs in one second) a `-2`, `-3`… suffix is added: an existing directory is never
    reused."""
    when = when or utc_now()
    base = f"{when:%Y%m%dT%H%M%SZ}_{workload}_{engine}_{machine.hostname()}"
    parent.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        path = parent / (base if n == 1 else f"{base}-{n}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
    raise RuntimeError(f"could not create a new run directory under {parent}")


def owner() -> dict:
    """Who is writing a run: recorded in the manifest from its first write, so the next engbench
    can tell a run whose engbench died (pid or boot gone) from one still in progress."""
    import psutil
    return {"pid": os.getpid(), "boot_id": machine.boot_id(), "start_time": psutil.Process().create_time()}


def owner_alive(info: dict | None) -> bool | None:
    """True/False for a recorded owner; None when the manifest predates the record."""
    import psutil
    if not info or not info.get("pid"):
        return None
    if info.get("boot_id") != machine.boot_id():
        return False
    try:
        return abs(psutil.Process(int(info["pid"])).create_time() - float(info.get("start_time") or 0)) < 0.05
    except psutil.Error:
        return False


def abandon(run_dir: Path) -> bool:
    """A run directory left `running` (unsealed) by an engbench that is gone: status `abandoned`
    with the reason, partial captures kept and sealed. True if it was one."""
    run_dir = Path(run_dir)
    if (run_dir / SUMS).exists():
        return False
    try:
        m = read_manifest(run_dir)
    except (OSError, ValueError):
        return False
    info = m.get("engbench")
    if m.get("status") != "running" or owner_alive(info) is not False:
        return False
    close_left(run_dir, "abandoned",
               f"engbench (pid {info['pid']}, boot {info['boot_id']}) ended without finalizing this run "
               "(killed, out of memory or power loss); its partial captures were sealed as found"
               + _last_words(run_dir))
    return True


def _last_words(run_dir: Path, lines: int = 5) -> str:
    """What the run itself said before it was left, for an abandoned run's error: the driver's
    summary error, else the tail of its stderr.log ("" when neither says anything)."""
    try:
        said = (json.loads((run_dir / "driver" / "summary.json").read_text()) or {}).get("error")
    except (OSError, ValueError, AttributeError):
        said = None
    if not said:
        try:
            said = "\n".join((run_dir / "driver" / "stderr.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            said = None
    return f"\n--- the driver's last words ---\n{said.strip()}" if said and said.strip() else ""


def close_left(run_dir: Path, status: str, error: str) -> None:
    """Finalize a run its engbench left: engbench's own half-written files (LEFTOVERS) removed, the
    manifest's status and error set, sealed. The captures are sealed as found."""
    run_dir = Path(run_dir)
    for name in LEFTOVERS:
        (run_dir / name).unlink(missing_ok=True)
    m = read_manifest(run_dir)
    m.update(status=status, error=error, **{f"{status}_utc": iso(utc_now())} if status == "abandoned" else {})
    write_manifest(run_dir, m)
    seal(run_dir)


def mark_abandoned(parent: Path) -> list[Path]:
    """Run directories under `parent` left `running` by an engbench that is gone, abandoned (see
    `abandon`). Returns them."""
    return [m_path.parent for m_path in sorted(Path(parent).glob(f"*/{MANIFEST}")) if abandon(m_path.parent)]


def leftover_tmp(parent: Path, min_age_s: float = 60.0) -> list[tuple[Path, str]]:
    """Run directories under `parent` holding a manifest.json.tmp but no manifest.json (an engbench
    died while writing its first manifest, e.g. on a full disk), older than `min_age_s`: one whose
    tmp is a whole manifest gets it as its manifest (`abandon` then applies); one holding nothing
    else is removed. Returns (path, what was done)."""
    import time
    done = []
    for tmp in sorted(Path(parent).glob(f"*/{MANIFEST}.tmp")):
        run_dir = tmp.parent
        try:
            if (run_dir / MANIFEST).exists() or time.time() - tmp.stat().st_mtime < min_age_s:
                continue
            try:
                m = json.loads(tmp.read_text())
            except ValueError:
                m = None
            if isinstance(m, dict) and m.get("status") == "running" and owner_alive(m.get("engbench")) is False:
                os.replace(tmp, run_dir / MANIFEST)
                if abandon(run_dir):
                    done.append((run_dir, "its engbench died while writing its manifest: marked abandoned"))
            elif [p.name for p in run_dir.iterdir()] == [tmp.name]:
                tmp.unlink()
                run_dir.rmdir()
                done.append((run_dir, "removed: it held only a half-written manifest of an engbench that is gone"))
            else:
                done.append((run_dir, "holds a half-written manifest and no manifest.json: left as it is"))
        except OSError as exc:
            done.append((run_dir, f"holds a half-written manifest that could not be handled ({exc})"))
    return done


def write_manifest(run_dir: Path, manifest: dict) -> None:
    """Atomic replace, so a reader never sees half a manifest; the machine's paths as placeholders
    (`paths.placeholders`) and every URI's password as `***` (servers.redact, by the URI's form only: a value that
    happens to equal a password is kept). A write that fails (a full disk) leaves no
    manifest.json.tmp behind."""
    assert manifest["status"] in STATUSES, manifest["status"]
    tmp = run_dir / (MANIFEST + ".tmp")
    try:
        text = json.dumps(redact(paths.placeholders(manifest, run_dir), from_env=False), indent=2, sort_keys=True, default=str)
        tmp.write_text(text + "\n")
        os.replace(tmp, run_dir / MANIFEST)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_manifest(run_dir: Path) -> dict:
    return json.loads((Path(run_dir) / MANIFEST).read_text())


def _files(run_dir: Path) -> list[Path]:
    return sorted(p for p in run_dir.rglob("*") if p.is_file() and p.name not in (SUMS, SUMS + ".tmp"))


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def seal(run_dir: Path) -> None:
    """Write SHA256SUMS (sha256sum's format, paths relative to the run directory) for every file,
    then make every file and directory read-only."""
    run_dir = Path(run_dir)
    lines = [f"{sha256(p)}  {p.relative_to(run_dir).as_posix()}\n" for p in _files(run_dir)]
    tmp = run_dir / (SUMS + ".tmp")  # atomic: a half-written SHA256SUMS would read as a sealed run
    try:
        tmp.write_text("".join(lines))
        os.replace(tmp, run_dir / SUMS)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    ro_file = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
    ro_dir = ro_file | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
    for p in sorted(run_dir.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        p.chmod(ro_dir if p.is_dir() else ro_file)
    run_dir.chmod(ro_dir)


def check(run_dir: Path) -> list[str]:
    """Problems with a sealed run directory: missing SHA256SUMS, files changed, missing or extra.
    Empty list: intact."""
    run_dir = Path(run_dir)
    sums = run_dir / SUMS
    if not sums.exists():
        return [f"{run_dir.name}: no {SUMS} (never sealed)"]
    listed = {}
    for line in sums.read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    problems = []
    present = {p.relative_to(run_dir).as_posix(): p for p in _files(run_dir)}
    for name, digest in sorted(listed.items()):
        if name not in present:
            problems.append(f"{run_dir.name}/{name}: missing")
        elif sha256(present[name]) != digest:
            problems.append(f"{run_dir.name}/{name}: changed (sha256 differs)")
    for name in sorted(set(present) - set(listed)):
        problems.append(f"{run_dir.name}/{name}: extra file, not in {SUMS}")
    return problems


def runs_in(raw_root) -> list[Path]:
    """Every run directory (one holding manifest.json) directly in raw_root, sorted; the runs of a
    raw folder (importer.runs_below looks at every depth)."""
    root = Path(raw_root)
    return sorted(p for p in root.iterdir() if (p / MANIFEST).is_file()) if root.is_dir() else []
