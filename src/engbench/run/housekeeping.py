"""What a dead engbench left behind, found and finished by the next one (runs.execute calls
`housekeeping` first), and the claim file that lets it.

    claim = Claim.make(work, run_dir)   # <work>/<run id>.engbench.json: owner, run directory, reason
    claim.give_up(reason)               # the run could not finalize its own directory: why, in place
    claim.release()                     # the run was finalized and its engine data removed or kept
    housekeeping(out_dir)               # every claim whose owner is gone (or gave up): the run
                                        # finalized with the reason it left (`failed`), its engine
                                        # data removed; then rundir.mark_abandoned, leftover
                                        # manifest.json.tmp, cgroups, speed-probe files

A claim is written when the run directory is made, padded to CLAIM_BYTES, so that giving up later
rewrites bytes the file already owns: a reason can still be kept when the disk under the work
directory is full too. Engine data is only removed for a claim whose owner is dead
(rundir.owner_alive) or for a run directory this housekeeping marks abandoned."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from .. import paths
from . import cgroups, rundir, speed

CLAIM_SUFFIX = ".engbench.json"
CLAIM_BYTES = 8192


class Claim:
    """One run's claim on its engine data directory (<work>/<run id>) and its run directory."""

    def __init__(self, path: Path, doc: dict):
        self.path, self.doc = Path(path), doc

    @classmethod
    def make(cls, work: Path, run_dir: Path) -> "Claim":
        work = Path(work)
        work.mkdir(parents=True, exist_ok=True)
        claim = cls(work / f"{run_dir.name}{CLAIM_SUFFIX}",
                    {"run_id": run_dir.name, "run_dir": str(run_dir), "engbench": rundir.owner(), "reason": None})
        with open(claim.path, "wb") as f:
            f.write(claim._bytes())
        return claim

    @classmethod
    def read(cls, path: Path) -> "Claim | None":
        try:
            doc = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            return None
        return cls(path, doc) if isinstance(doc, dict) and doc.get("run_id") else None

    def _bytes(self) -> bytes:
        doc = dict(self.doc)
        data = json.dumps(doc).encode()
        while len(data) > CLAIM_BYTES - 1 and doc.get("reason"):  # a reason too long for the claim: cut
            doc["reason"] = doc["reason"][: len(doc["reason"]) // 2] + " [...]"
            data = json.dumps(doc).encode()
        return data + b"\n" + b" " * (CLAIM_BYTES - len(data) - 1)

    def give_up(self, reason: str) -> bool:
        """Record why the run could not finalize its directory, in the claim's own bytes. True if kept."""
        self.doc["reason"] = reason
        try:
            fd = os.open(self.path, os.O_WRONLY)
            try:
                os.pwrite(fd, self._bytes(), 0)
                os.fsync(fd)
            finally:
                os.close(fd)
            return True
        except OSError:
            return False

    def release(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


def _say(text: str) -> None:
    print(f"engbench: {text}", file=sys.stderr)


def _remove_data(work: Path, run_id: str) -> None:
    data = Path(work) / run_id
    if data.is_dir():
        shutil.rmtree(data, ignore_errors=True)
        _say(f"removed the engine data of {run_id} ({data}) left by an engbench that is gone")


def _finish_claims(work: Path) -> None:
    """Each claim whose engbench is gone or gave up: its run finalized with its reason, its engine
    data removed, the claim released."""
    for path in sorted(Path(work).glob(f"*{CLAIM_SUFFIX}")) if Path(work).is_dir() else []:
        claim = Claim.read(path)
        if claim is None:
            continue
        reason = claim.doc.get("reason")
        if not reason and rundir.owner_alive(claim.doc.get("engbench")) is not False:
            continue  # its engbench is still at work (or a claim of unknown owner: left alone)
        run_dir = Path(claim.doc.get("run_dir") or "")
        if reason and (run_dir / rundir.MANIFEST).is_file() and not (run_dir / rundir.SUMS).exists():
            try:
                rundir.close_left(run_dir, "failed", f"{reason}\n(finalized by the next engbench: the run's own "
                                  "engbench could not write its directory)")
                _say(f"{run_dir.name} could not be finalized by its engbench: marked failed with the reason it left")
            except OSError as exc:
                _say(f"{run_dir.name}: still cannot be finalized ({exc}); its reason stays in {path}")
                continue
        elif not reason:
            try:
                if rundir.abandon(run_dir):
                    _say(f"{run_dir.name} was left running by an engbench that is gone: marked abandoned")
            except OSError as exc:
                _say(f"{run_dir.name}: could not be marked abandoned ({exc})")
                continue
        _remove_data(work, claim.doc["run_id"])
        claim.release()


def housekeeping(out_dir: Path) -> None:
    """What a dead engbench left: its runs finalized (`failed` with a reason it left, else
    `abandoned`) and sealed, its engine data and cgroups removed, half-written manifests handled."""
    work = paths.work_dir()
    _finish_claims(work)
    try:
        for run_dir in rundir.mark_abandoned(out_dir):
            _say(f"{run_dir.name} was left running by an engbench that is gone: marked abandoned")
            _remove_data(work, run_dir.name)
    except OSError as exc:  # a full raw disk: the next run is refused or fails on its own words
        _say(f"could not mark the runs of a gone engbench under {out_dir}: {exc}")
    for path, what in rundir.leftover_tmp(out_dir):
        _say(f"{path}: {what}")
    for path in cgroups.clean_leftovers():
        _say(f"removed the cgroup {path} left by an engbench that is gone")
    for path in speed.clean_leftovers(work):
        _say(f"removed the speed probe's file {path} left by an engbench that is gone")
