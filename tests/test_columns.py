"""The column dictionary (engbench.tables.columns): every column of every processed table has an
entry saying its unit, counter and denominator — the tables `engbench process` builds (their
columns come from engbench.tables.rows) and the ones shipped in data/processed — and no entry
names a column that no longer exists."""

import pandas as pd

from engbench import findings, paths
from engbench.published import checks_table
from engbench.tables import build_tables, columns

PROCESSED = paths.REPO / "data" / "processed"


def _code_tables() -> dict:
    """Every processed table as the code builds it (no run: the columns only)."""
    t = build_tables([])
    t["findings"] = pd.DataFrame(columns=findings.COLUMNS)
    t["findings_values"] = pd.DataFrame(columns=findings.VALUE_COLUMNS)
    t["published_checks"] = checks_table()
    return t


def test_every_column_the_code_writes_has_an_entry():
    tables = _code_tables()
    assert columns.missing(tables) == {}
    assert set(tables) == set(columns.TABLES)


def test_every_shipped_processed_column_has_an_entry():
    shipped = {p.stem: pd.read_csv(p, nrows=0) for p in sorted(PROCESSED.glob("*.csv"))}
    assert shipped, "data/processed is shipped"
    assert set(shipped) <= set(columns.TABLES), sorted(set(shipped) - set(columns.TABLES))
    assert columns.missing(shipped) == {}
    params = [c for c in shipped["runs"].columns if c.startswith(("param.", "knob."))]
    assert params and all(columns.entry("runs", c).counter == "manifest" for c in params)


def test_no_entry_for_a_column_that_is_not_written():
    tables = _code_tables()
    for name, entries in columns.TABLES.items():
        stale = [c.name for c in entries if c.name not in tables[name].columns]
        assert stale == [], (name, stale)
        names = [c.name for c in entries]
        assert len(names) == len(set(names)), name


def test_entries_name_known_counters_and_ratios_their_denominator():
    for name, entries in [*columns.TABLES.items(), *columns.PATTERNS.items()]:
        for c in entries:
            assert c.counter in columns.COUNTERS, (name, c)
    runs = {c.name: c for c in columns.TABLES["runs"]}
    for col in ("read_amp_device", "read_amp_cgroup", "read_amp_process", "write_amp_device", "write_amp_process",
                "space_amp", "wkb_per_op", "cg_rkb_per_op", "proc_wkb_per_200k"):
        assert runs[col].denominator, col
    assert runs["read_amp_cgroup"].counter == "cgroup" and runs["write_amp_process"].counter == "process"
    assert runs["wkb_per_op"].counter == "device" and runs["proc_wkb_per_op"].counter == "process"
    assert columns.entry("runs", "param.whatever").counter == "manifest"
    assert columns.entry("runs", "no_such_column") is None
    f = columns.frame()
    assert list(f.columns) == ["table", "name", "unit", "counter", "denominator", "description"]
    assert len(f) == sum(len(v) for v in columns.TABLES.values()) + sum(len(v) for v in columns.PATTERNS.values())
