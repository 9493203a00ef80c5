"""The reviewer's way back from the paper to the raw captures.

verify(raw_dir, paper_dir):
  1. every run directory under raw_dir: its SHA256SUMS (engbench.run.rundir.check) — each changed,
     missing or extra file is named;
  2. the raw captures are processed again (engbench.tables.build_tables, into a temporary
     directory — the committed data/processed is not used) and the paper is built again from
     them (engbench.report.paper.build, same template and settings as the committed build.json);
  3. the rebuilt paper/build/ is compared with the committed one: each file missing or extra,
     each table cell (tables/*.csv) and each number of numbers.json that differs is named with
     its committed and recomputed value; any other file that differs (figures, paper.md with
     every sentence, label and cross-reference, references.bib, tables/*.md) is named as changed.
     Every table the report writes is compared, the workload-specific ones (sysbench steps,
     linkbench query/load, bulk-insert, cache-pollution; from the processed tables steps, loads,
     cache_pollution, engine_stats) as much as the per-operation ones.
     paper.pdf and paper.html are typeset from paper.md, supplement.pdf and supplement.html from
     supplement.md (engbench.report.manuscript): they must be the ones the recomputed .md gives, which is checked by what they say, not by the
     renderer's bytes: the PDF's page count and the text pdftotext extracts from each page
     (manuscript.same_pdf), the HTML's text and images (manuscript.same_html).

The build is deterministic (tests/test_report.py), so every difference means the inputs or the
code changed. PNG files are compared too: vl-convert renders them byte-identically from the same
spec on one platform, but another platform's font rasterizer may differ (`ignore_png=True`)."""

from __future__ import annotations

import json
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import paths
from .report import manuscript, paper
from .run import rundir
from .tables import build_tables, runs_in, write_tables


@dataclass
class Result:
    raw: list = field(default_factory=list)        # sealed run directories: tampered/missing/extra
    process: list = field(default_factory=list)    # reprocessing failed
    files: list = field(default_factory=list)      # paper/build files missing, extra or changed
    numbers: list = field(default_factory=list)    # (where, name, committed, recomputed)
    runs_checked: int = 0
    files_compared: int = 0

    @property
    def ok(self) -> bool:
        return not (self.raw or self.process or self.files or self.numbers)

    def lines(self) -> list[str]:
        out = [f"raw: {p}" for p in self.raw] + [f"process: {p}" for p in self.process]
        out += [f"paper: {p}" for p in self.files]
        out += [f"paper: {where}: {name}: committed {c}, recomputed {r}" for where, name, c, r in self.numbers]
        return out


# the typeset files: compared by what they say (module docstring, 3.)
TYPESET = {f"{stem}.{ext}": same for stem in ("paper", "supplement")  # the paper and its supplement
           for ext, same in (("pdf", manuscript.same_pdf), ("html", manuscript.same_html))}


def _tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def _numbers_diff(a: Path, b: Path) -> list:
    ca, cb = json.loads(a.read_text()), json.loads(b.read_text())
    out = []
    for k in sorted(set(ca) | set(cb)):
        if ca.get(k) != cb.get(k):
            out.append(("numbers.json", k, ca.get(k, "(absent)"), cb.get(k, "(absent)")))
    return out


def _table_diff(name: str, a: Path, b: Path) -> list:
    ta = pd.read_csv(a, dtype=str, keep_default_na=False)
    tb = pd.read_csv(b, dtype=str, keep_default_na=False)
    if list(ta.columns) != list(tb.columns) or len(ta) != len(tb):
        return [(name, "shape", f"{list(ta.columns)} × {len(ta)} rows", f"{list(tb.columns)} × {len(tb)} rows")]
    out = []
    key = ta.columns[0]
    for i in range(len(ta)):
        for c in ta.columns:
            if ta.at[i, c] != tb.at[i, c]:
                out.append((name, f"{key}={ta.at[i, key]}, column {c!r}", ta.at[i, c], tb.at[i, c]))
    return out


def compare(committed: Path, rebuilt: Path, ignore_png=False, result: Result | None = None) -> Result:
    """Differences between two build directories (committed vs rebuilt)."""
    res = result or Result()
    ca, cb = _tree(committed), _tree(rebuilt)
    if ignore_png:
        ca = {k: v for k, v in ca.items() if not k.endswith(".png")}
        cb = {k: v for k, v in cb.items() if not k.endswith(".png")}
    for name in sorted(set(cb) - set(ca)):
        res.files.append(f"{name}: missing from the committed build (recomputed, not committed)")
    for name in sorted(set(ca) - set(cb)):
        res.files.append(f"{name}: extra file in the committed build (not recomputed)")
    for name in sorted(set(ca) & set(cb)):
        res.files_compared += 1
        if ca[name].read_bytes() == cb[name].read_bytes():
            continue
        if name == "numbers.json":
            res.numbers += _numbers_diff(ca[name], cb[name])
        elif name in TYPESET:
            why = TYPESET[name](ca[name], cb[name])
            if why:
                res.files.append(f"{name}: not the one the recomputed {name.split('.')[0]}.md gives: {why}")
        elif name.startswith("tables/") and name.endswith(".csv"):
            res.numbers += _table_diff(name, ca[name], cb[name])
        else:
            res.files.append(f"{name}: changed (differs from the recomputed file)")
    return res


def verify(raw_dir=None, paper_dir=None, ignore_png=False, log=None) -> Result:
    raw_dir = Path(raw_dir) if raw_dir else paths.raw_dir()
    paper_dir = Path(paper_dir) if paper_dir else paths.REPO / "paper"
    res = Result()
    dirs = runs_in(raw_dir)
    res.runs_checked = len(dirs)
    for d in dirs:
        res.raw += rundir.check(d)
    committed = paper_dir / "build"
    if not committed.is_dir():
        res.files.append(f"{committed}: no committed build (run `engbench report --out {paper_dir}`)")
        return res
    settings_file = committed / paper.SETTINGS
    settings = json.loads(settings_file.read_text()) if settings_file.exists() else {}
    with tempfile.TemporaryDirectory(prefix="engbench-verify-") as tmp:
        tmp = Path(tmp)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tables = build_tables(dirs, log=log)
            except Exception:  # a tampered capture may not even parse: name it, go on without it
                good = []
                for d in dirs:
                    try:
                        build_tables([d])
                        good.append(d)
                    except Exception as exc:
                        res.process.append(f"{d.name}: cannot be reprocessed ({exc}); left out")
                tables = build_tables(good, log=log)
        write_tables(tables, tmp / "processed")
        paper.build(tmp / "processed", raw_dir, tmp / "paper", baseline=settings.get("baseline", paper.DEFAULT_BASELINE),
                    png=settings.get("png", True), template=paper.template_path(paper_dir))
        compare(committed, tmp / "paper" / "build", ignore_png=ignore_png, result=res)
    return res
