"""engbench.published / `engbench check-published`: interval arithmetic, relations, CLI."""

import csv
import io
import math
import shutil

import pytest

from engbench import paths
from engbench.cli import main
from engbench.published import (FAILS, HOLDS, HOLDS_OTHERWISE, NOT_TESTABLE, NOTHING, RELATIONS, Interval,
                                PublishedInputError, check_paths, default_published_dir,
                                parse_printed)

PUBLISHED = default_published_dir()


def iv(text, **kw):
    return parse_printed(text, **kw).interval


def close(a: Interval, lo, hi, tol=1e-9):
    return math.isclose(a.lo, lo, rel_tol=tol) and math.isclose(a.hi, hi, rel_tol=tol)


# -- printed values and interval arithmetic (hand-computed) ---------------------------------------

@pytest.mark.parametrize("text, lo, hi", [
    ("13.0", 12.95, 13.05),
    ("9.70", 9.695, 9.705),
    ("5359", 5358.5, 5359.5),
    ("0", -0.5, 0.5),
    ("-5.20", -5.205, -5.195),
    ("31k", 30_500, 31_500),          # k suffix: ±0.5 k
    ("2M", 1_500_000, 2_500_000),
    ("~500K", 450_000, 550_000),      # ~: trailing zeros not significant, at least ±10 %
    ("~770", 693, 847),               # ~: ±10 % wins over ±5
    ("4.80%", 4.795, 4.805),
    ("10-15", 9.5, 15.5),
])
def test_parse_printed_keeps_precision(text, lo, hi):
    assert close(iv(text), lo, hi)


def test_exact_counters_have_no_rounding_interval():
    assert iv("15036657664", exact=True) == Interval(15036657664, 15036657664)
    with pytest.raises(ValueError):
        parse_printed("12x")


def test_interval_arithmetic_by_hand():
    a, b = Interval(1, 2), Interval(0.5, 1)
    assert a + b == Interval(1.5, 3)
    assert a - b == Interval(0, 1.5)
    assert Interval(-1, 2) * Interval(3, 4) == Interval(-4, 8)
    assert a / b == Interval(1, 4)
    assert (a / Interval(-1, 1)).unbounded           # divisor may be zero
    assert Interval(0, 100) * 1e6 / Interval(5358.5, 5359.5) == Interval(0, 1e8 / 5358.5)


def test_ratio_of_printed_values_by_hand():
    # 984 / 468.8 -> [983.5 / 468.85, 984.5 / 468.75] = [2.09769.., 2.10027..]: not 2.01 (±0.005)
    r = iv("984") / iv("468.8")
    assert close(r, 983.5 / 468.85, 984.5 / 468.75)
    assert not r.overlaps(iv("2.01"))
    assert r.overlaps(iv("2.10"))
    # 337 / 168 -> [336.5 / 168.5, 337.5 / 167.5] = [1.99703, 2.01493]: 2.01 (±0.005) fits
    q = iv("337") / iv("168")
    assert close(q, 336.5 / 168.5, 337.5 / 167.5)
    assert q.overlaps(iv("2.01"))


def test_percent_change_by_hand():
    t, f = iv("5996.6"), iv("6325.6")
    pct = (t - f) / f * 100
    assert close(pct, (5996.55 - 6325.65) / 6325.55 * 100, (5996.65 - 6325.55) / 6325.65 * 100)
    assert pct.overlaps(iv("-5.20")) and not pct.overlaps(iv("-5.30"))


# -- the published tables -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def published():
    return check_paths()


def _verdicts(findings, relation_prefix):
    return [f.verdict for f in findings if f.relation.startswith(relation_prefix)]


def test_every_relation_yields_a_verdict_on_the_published_tables(published):
    used = {f.relation for f in published if f.verdict != NOTHING}
    assert {r.name for r in RELATIONS} <= used
    assert all(f.verdict in (HOLDS, HOLDS_OTHERWISE, FAILS, NOTHING) for f in published)
    assert all(f.stated and f.recomputed for f in published if f.verdict != NOTHING)
    # a benign definition is named exactly when the value holds only under it
    assert all(bool(f.benign_definition) == (f.verdict == HOLDS_OTHERWISE) for f in published)


def test_known_findings_in_the_published_tables(published):
    by = {(f.table, f.row, f.relation): f for f in published}
    # sysbench: disk reads per update = iostat r/s / TPS, all 24 rows
    assert _verdicts(published, "disk_reads_per_update") == [HOLDS] * 24
    # Mcpu as vmstat us+sy x 1e6 / rate fits 0-100 %; as 'CPU usecs' it needs > 4 HW threads: it holds
    # only as the vmstat figure, and says so
    assert set(_verdicts(published, "cpu_pct:")) == {HOLDS}
    usec = [f for f in published if f.relation.startswith("cpu_usec_as_stated:")]
    assert len(usec) == 20 and {f.verdict for f in usec} == {HOLDS_OTHERWISE}
    assert all(f.benign_definition.startswith("Mcpu = vmstat us+sy × 1e6 ÷ rate") for f in usec)
    # 002: index ratio printed 2.01, 984 / 468.8 = 2.10; ls index size != totalIndexSize: no benign reading
    assert by[("002_file_sizes_totals_ratios.csv", "ratio", "ratio_index")].verdict == FAILS
    assert by[("002_file_sizes_totals_ratios.csv", "ratio", "ratio_data")].verdict == HOLDS
    assert by[("002_file_sizes_totals_ratios.csv", "zlib", "ls_index_is_index_size")].verdict == FAILS
    assert "GiB" in by[("002_file_sizes_totals_ratios.csv", "zlib", "data_gb")].why
    # 002: 2008 GB uncompressed total: 2008.81 GiB truncated, not rounded
    total = by[("002_file_sizes_totals_ratios.csv", "uncompressed", "grand_total_gb:logical_bytes")]
    assert total.verdict == HOLDS_OTHERWISE and total.benign_definition.startswith("truncated")
    # 002: EBS VolumeWriteBytes of ~20 B per write operation as a Sum; as the Average (per op) they fit
    ebs = [f for f in published if f.relation == "ebs_bytes_per_write"]
    assert len(ebs) == 3 and {f.verdict for f in ebs} == {HOLDS_OTHERWISE}
    assert all("Average" in f.benign_definition for f in ebs)
    # 003: KB written 'per 200k inserts' is below the final database size per 200k documents; per
    # 1000-document request it fits
    assert set(_verdicts(published, "written_ge_db_size:200k")) == {HOLDS_OTHERWISE}
    assert all("per request of 1000 documents" in f.benign_definition
               for f in published if f.relation == "written_ge_db_size:200k")
    # 004: differences, TRUE - FALSE blocks, % changes and the quotes restating them all add up
    for prefix in ("difference:", "true_minus_false:", "pct_change:", "text:"):
        assert set(_verdicts(published, prefix)) == {HOLDS}, prefix


def test_part_versus_whole_across_a_documents_tables(published):
    """A part is no larger than its whole: a checkpoint within its file, totals within the grand
    total, a database within its SSD, both collections within the cache, each collection's bytes in
    cache within the collection (stated as 75 % of the cache: the hot one exceeds it, which fits
    only if the size is the compressed one, ~7:1 as the test conditions say)."""
    by = {(f.table, f.row, f.relation): f for f in published}
    part = [f for f in published if f.relation.startswith("part_le_whole:")]
    assert len(part) >= 30
    ckpt = by[("002_collection_stats.csv", "uncompressed", "part_le_whole:checkpoint_in_file")]
    assert ckpt.verdict == FAILS and ckpt.stated == "90922704896" and ckpt.recomputed == "[0, 90922614784]"
    assert by[("002_collection_stats.csv", "zlib (blockCompressor: zlib)", "part_le_whole:checkpoint_in_file")].verdict \
        == HOLDS
    assert set(_verdicts(published, "part_le_whole:database_on_device")) == {HOLDS}
    assert set(_verdicts(published, "part_le_whole:hot_in_cache")) == {HOLDS}
    hot = [f for f in part if f.relation == "part_le_whole:collection_in_cache" and f.row.endswith("/hot")]
    assert {f.row: f.verdict for f in hot} == {"FALSE/before/hot": HOLDS_OTHERWISE, "TRUE/before/hot": HOLDS_OTHERWISE,
                                              "FALSE/after/hot": HOLDS, "TRUE/after/hot": HOLDS_OTHERWISE}
    assert "compressed ~7:1" in hot[0].benign_definition


def test_a_part_made_larger_than_its_whole_does_not_hold(tmp_path):
    for n in ("000_linkbench_query_iobound.csv", "sources.csv"):
        shutil.copy(PUBLISHED / n, tmp_path / n)
    q = tmp_path / "000_linkbench_query_iobound.csv"
    text = q.read_text()
    assert ",13357,72," in text
    q.write_text(text.replace(",13357,72,", ",13357,172,"))  # mmapv1's database: 172 GB on a 120 GB SSD
    findings = check_paths([q], published_dir=tmp_path)
    bad = [f for f in findings if f.relation == "part_le_whole:database_on_device" and f.verdict == FAILS]
    assert [(f.row, f.stated) for f in bad] == [("mmapV1, 20m", "172")]


def test_altered_copy_is_flagged_and_the_rest_stays_consistent(tmp_path):
    names = ["001_sysbench_update_tps.csv", "001_sysbench_update_iostat_reads_per_s.csv",
             "001_sysbench_update_disk_reads_per_update.csv"]
    for n in names:
        shutil.copy(PUBLISHED / n, tmp_path / n)
    tps = tmp_path / names[0]
    text = tps.read_text()
    assert "mysql,InnoDB (MySQL),5.6.12,none,16,737\n" in text
    tps.write_text(text.replace("none,16,737\n", "none,16,773\n"))
    findings = check_paths([tmp_path / n for n in names])
    checked = [f for f in findings if f.relation == "disk_reads_per_update"]
    assert len(checked) == 24
    bad = [f for f in checked if f.verdict == FAILS]
    assert [(f.row, f.stated) for f in bad] == [("mysql/16", "0.94")]
    assert sum(f.verdict == HOLDS for f in checked) == 23


def test_altered_value_in_a_single_table(tmp_path):
    src = PUBLISHED / "004_collection_scan_time_ms.csv"
    dst = tmp_path / "mine.csv"   # relations are keyed by column names, not file names
    dst.write_text(src.read_text().replace("TRUE,min,5916,", "TRUE,min,5816,"))
    findings = check_paths([dst])
    verdicts = {f.row: f.verdict for f in findings}
    assert verdicts == {"TRUE/avg": HOLDS, "TRUE/min": FAILS}


def test_own_csv_with_known_columns(tmp_path):
    p = tmp_path / "load.csv"
    p.write_text("engine,ips,mcpu_per_insert,ctx_hw_threads\na,1000,50000,4\nb,1000,200000,4\n")
    findings = check_paths([p], published_dir=tmp_path)
    got = {(f.row, f.relation): f.verdict for f in findings}
    assert got[("a", "cpu_pct:insert")] == HOLDS          # 5 % us+sy
    assert got[("b", "cpu_pct:insert")] == FAILS          # 200 % us+sy: impossible
    # as CPU µs, 50 CPUs busy on 4: it holds only as the vmstat figure; b under no definition
    assert got[("a", "cpu_usec_as_stated:insert")] == HOLDS_OTHERWISE
    assert got[("b", "cpu_usec_as_stated:insert")] == FAILS


def test_unknown_columns_say_nothing_checkable(tmp_path):
    p = tmp_path / "other.csv"
    p.write_text("colour,weight\nred,3\nblue,4\n")
    findings = check_paths([p], published_dir=tmp_path)
    assert len(findings) == 1 and findings[0].verdict == NOTHING
    assert "colour" in findings[0].why
    assert main(["check-published", "--dir", str(tmp_path), str(p)]) == 0


def test_malformed_csv_is_a_clear_error(tmp_path, capsys):
    p = tmp_path / "bad.csv"
    p.write_text("engine,ips,mcpu_per_insert\na,1000,5000\nb,1000\n")
    with pytest.raises(PublishedInputError, match="line 3"):
        check_paths([p], published_dir=tmp_path)
    assert main(["check-published", "--dir", str(tmp_path), str(p)]) == 2
    assert "line 3: 2 fields, header has 3" in capsys.readouterr().err
    q = tmp_path / "word.csv"
    q.write_text("engine,ips,mcpu_per_insert\na,lots,5000\n")
    assert main(["check-published", "--dir", str(tmp_path), str(q)]) == 2
    assert "not a printed number: 'lots'" in capsys.readouterr().err
    assert main(["check-published", "--dir", str(tmp_path), str(tmp_path / "missing.csv")]) == 2


# -- CLI ------------------------------------------------------------------------------------------

def test_cli_default_dir_text_and_csv(capsys):
    assert main(["check-published"]) == 1
    out = capsys.readouterr().out
    assert "| does not hold | ratio_index:" in out
    assert "| holds under another definition | ebs_bytes_per_write:" in out
    assert "values checked in" in out.splitlines()[-3] and "superlatives" in out.splitlines()[-1]
    assert "claims in the prose of" in out.splitlines()[-2]  # then the documents' sentences
    assert main(["check-published", "--csv"]) == 1
    captured = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(captured.out)))
    assert rows and set(rows[0]) == {"table", "row", "column", "stated", "recomputed", "verdict",
                                      "relation", "why", "benign_definition"}
    assert any(r["verdict"] == FAILS and r["column"] == "uncompressed/zlib index"
               for r in rows)
    assert any(r["verdict"] == HOLDS_OTHERWISE and r["benign_definition"].startswith("truncated") for r in rows)
    assert "values checked" in captured.err


def test_cli_dir_and_env(tmp_path, monkeypatch):
    for n in ("004_collection_scan_time_ms.csv", "004_index_build_and_read_throughput.csv"):
        shutil.copy(PUBLISHED / n, tmp_path / n)
    assert main(["check-published", "--dir", str(tmp_path)]) == 0
    monkeypatch.setenv("ENGBENCH_PUBLISHED_DIR", str(tmp_path))
    assert main(["check-published"]) == 0
    monkeypatch.setenv("ENGBENCH_PUBLISHED_DIR", str(tmp_path / "nope"))
    assert main(["check-published"]) == 2


def test_ambiguous_inputs_are_reported_not_silently_skipped(tmp_path):
    (tmp_path / "r.csv").write_text("configuration,clients,disk_reads_per_update\nx,8,1.00\n")
    (tmp_path / "a.csv").write_text("configuration,clients,tps,iostat_reads_per_s\nx,8,100,100\n")
    (tmp_path / "b.csv").write_text("configuration,clients,tps\nx,8,200\n")
    findings = check_paths(sorted(tmp_path.glob("*.csv")), published_dir=tmp_path)
    amb = [f for f in findings if f.verdict == NOT_TESTABLE]
    assert len(amb) == 1 and "input tps matches 2 records" in amb[0].why
    assert main(["check-published", "--dir", str(tmp_path), *map(str, sorted(tmp_path.glob("*.csv")))]) == 0


# -- the repository's own copy of the published tables --------------------------------------------

def test_a_plain_clone_has_every_published_table(monkeypatch):
    """The default is the repository's data/published (a plain clone holds nothing outside itself), and it holds
    every CSV that sources.csv describes."""
    monkeypatch.delenv("ENGBENCH_PUBLISHED_DIR", raising=False)
    assert default_published_dir() == paths.REPO / "data" / "published"
    with open(PUBLISHED / "sources.csv", newline="") as f:
        named = {row["csv_file"] for row in csv.DictReader(f)}
    assert len(named) >= 15
    for name in named:
        assert (PUBLISHED / name).is_file(), name
    for extra in ("README.md", "columns.csv", "numbers_in_text.csv"):
        assert (PUBLISHED / extra).is_file(), extra
