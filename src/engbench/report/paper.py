"""`engbench report`: data/processed (+ the run manifests) → paper/build/:

  tables/<experiment>.<kind>[.rel].{md,html,csv}   every table, cells as printed
  figures/<name>.svg[,.png]                         every chart (vl-convert; PNG copies with png=True,
                                                    `engbench report --png`: the HTML inlines the SVG)
  tables/published_checks.{flags,claims}.*         the published checks that do not simply hold
  numbers.json                                      every number the text quotes, as printed
  references.bib                                    the reference list (engbench.report.citation)
  paper.md                                          the manuscript, rendered from paper/paper.md.j2:
                                                    front matter, labelled tables and figures
                                                    ({#tab-…}, {#fig-…}), cross-references ([@…])
  paper.pdf, paper.html                             paper.md typeset (engbench.report.manuscript);
                                                    the HTML self-contained (CSS and figures inline)
  supplement.md, supplement.pdf, supplement.html    the supplement (paper/supplement.md.j2 beside the
                                                    paper's template): every claim, every experiment's
                                                    tables, methods, runs; the paper (paper.md.j2) is
                                                    the short text (front, sources, published_vs)

Labels (label()): "tab-" + the table's file stem, "fig-" + the figure's, "sec-" + a section's
name, every run of characters other than letters, digits, _ and - turned into one "-".

Nothing here runs a workload, and nothing written depends on the time or place of the build: the
same inputs give byte-identical files (checked by tests/test_report.py; `engbench verify`
compares every number and table, and the PDF and HTML by their text)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import jinja2
import pandas as pd

from .. import paths, verdicts
from .. import registry
from ..published.check import default_published_dir
from ..tables.processed import OPTIONAL, TABLES, load_processed
from . import charts, citation, comparison_tables, data, device, findings, front, manuscript, methods
from . import sources
from . import published as published_checks
from .data import ENGINE_ORDER, where, where_groups
from .theme import family

TEMPLATE = "paper.md.j2"
SUPPLEMENT = "supplement.md.j2"  # the supplement, beside the paper's template
SETTINGS = "build.json"  # how the build was made (baseline, png), so `engbench verify` can redo it
DEFAULT_BASELINE = "wiredtiger"


def md_text(text) -> str:
    """`text` as Markdown prose: _, { and } escaped outside `code spans` (inside them they are literal)."""
    parts = str(text).split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("_", "\\_").replace("{", "\\{").replace("}", "\\}")
    return "`".join(parts)

def template_path(paper_dir=None) -> Path:
    """<paper_dir>/paper.md.j2 when there is one, else the repository's paper/paper.md.j2."""
    if paper_dir is not None and (Path(paper_dir) / TEMPLATE).is_file():
        return Path(paper_dir) / TEMPLATE
    return paths.REPO / "paper" / TEMPLATE


def _best_worst(exp, col):
    g = exp.runs.groupby("config")[col].mean().dropna()
    g = g[[c for c in exp.configs if c in g.index]]
    if g.empty:
        return None
    return g.idxmax(), float(g.max()), g.idxmin(), float(g.min())


def numbers(exps, all_runs, machine) -> dict:
    """name → printed value of every number the text quotes (rounded as its table prints it)."""
    n = {"runs": str(len(all_runs)), "experiments": str(len(exps)),
         "engines": str(all_runs["engine"].nunique()) if len(all_runs) else "0"}
    for e in exps:
        k = e.key
        n[f"{k}.runs"] = str(len(e.runs))
        n[f"{k}.configs"] = str(len(e.configs))
        bw = _best_worst(e, "q")
        if bw:
            hi, vhi, lo, vlo = bw
            n[f"{k}.q.max"], n[f"{k}.q.min"] = comparison_tables.fmt(vhi, 0), comparison_tables.fmt(vlo, 0)
            n[f"{k}.q.max_over_min"] = comparison_tables.fmt(comparison_tables.ratio(vhi, vlo), 1)
        for col, rule in (("write_amp_device", 2), ("write_amp_process", 2), ("space_amp", 2), ("wkb_per_op", 2)):
            bw = _best_worst(e, col)
            if bw:
                n[f"{k}.{col}.max"], n[f"{k}.{col}.min"] = comparison_tables.fmt(bw[1], rule), comparison_tables.fmt(bw[3], rule)
    return n


def _names(exps):
    """Who the numbers are about (engine labels, not numbers: kept out of numbers.json)."""
    out = {}
    for e in exps:
        for col in ("q", "write_amp_device", "write_amp_process", "space_amp", "wkb_per_op"):
            bw = _best_worst(e, col)
            if bw:
                out[f"{e.key}.{col}.max"], out[f"{e.key}.{col}.min"] = bw[0], bw[2]
    return out


def _figures(exps, proc, machine_of, fig_dir, png) -> dict:
    """Save every chart; experiment key → [(caption, relative path)]; "sweeps" → same."""
    out = {}
    for e in exps:
        m, own = machine_of(e.runs), registry.hook("report", e.workload, "figures")
        figs = [("rate", "Operation rate over time, one line per run (partial intervals left out).",
                 charts.split(charts.insert_rate, e, proc["intervals"], m)),
                *(own(e, proc, m) if own else ()),
                ("costs", "Costs per operation.", charts.split(charts.per_op_costs, e, m)),
                ("latency", "Latency percentiles per operation type.", charts.split(charts.latency, e, proc["latency"], m)),
                ("rum", "RUM amplification. " + charts.RUM_CAPTION, charts.split(charts.rum, e, m))]
        out[e.key] = []
        for name, caption, chart in figs:
            if chart is not None:
                charts.save(chart, fig_dir / f"{e.key}.{name}", png=png)
                out[e.key].append((caption, f"figures/{e.key}.{name}.svg"))
    out["sweeps"] = []
    for workload, groups in _sweep_groups(proc["runs"]):
        for tag, sub in groups:
            for col in charts.sweep_columns(sub):
                chart = charts.sweep(sub, col, workload, machine_of(sub))
                if chart is not None:
                    stem = f"{workload}.sweep.{col.split('.', 1)[1]}{tag}"
                    charts.save(chart, fig_dir / stem, png=png)
                    out["sweeps"].append((f"{workload}: sweep over {col.split('.', 1)[1]} ({where(sub)}).",
                                          f"figures/{stem}.svg"))
    return out


def _sweep_groups(runs):
    """workload → [(file-name tag, runs)] (where_groups): never a sweep across machines or limits."""
    return [(workload, where_groups(sub)) for workload, sub in runs.groupby("workload", sort=True)]


def _workload_tables(e, proc) -> tuple[list, str | None]:
    """The workload-specific tables of one experiment (first), and a note for the text."""
    own = registry.hook("report", e.workload, "tables")
    return own(e, proc) if own else ([], None)


def _sentences(e, proc, nums) -> list[str]:
    """The sentences of one experiment: its workload's own (its report.py's), none else."""
    own = registry.hook("report", e.workload, "sentences")
    return own(e, proc, nums) if own else []


def sections(exps, proc, nums) -> list[dict]:
    """One section per workload present, in the registry's order (then any other, by name): heading,
    intro (the registry's), its experiments, workload-level tables and sentences."""
    order = registry.order()
    present = sorted({e.workload for e in exps}, key=lambda w: (order.index(w) if w in order
                                                               else len(order), w))
    out = []
    for w in present:
        own = registry.hook("report", w, "section")
        wl_tabs, text, charts_ = own(proc, nums) if own else ([], [], [])
        cite = "; ".join(f"@{k}" for k in registry.get(w).cite)
        out.append({"workload": w, "intro": registry.get(w).intro, "cite": f"[{cite}]" if cite else "",
                    "tables": wl_tabs, "text": text,
                    "exps": [e for e in exps if e.workload == w], "charts": charts_, "figures": []})
    return out


def label(name: str, kind: str) -> str:
    """The cross-reference label of a table (kind "tab", name its file stem), a figure ("fig", its
    path) or a section ("sec-…"): kind-name, every run of other characters than letters, digits,
    _ and - turned into one "-"."""
    if kind == "fig":
        name = Path(name).stem
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9_-]+", "-", str(name)).strip("-")


def _refs(labels: list[str]) -> str:
    """"[@a]", "[@a] and [@b]", "[@a] to [@z]" (tables and figures of one experiment are numbered
    one after the other)."""
    if len(labels) <= 2:
        return " and ".join(f"[@{x}]" for x in labels)
    return f"[@{labels[0]}] to [@{labels[-1]}]"


def experiment_refs(exps, by_exp: dict, figs: dict) -> dict:
    """experiment key → cross-references for its text: all its tables, all its figures, its
    per-operation table ("ops") and RUM table ("rum"), "" when it has none."""
    out = {}
    for e in exps:
        names = [t.name for t in by_exp[e.key]]
        ops = [n for n in names if n.split(".", 1)[1] in ("per_insert", "per_txn", "per_request")]
        out[e.key] = {"tables": _refs([label(n, "tab") for n in names]),
                      "figures": _refs([label(p, "fig") for _, p in figs.get(e.key, [])]),
                      "ops": _refs([label(ops[0], "tab")]) if ops else "",
                      "rum": _refs([label(f"{e.key}.rum", "tab")]) if f"{e.key}.rum" in names else ""}
    return out


def _environment(tpl_dir: Path) -> jinja2.Environment:
    """The template's Jinja2 environment and its filters: `x | anchor("tab")` writes the label
    attribute {#tab-x} (a literal "{#" would open a Jinja comment), `x | ref("tab")` the
    cross-reference [@tab-x], `x | label("tab")` the bare label."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tpl_dir)),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    # a title or caption as Markdown text: underscores and braces escaped, so that an experiment named
    # "{_id: ObjectId}" opens no emphasis and no attributes (pandoc then detached the caption's label)
    env.filters["md"] = md_text
    env.filters["label"] = lambda name, kind: label(name, kind)
    env.filters["anchor"] = lambda name, kind=None: "{#" + (label(name, kind) if kind else name) + "}"
    env.filters["ref"] = lambda name, kind: f"[@{label(name, kind)}]"
    return env


def build(processed_dir=None, raw_dir=None, out_dir=None, baseline: str | None = DEFAULT_BASELINE,
          png: bool = False, template=None) -> Path:
    """Write <out_dir>/build/ (replacing it) and return the path of paper.html. The template
    (default <out_dir>/paper.md.j2, else the repository's) names the folder whose template.typst
    and references.csv are used too."""
    processed_dir = Path(processed_dir) if processed_dir else paths.processed_dir()
    raw_dir = Path(raw_dir) if raw_dir else paths.raw_dir()
    out_dir = Path(out_dir) if out_dir else paths.REPO / "paper"
    proc = load_processed(processed_dir)
    runs = proc["runs"]
    manifests = data.load_manifests(raw_dir, runs["run_id"])
    order = ([baseline] if baseline else []) + ENGINE_ORDER
    exps = data.comparisons(runs, engine_order=order)
    machine_of = lambda r: data.where_label(manifests, r)  # noqa: E731
    machine = data.machine_label(manifests, runs)

    build_dir = out_dir / "build"
    if build_dir.exists():
        shutil.rmtree(build_dir)
    (build_dir / "tables").mkdir(parents=True)
    tabs, notes, nums = [], {}, numbers(exps, runs, machine)
    for e in exps:
        extra, notes[e.key] = _workload_tables(e, proc)
        mine = extra + comparison_tables.all_tables([e], proc["latency"], baseline) + device.experiment_device_tables(e)
        for t in mine:
            t.caption += f" Measured on {where(e.runs)}."
        tabs += mine
    sentences = {e.key: _sentences(e, proc, nums) + list(filter(None, [device.no_calibration(e)])) for e in exps}
    dev_table = device.devices_table(proc["devices"])
    tabs += [dev_table] if dev_table is not None else []
    secs = sections(exps, proc, nums)
    tabs += [t for s in secs for t in s["tables"]]
    for t in tabs:
        for ext, body in (("md", t.markdown()), ("html", t.html()), ("csv", t.csv())):
            (build_dir / "tables" / f"{t.name}.{ext}").write_text(body)
    figs = _figures(exps, proc, machine_of, build_dir / "figures", png)
    fnd_frame, fnd_items, fnd_tabs, fnd_nums = findings.build(proc, build_dir, charts.save, png)
    tabs += fnd_tabs
    nums.update(fnd_nums)
    fnd_table = next((t for t in fnd_tabs if t.name == "findings"), None)
    fnd_extra = {t.name: t for t in fnd_tabs}
    pub_frame, pub_nums, pub_tables = published_checks.build()  # data/published, as data/processed/published_checks.csv
    nums.update(pub_nums)
    for t in pub_tables:
        tabs.append(t)
        for ext, body in (("md", t.markdown()), ("html", t.html()), ("csv", t.csv())):
            (build_dir / "tables" / f"{t.name}.{ext}").write_text(body)
    for s in secs:  # workload-level charts (ycsb's RUM)
        for stem, caption, chart in s.pop("charts"):
            if chart is not None:
                charts.save(chart, build_dir / "figures" / stem, png=png)
                s["figures"].append((caption, f"figures/{stem}.svg"))
    nums.update(front.numbers(fnd_frame))
    pub_dir = default_published_dir()
    scaling = front.scaling_table(runs, pd.read_csv(pub_dir / "numbers_in_text.csv", dtype=str), pub_dir)
    source_secs = sources.sections(fnd_frame, pub_dir, proc, fnd_items, pub_frame)
    pub_paper = published_checks.paper_tables(pub_frame)
    for t in [scaling, *pub_paper] + [x for s in source_secs for x in [s["claims"], *s["tables"]] if x is not None]:
        write_table(t, build_dir / "tables")
        tabs.append(t)
    settings = {"baseline": baseline, "png": png, "processed_tables": list(TABLES + OPTIONAL)}
    (build_dir / SETTINGS).write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n")
    (build_dir / "numbers.json").write_text(json.dumps(nums, indent=1, sort_keys=True) + "\n")

    tpl_path = Path(template) if template else template_path(out_dir)
    (build_dir / citation.BIB).write_text(citation.bibliography(default_published_dir(), tpl_path.parent,
                                                                manifests))
    by_exp = {e.key: [t for t in tabs if t.name.startswith(e.key + ".")] for e in exps}
    runs_tab = methods.runs_table(exps, manifests)
    write_table(runs_tab, build_dir / "tables")
    context = dict(
        front_matter=citation.front_matter(citation.front(manifests)), refs=experiment_refs(exps, by_exp, figs),
        N=nums, who=_names(exps), exps=exps, tables=by_exp, figures=figs, machine=machine,
        sections=secs, text=sentences, notes=notes, exp_methods=methods.experiment_rows(exps, manifests),
        baseline=baseline, facts=methods.facts(manifests, runs), runs_table=runs_tab,
        formulas=methods.formulas(), processing=methods.processing_notes(), devices=dev_table,
        findings=fnd_items, findings_table=fnd_table, findings_history=fnd_extra.get("findings.history"),
        claims_inventory=fnd_extra.get("findings.inventory"), published_flags=pub_tables[0],
        published_claims=pub_tables[1],
        n_manifests=len(manifests), isfinite=math.isfinite,
        verdict_sentence=front.verdict_sentence(fnd_frame), headlines=front.headlines(fnd_frame),
        scaling=scaling, source_sections=source_secs, published_failing=pub_paper[0],
        published_definitions=pub_paper[1], published_sentences=pub_paper[2], engines=engines_sentence(manifests, runs))
    env = _environment(tpl_path.parent)
    for stem, tpl in documents(tpl_path):
        text = re.sub(r"\n{3,}", "\n\n", env.get_template(tpl.name).render(**context))
        (build_dir / f"{stem}.md").write_text(text)
        manuscript.render(build_dir, tpl_path.parent, stem=stem)
    return build_dir / "paper.html"


def engines_sentence(manifests: dict, runs) -> str:
    """"WiredTiger 11.3.1 (B-tree and LSM), RocksDB 9.x (LSM), …": each engine of the runs with its
    family (theme.FAMILY) and the library versions the manifests recorded."""
    out = []
    for engine in [e for e in ENGINE_ORDER if e in set(runs["engine"])] + sorted(set(runs["engine"]) - set(ENGINE_ORDER)):
        ids = runs.loc[runs["engine"] == engine, "run_id"]
        vers = sorted({f"{(manifests.get(r) or {}).get('software', {}).get('engine_library') or engine} "
                       f"{(manifests.get(r) or {}).get('software', {}).get('engine_version') or ''}".strip() for r in ids})
        out.append(f"{engine} ({family(engine)}: {', '.join(vers)})")
    return "The engines: " + "; ".join(out)


def documents(tpl_path: Path) -> list[tuple[str, Path]]:
    """(stem, template) of each document: the paper ("paper", tpl_path) and, when the folder has one,
    its supplement ("supplement", <folder>/supplement.md.j2)."""
    out = [("paper", tpl_path)]
    supp = tpl_path.parent / SUPPLEMENT
    return out + ([("supplement", supp)] if supp.is_file() else [])


def write_table(t, tables_dir: Path) -> None:
    for ext, body in (("md", t.markdown()), ("html", t.html()), ("csv", t.csv())):
        (tables_dir / f"{t.name}.{ext}").write_text(body)
