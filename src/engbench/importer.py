"""Bringing run directories from other machines into data/raw (`engbench import PATH|TARBALL`),
and the machine key that keeps their numbers apart.

A source is a run directory, a directory holding run directories (at any depth), or a tar archive
of either (.tar, .tar.gz/.tgz, .tar.bz2, .tar.xz). Every run found is checked before anything is
written: its manifest says `ok` (a `running`, `failed` or `interrupted` run is unfinished), it is
sealed (SHA256SUMS) and every file matches its checksum, no file is listed as missing or extra, its
name is the manifest's run_id, and no run of that name is in data/raw already or twice in the
source. If any run is refused, nothing is imported (unless `skip_refused`): each refusal is given
with its reason. The accepted runs are copied into one hidden directory next to data/raw, verified
again there, made read-only, and only then renamed into place: all or nothing — a copy that fails
(a full disk) or a run that appears meanwhile leaves data/raw as it was, and the error
(ImportFailed) says what was imported, if undoing a rename failed too. An existing run directory
is never touched.
Archive members that are links, devices, absolute or `..` paths are refused before extraction."""

from __future__ import annotations

import shutil
import stat
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .run import rundir
from .run.machine import machine_key


class SourceError(ValueError):
    """The source itself is unusable (missing, not a run, an unsafe or unreadable archive)."""


@dataclass
class Report:
    imported: list = field(default_factory=list)   # (run_id, machine key)
    refused: list = field(default_factory=list)    # (run name, reason)

    @property
    def ok(self) -> bool:
        return not self.refused


def refusal(run: Path, raw: Path) -> str | None:
    """Why `run` cannot be imported into `raw`, or None."""
    try:
        manifest = rundir.read_manifest(run)
    except (OSError, ValueError) as exc:
        return f"unreadable manifest.json ({exc})"
    if manifest.get("status") != "ok":
        return f"unfinished: manifest status is {manifest.get('status')!r}, not 'ok'"
    if not (run / rundir.SUMS).is_file():
        return f"not sealed: no {rundir.SUMS}"
    problems = rundir.check(run)
    if problems:
        return "tampered: " + "; ".join(problems)
    if manifest.get("run_id") != run.name:
        return f"renamed: the directory is {run.name!r} but its manifest's run_id is {manifest.get('run_id')!r}"
    existing = raw / run.name
    if existing.exists():
        same = (existing / rundir.SUMS).is_file() and \
            (existing / rundir.SUMS).read_bytes() == (run / rundir.SUMS).read_bytes()
        return ("duplicate: already in " + str(raw)) if same else \
            f"conflict: a different run named {run.name} is already in {raw}; it is not overwritten"
    return None


def runs_below(root: Path) -> list[Path]:
    """Directories holding manifest.json at any depth below (or being) `root`, not looking inside a
    run (rundir.runs_in looks only directly in a raw folder)."""
    if (root / rundir.MANIFEST).is_file():
        return [root]
    found = []
    for child in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink()):
        found += runs_below(child)
    return found


def _safe_extract(archive: Path, dest: Path) -> None:
    try:
        with tarfile.open(archive) as tar:
            members = tar.getmembers()
            for m in members:
                parts = Path(m.name).parts
                if not (m.isfile() or m.isdir()) or m.name.startswith("/") or ".." in parts:
                    raise SourceError(f"{archive}: unsafe archive member {m.name!r} "
                                       "(only plain files and directories under the archive's root)")
            tar.extractall(dest, members=members)
    except (tarfile.TarError, OSError) as exc:
        raise SourceError(f"{archive}: not a readable tar archive ({exc})") from None


def _read_only(tree: Path) -> None:
    for p in sorted(tree.rglob("*"), key=lambda p: len(p.parts), reverse=True) + [tree]:
        mode = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
        p.chmod(mode | (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if p.is_dir() else 0))


class ImportFailed(SourceError):
    """An import that failed after it began writing: ``imported`` names exactly the runs left in
    data/raw (none, unless undoing a move failed too)."""

    def __init__(self, message: str, imported=()):
        super().__init__(message)
        self.imported = list(imported)


def _stage(run: Path, staging: Path) -> Path:
    """Copy ``run`` into the hidden staging directory beside the runs, verify the copy, make it
    read-only; its path."""
    copy = staging / run.name
    shutil.copytree(run, copy, symlinks=False)
    problems = rundir.check(copy)
    if problems:
        raise SourceError(f"{run.name}: the copy does not verify: {'; '.join(problems)}")
    _read_only(copy)
    return copy


def _copy_in(runs: list, raw: Path) -> list:
    """All or nothing: every run copied into one hidden staging directory beside the runs and
    verified there, then each renamed into place. A failure while staging moves nothing; a
    failure while renaming (a run of that name appeared meanwhile) moves the renamed ones back
    into staging. Either way ImportFailed says so, naming any run it could not move back. The
    names moved, in order."""
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=raw))
    moved = []
    try:
        try:
            staged = [(run.name, _stage(run, staging)) for run in runs]
            for name, copy in staged:
                if (raw / name).exists():  # appeared meanwhile: never overwrite
                    raise SourceError(f"{name}: appeared in {raw} during the import; not overwritten")
                copy.rename(raw / name)
                moved.append(name)
        except (SourceError, OSError) as exc:
            kept = []
            for name in reversed(moved):
                try:
                    (raw / name).rename(staging / name)
                except OSError:
                    kept.append(name)
            what = (f"imported and left in {raw}: {', '.join(sorted(kept))}" if kept
                    else f"nothing imported into {raw}")
            raise ImportFailed(f"import failed ({type(exc).__name__}: {exc}); {what}", sorted(kept)) from None
    finally:
        for p in staging.rglob("*"):
            p.chmod(0o700)
        shutil.rmtree(staging, ignore_errors=True)
    return moved


def import_runs(source: Path, raw: Path, skip_refused: bool = False) -> Report:
    """Check every run of `source`, then (all accepted, or `skip_refused`) copy the accepted ones."""
    source, raw = Path(source), Path(raw)
    if not source.exists():
        raise SourceError(f"{source}: no such file or directory")
    with tempfile.TemporaryDirectory(prefix="engbench-import-") as tmp:
        if source.is_file():
            _safe_extract(source, Path(tmp))
            root = Path(tmp)
        else:
            root = source
        runs = runs_below(root)
        if not runs:
            raise SourceError(f"{source}: no run directory (none holds {rundir.MANIFEST})")
        report, accepted, names = Report(), [], set()
        for run in runs:
            reason = refusal(run, raw)
            if reason is None and run.name in names:
                reason = "duplicate: the source holds two runs of this name"
            names.add(run.name)
            if reason:
                report.refused.append((run.name, reason))
            else:
                accepted.append(run)
        if report.refused and not skip_refused:
            return report
        raw.mkdir(parents=True, exist_ok=True)
        _copy_in(accepted, raw)
        report.imported = [(run.name, machine_key(rundir.read_manifest(run).get("hardware"))) for run in accepted]
    return report
