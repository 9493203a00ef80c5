"""The source documents as references: title, author, date, site and URL of each, from
data/published/sources.csv (its document_* columns, with how each URL was confirmed in
`url_source`). The paper's reference list (build/references.bib, engbench.report.citation) is
made from `documents`, and CITATION.cff's references agree with it (tests/test_citation.py);
.zenodo.json is cffconvert's output for CITATION.cff, not engbench's.

One document per seed file (the `000_...txt` names sources.csv and the claims use): its rows must
agree on every document_* field, or `documents` refuses the file. The paper cites a document as
`source-<seed number>` (source-000 ... source-004), the number every table, claim and finding names
it by."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from . import paths

FIELDS = ("title", "author", "date", "site", "url", "url_source")


class SourcesError(ValueError):
    """sources.csv does not describe its documents consistently."""


def documents(published_dir=None) -> list[dict]:
    """seed, seed_file and FIELDS of every source document named in sources.csv, by seed number."""
    path = Path(published_dir or paths.REPO / "data" / "published") / "sources.csv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    docs: dict[str, dict] = {}
    for row in rows:
        seed_file = row["seed_file"]
        m = re.fullmatch(r"(\d{3})_[0-9a-f]+\.txt", seed_file)
        if not m:  # "(all)": numbers_in_text.csv quotes several documents
            continue
        doc = {"seed": m.group(1), "seed_file": seed_file,
               **{k: ((row.get(f"document_{k}") if k != "url_source" else row.get(k)) or "").strip() for k in FIELDS}}
        if seed_file in docs and docs[seed_file] != doc:
            diff = sorted(k for k in FIELDS if docs[seed_file][k] != doc[k])
            raise SourcesError(f"{path}: the rows of {seed_file} disagree on {', '.join(diff)}")
        docs[seed_file] = doc
    for doc in docs.values():
        missing = [k for k in ("title", "author", "date", "site", "url_source") if not doc[k]]
        if missing:
            raise SourcesError(f"{path}: {doc['seed_file']} has no {', '.join(missing)}")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", doc["date"]):
            raise SourcesError(f"{path}: {doc['seed_file']}: date {doc['date']!r} is not YYYY-MM-DD")
        if doc["url"] and not re.fullmatch(r"https?://\S+", doc["url"]):
            raise SourcesError(f"{path}: {doc['seed_file']}: url {doc['url']!r} is not an http(s) address")
    return sorted(docs.values(), key=lambda d: d["seed"])
