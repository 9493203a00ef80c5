"""vmstat parsing: real procps-ng 4.0.2 captures (tests/data/captures) and small fixtures."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engbench.cli import main
from engbench.parsers import ParseError, parse_vmstat, parse_vmstat_text
from engbench.parsers.vmstat import since_boot_from_argv, unit_from_argv

CAP = Path(__file__).parent / "data" / "captures"
G = "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----"
N = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 CET"


def row(cs, us, sy, stamp="2026-11-21 06:00:00"):
    return f" 1  0      0 1000 10 100    0    0     0     0   10 {cs} {us} {sy} 90  0  0 {stamp}"


def test_wide_timestamped_capture():
    vm = parse_vmstat(CAP / "burst_vmstat_ntw.txt")
    assert list(vm.columns[:4]) == ["timestamp", "sample", "r", "b"]
    assert {"cs", "us", "sy", "id", "wa", "st", "gu", "buff", "cache"} <= set(vm.columns)
    assert str(vm["timestamp"].dtype) == "datetime64[ns, UTC]"
    # the since-boot row (05:45:31, cs 478, us 22) is dropped
    assert vm["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 05:45:32", tz="UTC")
    assert vm["sample"].iloc[0] == 1 and vm["cs"].iloc[0] == 109
    assert len(vm) == 12


def test_repeated_headers_are_not_samples():
    """vmstat without -n reprints its headers every 21 samples. The seed recipe
    `grep -v swpd | awk 'NR>1 {s+=$12; c+=1}'` drops only the first 'procs' line, keeps the
    since-boot row and counts the later 'procs' header as a sample of cs 0."""
    f = CAP / "vmstat_w_repeated_headers.txt"
    vm = parse_vmstat(f)
    assert len(vm) == 24  # vmstat -w 1 25: 25 rows, the since-boot one dropped
    lines = [ln for ln in f.read_text().splitlines() if "swpd" not in ln][1:]
    naive = np.mean([float(ln.split()[11]) if ln.split()[0][0].isdigit() else 0.0 for ln in lines])
    numeric = [float(ln.split()[11]) for ln in lines if ln.split()[0][0].isdigit()]
    assert vm["cs"].mean() == pytest.approx(np.mean(numeric[1:]))
    assert vm["cs"].mean() != pytest.approx(naive)


def test_active_layout_and_units():
    a = parse_vmstat(CAP / "vmstat_a.txt")
    assert {"inact", "active"} <= set(a.columns) and "buff" not in a.columns
    m = parse_vmstat(CAP / "vmstat_SM.txt", unit="M")
    assert m["free"].iloc[0] == 23430 * 1024  # MiB printed, KiB out
    assert m["timestamp"].isna().all()
    assert unit_from_argv(["vmstat", "-S", "M", "1"]) == "M" and unit_from_argv(["vmstat"]) == "K"
    assert unit_from_argv(["vmstat", "-Sm"]) == "m"


def test_since_boot_flag_and_zone():
    text = "\n".join([G, N, row(500, 50, 10, "2026-11-21 06:00:00"), row(10, 1, 2, "2026-11-21 06:00:01"),
                      row(30, 3, 4, "2026-11-21 06:00:02")]) + "\n"
    vm = parse_vmstat_text(text)
    assert vm["cs"].tolist() == [10, 30]
    assert vm["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 05:00:01", tz="UTC")  # CET = UTC+1
    assert parse_vmstat_text(text, since_boot_included=False)["cs"].tolist() == [500, 10, 30]
    assert since_boot_from_argv(["vmstat", "-n", "-t", "1"]) is True
    assert since_boot_from_argv(["vmstat", "-y", "1"]) is False
    with pytest.raises(ParseError, match="not a known zone"):
        parse_vmstat_text(text.replace("CET", "XYZ"))


@pytest.mark.parametrize("content,match", [
    ("", "empty file"),
    ("\n".join([G, N, row(5, 1, 1), row(5, 1, 1).replace(" 5 1 1 ", " 5 x 1 ")]) + "\n", r":4: not a number"),
    ("\n".join([G, N, row(5, 1, 1), " 1  0      0 1000 10"]) + "\n", r":4: short vmstat row"),
    ("\n".join([G, N.replace(" cs ", " cz "), row(5, 1, 1)]) + "\n", r":2: unknown vmstat layout"),
    ("\n".join([G, N]) + "\n", "no vmstat samples"),
    ("disk- ------------reads------------\n total merged\n", r":1: not a vmstat capture"),
    (None, r":1: this is an iostat capture"),
])
def test_refused(tmp_path, content, match):
    f = tmp_path / "vm.txt"
    f.write_text(content if content is not None else (CAP / "iostat_d.txt").read_text())
    with pytest.raises(ParseError, match=match) as err:
        parse_vmstat(f)
    assert str(err.value).startswith(str(f))


def test_cli_parse_vmstat(capsys):
    assert main(["parse", "vmstat", str(CAP / "vmstat_SM.txt"), "--unit", "M"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "timestamp,sample,r,b,swpd,free,buff,cache,si,so,bi,bo,in,cs,us,sy,id,wa,st"
    assert out[1] == ",1,1,0,0,23992320,7168,565248,0,0,20,4,138,210,1,1,99,0,0"


# The vectorized fast path (vmstat._fast_text) must return exactly the reference loop's frame
# (vmstat._parse_text) or give way to it (None).

from engbench.parsers import vmstat as _vm  # noqa: E402


@pytest.mark.parametrize("name", sorted(p.name for p in CAP.glob("*vmstat*.txt")))
@pytest.mark.parametrize("since_boot,unit", [(True, "K"), (False, "M")])
def test_fast_path_equals_reference_on_real_captures(name, since_boot, unit):
    text = (CAP / name).read_text()
    fast = _vm._fast_text(text.encode(), "fx", since_boot, unit, None)
    ref = _vm._parse_text(text, "fx", since_boot, unit, None)
    assert fast is not None
    pd.testing.assert_frame_equal(fast, ref, check_exact=True)
    assert fast.attrs == ref.attrs


def test_fast_path_trailing_blanks_and_crlf(tmp_path):
    text = "\n".join([G, N, row(5, 1, 1) + "  ", row(7, 2, 1, "2026-11-21 06:00:01"), G, N,
                      row(9, 3, 1, "2026-11-21 06:00:02")]) + "\n"
    fast = _vm._fast_text(text.encode(), "fx", True, "K", None)
    ref = _vm._parse_text(text, "fx", True, "K", None)
    pd.testing.assert_frame_equal(fast, ref, check_exact=True)
    assert ref["cs"].tolist() == [7, 9]  # the repeated headers are not samples
    f = tmp_path / "crlf.txt"
    f.write_bytes(text.replace("\n", "\r\n").encode())
    pd.testing.assert_frame_equal(parse_vmstat(f), ref, check_exact=True)
