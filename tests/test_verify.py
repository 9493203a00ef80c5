"""engbench verify: from the committed paper back to sealed raw captures. Each kind of tampering
is caught and named, and the exit status says whether everything matched."""

import json
import re
import os
import shutil
import stat

import pytest

from engbench.cli import main
from engbench.tables import build_tables, runs_in, write_tables
from test_report import make_runs


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """Sealed runs, processed, and a paper built from them (as it would be committed)."""
    root = tmp_path_factory.mktemp("verify")
    make_runs(root / "raw", engines={"wiredtiger": (1.0, 1, 3 * 2**28), "rocksdb": (2.0, 2, 2**28)})
    write_tables(build_tables(runs_in(root / "raw")), root / "processed")
    assert main(["report", "--processed", str(root / "processed"), "--raw", str(root / "raw"),
                 "--out", str(root / "paper")]) == 0
    return root


@pytest.fixture
def copy(committed, tmp_path):
    for name in ("raw", "paper"):
        shutil.copytree(committed / name, tmp_path / name)
    for root, dirs, files in os.walk(tmp_path):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
    return tmp_path


def _verify(root, capsys):
    rc = main(["verify", "--raw", str(root / "raw"), "--paper", str(root / "paper")])
    return rc, capsys.readouterr().out


def test_untouched_paper_verifies(copy, capsys):
    rc, out = _verify(copy, capsys)
    assert rc == 0 and out == ""


def test_flipped_byte_in_a_raw_file(copy, capsys):
    run = sorted((copy / "raw").iterdir())[0]
    f = run / "vmstat.txt"
    data = bytearray(f.read_bytes())
    i = data.rindex(b" 1 ")  # a vmstat us/sy column near the end of the window
    data[i + 1] = ord("9")
    f.write_bytes(bytes(data))
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert f"raw: {run.name}/vmstat.txt: changed (sha256 differs)" in out


def test_deleted_and_extra_files(copy, capsys):
    runs = sorted((copy / "raw").iterdir())
    (runs[0] / "driver" / "histograms.csv").unlink()
    (runs[1] / "notes.txt").write_text("added later\n")
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert f"raw: {runs[0].name}/driver/histograms.csv: missing" in out
    assert f"raw: {runs[1].name}/notes.txt: extra file, not in SHA256SUMS" in out
    assert f"process: {runs[0].name}: cannot be reprocessed" in out  # and the rest is still compared
    assert "paper: numbers.json: runs: committed 2, recomputed 1" in out


def test_an_extra_run_beside_the_committed_ones_is_named(copy, capsys):
    """What a working tree gets after `go.sh main`: a sealed, intact run the paper was not built
    from. verify does not pass in silence: the recomputed paper has one run more."""
    first = sorted((copy / "raw").iterdir())[0]
    shutil.copytree(first, copy / "raw" / (first.name + "-copy"))
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert "paper: numbers.json: runs: committed 2, recomputed 3" in out, out


def test_changed_number_in_committed_tables(copy, capsys):
    tables = copy / "paper" / "build" / "tables"
    csv = next(tables.glob("*.per_insert.csv"))
    text = csv.read_text()
    assert "\nrocksdb,1,52429," in text
    csv.write_text(text.replace("\nrocksdb,1,52429,", "\nrocksdb,1,62429,"))
    nums = copy / "paper" / "build" / "numbers.json"
    doc = json.loads(nums.read_text())
    key = next(k for k in doc if k.endswith(".write_amp_device.min"))
    doc[key] = "0.01"
    nums.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert (f"paper: tables/{csv.name}: engine=rocksdb, column 'ips (inserts/s)': "
            f"committed 62429, recomputed 52429") in out
    assert f"paper: numbers.json: {key}: committed 0.01, recomputed 0.50" in out
    assert "raw:" not in out


def test_missing_extra_and_changed_paper_files(copy, capsys):
    build = copy / "paper" / "build"
    svg = next((build / "figures").glob("*.rum.svg"))
    svg.unlink()
    (build / "figures" / "old.svg").write_text("<svg/>")
    (build / "paper.md").write_text((build / "paper.md").read_text().replace("B-tree", "Btree"))
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert f"paper: figures/{svg.name}: missing from the committed build" in out
    assert "paper: figures/old.svg: extra file in the committed build" in out
    assert "paper: paper.md: changed" in out


def test_no_committed_build(copy, capsys):
    shutil.rmtree(copy / "paper" / "build")
    rc, out = _verify(copy, capsys)
    assert rc == 1 and "no committed build" in out


def test_changed_number_in_a_workload_table_is_caught(tmp_path, capsys):
    """The sysbench-update tables (processed `steps`) are rebuilt and compared cell by cell."""
    from test_report import MACHINE, _patch_json
    from test_process import make_sysbench_run
    from engbench.run import rundir
    d = make_sysbench_run(tmp_path / "raw")
    _patch_json(d / "manifest.json", lambda m: m.update(hardware=MACHINE))
    rundir.seal(d)
    write_tables(build_tables(runs_in(tmp_path / "raw")), tmp_path / "processed")
    assert main(["report", "--processed", str(tmp_path / "processed"), "--raw", str(tmp_path / "raw"),
                 "--out", str(tmp_path / "paper"), "--no-png"]) == 0
    capsys.readouterr()
    rc, out = _verify(tmp_path, capsys)
    assert rc == 0 and out == ""
    csv = next((tmp_path / "paper" / "build" / "tables").glob("*.r_per_t.csv"))
    text = csv.read_text()
    assert "\nwiredtiger,0.01,0.0020\n" in text
    csv.write_text(text.replace("\nwiredtiger,0.01,0.0020\n", "\nwiredtiger,0.01,0.0030\n"))
    rc, out = _verify(tmp_path, capsys)
    assert rc == 1
    assert (f"paper: tables/{csv.name}: engine=wiredtiger, column '2 clients': "
            "committed 0.0030, recomputed 0.0020") in out


# --- the typeset paper: compared by what it says, not by its bytes -------------------------------

def _retypeset(build, markdown, stem="supplement"):
    """<stem>.pdf typeset again from `markdown` instead of the build's <stem>.md."""
    from engbench.report import manuscript
    pdf, _, _ = manuscript.compile_typst(manuscript.to_typst(markdown, manuscript.template_path()), build)
    (build / f"{stem}.pdf").write_bytes(pdf)


def test_a_pdf_with_other_bytes_but_the_same_pages_and_text_verifies(copy, capsys):
    """What another machine's renderer may give: other bytes (here another document ID in the
    trailer), the same pages and text."""
    pdf = copy / "paper" / "build" / "paper.pdf"
    data = pdf.read_bytes()
    i = data.rindex(b"/ID[(") + 5
    pdf.write_bytes(data[:i] + bytes([data[i] ^ 1]) + data[i + 1:])
    rc, out = _verify(copy, capsys)
    assert rc == 0 and out == ""


def test_a_pdf_not_made_from_the_recomputed_paper_md_is_named(copy, capsys):
    build = copy / "paper" / "build"
    md = (build / "supplement.md").read_text()   # the section moved to the supplement (issue 45)
    assert "Three ways to keep an ordered index on disk" in md
    _retypeset(build, md.replace("Three ways to keep an ordered index on disk", "Three ways to keep an index"))
    rc, out = _verify(copy, capsys)
    assert rc == 1
    assert re.search(r"paper: supplement\.pdf: not the one the recomputed supplement\.md gives: the text of page \d+ differs", out), out
    assert "supplement.md" not in out.replace("recomputed supplement.md", "")   # supplement.md itself is intact


def test_an_html_whose_text_differs_is_named_and_one_whose_bytes_only_differ_is_not(copy, capsys):
    build = copy / "paper" / "build"
    html = (build / "supplement.html").read_text()
    (build / "supplement.html").write_text(html.replace("<p>", "<p >", 3))       # markup only
    rc, out = _verify(copy, capsys)
    assert rc == 0 and out == ""
    (build / "supplement.html").write_text(html.replace("Three ways to keep", "Four ways to keep", 1))
    rc, out = _verify(copy, capsys)
    assert rc == 1 and "paper: supplement.html: not the one the recomputed supplement.md gives: its text differs" in out
    i = html.index('src="data:image/svg+xml;base64,') + 40
    (build / "supplement.html").write_text(html[:i] + "A" + html[i + 1:])
    rc, out = _verify(copy, capsys)
    assert rc == 1 and "paper: supplement.html: not the one the recomputed supplement.md gives: image 1 differs" in out
