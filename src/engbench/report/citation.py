"""The paper's front matter and reference list, from data (nothing here is typed into the template).

Front matter (`front`):
  author            CITATION.cff's authors when the repository has one, else "engbench contributors"
  date              the day the newest run ended (its manifest's ended_utc), never the build's clock:
                    the same data gives the same paper
  data-commit       the git commit that newest run recorded (12 hex digits; "-dirty" when its working
                    tree had uncommitted changes), and data-runs, how many run directories
  engbench-version  pyproject.toml's version (the code that built the paper)
  licence-paper     CC-BY-4.0 (the paper and the data), licence-code MIT

Reference list (`bibtex`, written as build/references.bib and cited by key from paper.md):
  source-NNN        the five source documents, one per seed file of data/published/sources.csv: their
                    title, author, date and URL as engbench.citation.documents reads them (the rows
                    of one document must agree; CITATION.cff cites the same)
  <key>             the tools the paper names (paper/references.csv: LinkBench, iibench, YCSB, ...);
                    an engine library's entry gets the versions the runs' manifests recorded for it
                    (software.engine_library, any case / engine_version)."""

from __future__ import annotations

import csv
import re
import tomllib
from importlib import metadata
from pathlib import Path

import yaml

from .. import citation, paths

PAPER_LICENCE = "CC-BY-4.0"
CODE_LICENCE = "MIT"
DEFAULT_AUTHORS = ["engbench contributors"]
TOOLS = "references.csv"          # in the paper folder (paper/references.csv)
BIB = "references.bib"            # in build/
SOURCE_KEY = "source-{}"


def authors(repo: Path = paths.REPO) -> list[str]:
    """CITATION.cff's authors ("given family", or name), else DEFAULT_AUTHORS."""
    cff = Path(repo) / "CITATION.cff"
    if not cff.is_file():
        return list(DEFAULT_AUTHORS)
    doc = yaml.safe_load(cff.read_text()) or {}
    out = []
    for a in doc.get("authors") or []:
        if isinstance(a, dict):
            name = a.get("name") or " ".join(str(a[k]) for k in ("given-names", "name-particle", "family-names",
                                                                    "name-suffix") if a.get(k))
            if name:
                out.append(str(name))
    return out or list(DEFAULT_AUTHORS)


def version(repo: Path = paths.REPO) -> str:
    """The version in pyproject.toml (the installed package's when there is no pyproject)."""
    pyproject = Path(repo) / "pyproject.toml"
    if pyproject.is_file():
        return str(tomllib.loads(pyproject.read_text())["project"]["version"])
    return metadata.version("engbench")


def _newest(manifests: dict) -> dict | None:
    ended = [(str(m.get("ended_utc") or m.get("started_utc") or ""), rid) for rid, m in manifests.items()]
    return manifests[max(ended)[1]] if ended else None


def front(manifests: dict, repo: Path = paths.REPO) -> dict:
    """The front matter fields (module docstring), from the run manifests and the repository."""
    newest = _newest(manifests)
    date, commit = "no runs", "none"
    if newest is not None:
        date = str(newest.get("ended_utc") or newest.get("started_utc") or "unknown")[:10]
        git = newest.get("git") or {}
        commit = str(git.get("commit") or "unknown")[:12] + ("-dirty" if git.get("dirty") else "")
    return {"author": authors(repo), "date": date, "data-commit": commit, "data-runs": str(len(manifests)),
            "engbench-version": version(repo), "licence-paper": PAPER_LICENCE, "licence-code": CODE_LICENCE,
            "bibliography": BIB}


# A plain scalar that YAML 1.2's core schema (pandoc's reader) takes for a number, though PyYAML
# (YAML 1.1) writes it unquoted: a commit such as 7234e3384005 printed as "7.234e3384005".
_YAML12_NUMBER = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
                            r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(str, lambda d, v: d.represent_scalar(
    "tag:yaml.org,2002:str", v, style="'" if _YAML12_NUMBER.fullmatch(v) else None))


def front_matter(fields: dict) -> str:
    """The YAML lines of paper.md's front matter (the template adds the title and the --- lines);
    a string that a YAML 1.2 reader would take for a number is quoted."""
    return yaml.dump(fields, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)


# --- the reference list -------------------------------------------------------------------------

def sources(published_dir: Path) -> list[dict]:
    """One entry per source document of <published_dir>/sources.csv (module docstring)."""
    if not (Path(published_dir) / "sources.csv").is_file():
        return []
    out = []
    for d in citation.documents(published_dir):
        author = " and ".join(a.strip() for a in d["author"].split(";") if a.strip())
        out.append({"key": SOURCE_KEY.format(d["seed"]), "type": "online", "title": d["title"], "author": author,
                    "date": d["date"], "url": d["url"],
                    "note": f"Source document {d['seed']} ({d['seed_file']}); its tables are in data/published"})
    return out


def tools(paper_dir: Path, manifests: dict) -> list[dict]:
    """The tools the paper cites (<paper_dir>/references.csv, else the repository's), with the engine
    library versions the manifests recorded."""
    path = Path(paper_dir) / TOOLS
    if not path.is_file():
        path = paths.REPO / "paper" / TOOLS
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for r in rows:
        lib = (r.get("version_of") or "").strip().lower()
        soft = [m.get("software") or {} for m in manifests.values()]
        versions = sorted({str(x["engine_version"]) for x in soft if lib and x.get("engine_version")
                           and str(x.get("engine_library", "")).lower() == lib})
        out.append({"key": r["key"], "type": r["type"], "title": r["title"], "author": r["author"],
                    "date": r.get("year", ""), "url": r.get("url", ""), "doi": r.get("doi", ""),
                    "booktitle" if r["type"] == "inproceedings" else "organization": r.get("venue", ""),
                    "version": ", ".join(versions)})
    return out


_ESCAPE = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
           "#": r"\#", "_": r"\_"}


def _tex(value: str, keep_braces: bool = False) -> str:
    """A BibTeX field value: LaTeX's special characters escaped (an author already written as
    {Corporate Name} keeps its braces)."""
    if keep_braces and value.startswith("{") and value.endswith("}"):
        return "{" + "".join(_ESCAPE.get(c, c) for c in value[1:-1]) + "}"
    return "".join(_ESCAPE.get(c, c) for c in value)


def bibtex(entries: list[dict]) -> str:
    """The entries as BibTeX, in order, empty fields left out; titles in double braces (kept as
    written); url and doi verbatim."""
    out = []
    for e in entries:
        lines = [f"@{e['type']}{{{e['key']},"]
        for field in ("author", "title", "booktitle", "organization", "date", "version", "doi", "url", "note"):
            v = (e.get(field) or "").strip()
            if not v:
                continue
            if field == "title":
                v = "{" + _tex(v) + "}"
            elif field == "date":
                field = "year" if re.fullmatch(r"\d{4}", v) else "date"
            elif field not in ("url", "doi"):
                v = _tex(v, keep_braces=field in ("author", "organization"))
            lines.append(f"  {field} = {{{v}}},")
        out.append("\n".join(lines) + "\n}\n")
    return "\n".join(out)


def bibliography(published_dir: Path, paper_dir: Path, manifests: dict) -> str:
    """references.bib: the source documents, then the tools."""
    return bibtex(sources(published_dir) + tools(paper_dir, manifests))
