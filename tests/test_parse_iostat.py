"""iostat parsing: real captures from this VM (tests/data/captures, see make_captures.sh) and
fixtures built from the headers of layouts this VM cannot print (older sysstat, -G, --pretty edge cases)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engbench.cli import main
from engbench.parsers import ParseError, parse_iostat, parse_iostat_text, since_boot_from_argv

CAP = Path(__file__).parent / "data" / "captures"
BANNER = "Linux 4.4.0-21-generic (host) \t04/21/2016 \t_x86_64_\t(8 CPU)\n\n"


def report(header, rows, stamp=None, cpu=True):
    out = f"{stamp}\n" if stamp else ""
    if cpu:
        out += "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n" \
               "           1.00    0.00    2.00    0.00    0.00   97.00\n\n"
    return out + header + "\n" + "\n".join(rows) + "\n\n"


UB16 = "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util"
UB18 = "Device            r/s     w/s     rkB/s     wkB/s   rrqm/s   wrqm/s  %rrqm  %wrqm r_await w_await aqu-sz rareq-sz wareq-sz  svctm  %util"
UB20 = ("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz"
        "     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz  aqu-sz  %util")
D_OLD = "Device:            tps    kB_read/s    kB_wrtn/s    kB_read    kB_wrtn"


def test_burst_wkb_total_matches_bytes_written():
    """256 MiB written with dd conv=fsync, then the file removed (ext4 -o discard). The parsed
    wkB over the capture (1-s reports: Σ wkB/s × 1 s) must contain every fsynced byte, plus at
    most 2% for ext4's journal and metadata (inode, extent tree, bitmaps: a few hundred kB for
    65,536 blocks) and background writes of the VM; the removal's discards are in dkB, not wkB."""
    meta = json.loads((CAP / "burst_meta.json").read_text())
    kib = meta["bytes_written"] / 1024
    io = parse_iostat(CAP / "burst_iostat_xkt.txt", device="vda")
    assert len(io) == 12 and io["timestamp"].notna().all()
    assert kib <= io["wkb_per_s"].sum() <= kib * 1.02
    assert io["dkb_per_s"].sum() >= 0.99 * kib  # the rm's discards, reported apart
    burst = io[io["timestamp"] <= pd.Timestamp(meta["write_end_unix_s"] + 2, unit="s", tz="UTC")]
    assert burst["dkb_per_s"].sum() < 0.01 * kib  # none during the write itself


def test_current_layout_columns_and_timestamps():
    io = parse_iostat(CAP / "burst_iostat_xkt.txt")
    assert list(io.columns[:9]) == ["timestamp", "report", "device", "r_per_s", "w_per_s",
                                     "rkb_per_s", "wkb_per_s", "d_per_s", "dkb_per_s"]
    assert {"f_per_s", "f_await", "aqu_sz", "util_pct", "rareq_sz"} <= set(io.columns)
    assert io.attrs["layout"] == "ub22"
    assert str(io["timestamp"].dtype) == "datetime64[ns, UTC]"
    assert io["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 05:45:32", tz="UTC")
    assert (io["timestamp"].diff().dropna() == pd.Timedelta(seconds=1)).all()


@pytest.mark.parametrize("header,row,want", [
    # positional awk would need $6/$7 (ub16), $4/$5 (ub18), $3/$9 (ub20): one column map per era
    (UB16, "sda 0.00 5.00 10.00 20.00 40.00 80.00 8.0 0.1 1.0 1.0 1.0 0.5 3.0", (10, 20, 40, 80, np.nan)),
    (UB18, "sda 10.00 20.00 40.00 80.00 0.00 5.00 0.0 20.0 1.0 1.0 0.1 4.0 4.0 0.5 3.0", (10, 20, 40, 80, np.nan)),
    (UB20, "sda 10.00 40.00 0.00 0.00 1.0 4.0 20.00 80.00 5.00 20.0 1.0 4.0 3.00 12.00 0.0 0.0 0.1 4.0 0.1 3.0",
     (10, 20, 40, 80, 12)),
])
def test_older_layouts_by_name(header, row, want):
    io = parse_iostat_text(BANNER + report(header, [row]) * 2, source="fx")
    got = io.loc[0, ["r_per_s", "w_per_s", "rkb_per_s", "wkb_per_s", "dkb_per_s"]].to_numpy(float)
    np.testing.assert_array_equal(got, np.array(want, float))
    assert io["report"].tolist() == [0, 1]


def test_old_d_layout_and_sectors():
    io = parse_iostat_text(BANNER + report(D_OLD, ["sda 12.00 40.00 80.00 400 800"], cpu=False),
                           source="fx")
    assert io.attrs["layout"] == "d"
    assert np.isnan(io.loc[0, "r_per_s"]) and np.isnan(io.loc[0, "dkb_per_s"])
    assert io.loc[0, "wkb_total"] == 800 and io.loc[0, "tps"] == 12
    sec = "Device:         rrqm/s   wrqm/s     r/s     w/s   rsec/s   wsec/s avgrq-sz avgqu-sz   await  svctm  %util"
    io = parse_iostat_text(BANNER + report(sec, ["sda 0 0 1 2 100 300 8 0 1 1 3"]), source="fx")
    assert io.loc[0, "rkb_per_s"] == 50 and io.loc[0, "wkb_per_s"] == 150


def test_d_layout_real_with_discards_and_interleaved_cpu():
    d = parse_iostat(CAP / "iostat_d.txt")
    assert d.loc[2, "rkb_per_s"] == 30192 and d.loc[2, "dkb_per_s"] == 4 and d.loc[2, "dkb_total"] == 4
    cd = parse_iostat(CAP / "iostat_cd.txt")  # avg-cpu blocks interleaved
    assert len(cd) == 3 and cd["timestamp"].isna().all()


def test_megabytes_converted_to_kb():
    io = parse_iostat(CAP / "iostat_xm_t.txt")
    assert io.loc[1, "rkb_per_s"] == pytest.approx(11.73 * 1024)
    assert io.loc[2, "dkb_per_s"] == pytest.approx(0.02 * 1024)
    assert io.loc[1, "rareq_sz"] == 46.01  # request sizes stay kB under -m


def test_short_s_layout_keeps_write_plus_discard_apart():
    """iostat -s prints written + discarded together (kB_w+d/s): it lands in wdkb_per_s, and
    wkb_per_s / dkb_per_s stay NaN (the split is unknown, not 0)."""
    io = parse_iostat(CAP / "iostat_s_t.txt")
    assert io.attrs["layout"] == "s" and len(io) == 3
    assert io.loc[1, "rkb_per_s"] == 49816 and io.loc[1, "wdkb_per_s"] == 116640
    assert io.loc[1, "rkb_total"] == 49816 and io.loc[1, "wdkb_total"] == 116640
    assert io[["wkb_per_s", "dkb_per_s", "r_per_s"]].isna().all().all()
    assert io["timestamp"].iloc[1] == pd.Timestamp("2026-11-23 10:16:05", tz="UTC")
    m = parse_iostat(CAP / "iostat_sm_y.txt")  # -s -m: MB_read/s 48.00, MB_w+d/s 96.61, MB_w+d 96
    assert m.loc[0, "rkb_per_s"] == 48 * 1024 and m.loc[0, "wdkb_per_s"] == pytest.approx(96.61 * 1024)
    assert m.loc[0, "wdkb_total"] == 96 * 1024


def test_short_extended_sx_layout_totals():
    """iostat -s -x: kB/s, rqm/s, areq-sz are read + write + discard totals."""
    io = parse_iostat(CAP / "iostat_sx_y.txt")
    assert io.attrs["layout"] == "sx" and len(io) == 2
    got = io.loc[0, ["tps", "kb_per_s", "rqm_per_s", "await", "areq_sz", "aqu_sz", "util_pct"]]
    assert got.tolist() == [142, 148248, 37, 2.94, 1044, 0.42, 7.2]
    assert io[["r_per_s", "rkb_per_s", "wkb_per_s", "dkb_per_s"]].isna().all().all()


def test_megabytes_d_layout_and_gigabytes_by_header():
    m = parse_iostat(CAP / "iostat_m_y.txt")  # -m: MB_dscd/s 48.01 MB_read 52
    assert m.loc[0, "dkb_per_s"] == pytest.approx(48.01 * 1024) and m.loc[0, "rkb_total"] == 52 * 1024
    # -G (sysstat's development version): the headers as iostat.c's write_disk_stat_header prints them
    g = "Device             tps    GB_read/s    GB_wrtn/s    GB_dscd/s    GB_read    GB_wrtn    GB_dscd"
    io = parse_iostat_text(BANNER + report(g, ["sda 10.00 0.05 0.25 0.00 3 7 0"]), source="fx")
    assert io.loc[0, "rkb_per_s"] == pytest.approx(0.05 * 1024 ** 2) and io.loc[0, "wkb_total"] == 7 * 1024 ** 2
    gx = UB20.replace("kB/s", "GB/s")
    io = parse_iostat_text(BANNER + report(gx, ["sda 1 0.5 0 0 0 0 2 0.25 0 0 0 0 0 0.125 0 0 0 0 0 0"]),
                           source="fx")
    assert io.loc[0, ["rkb_per_s", "wkb_per_s", "dkb_per_s"]].tolist() == [524288, 262144, 131072]


@pytest.mark.parametrize("tok,kind,factor,want", [
    ("222.1k", "size", 1.0, 222.1),                # k = kB
    ("1.2M", "size", 1.0, 1.2 * 1024),             # M = 1024 kB = 1228.8 kB
    ("3.9G", "size", 1.0, 3.9 * 1024 ** 2),        # G = 1024**2 kB = 4089446.4 kB
    ("2.0T", "size", 1.0, 2.0 * 1024 ** 3),
    ("48.2M", "size", 1024.0, 48.2 * 1024),        # under MB_read/s: the suffix supersedes the MB
    ("7.20", "size", 1024.0, 7.2 * 1024),          # no -h: the header's MB → kB
    ("15.2%", "pct", 1.0, 15.2),
    ("117025.74", "count", 1.0, 117025.74),        # counts never get a suffix, however large
    ("1.2k", "count", 1.0, None),                  # ... so one there is refused
    ("3.0%", "size", 1.0, None),
    ("4.0?", "size", 1.0, None),                   # beyond P
    ("nan", "size", 1.0, None),
])
def test_human_value_rule(tok, kind, factor, want):
    from engbench.parsers._human import human_value
    got = human_value(tok, kind, factor)
    assert got == (pytest.approx(want) if want is not None else None)


def test_human_column_conversion_and_first_bad_value():
    from engbench.parsers._human import to_numbers
    vals, bad = to_numbers(["1.5k", "2.0M", "3", "0.0k"], "size", 1024.0)  # header in MB
    assert bad == -1 and vals.tolist() == [1.5, 2.0 * 1024, 3 * 1024, 0.0]
    vals, bad = to_numbers(["6.0%", "12.5%"], "pct", 1.0)
    assert bad == -1 and vals.tolist() == [6.0, 12.5]
    assert to_numbers(["1.0k", "2,0k", "2.0k"], "size", 1.0)[1] == 1
    assert to_numbers(["1.00", "2.0k"], "count", 1.0)[1] == 1
    assert to_numbers(["1.00", "nan"], "count", 1.0)[1] == 1


def test_human_sizes_in_real_captures():
    """-h -m: dd read then wrote 48 MiB = 49152 kB in about a second; iostat printed `48.2M`
    under MB_read/s: 48.2 MiB/s = 49356.8 kB/s (the suffix is the unit, not MB x M)."""
    hm = parse_iostat(CAP / "iostat_hm_y.txt")
    assert hm.attrs["layout"] == "d"
    assert hm.loc[0, "rkb_per_s"] == pytest.approx(48.2 * 1024) and hm.loc[0, "dkb_per_s"] == 48 * 1024
    assert hm.loc[1, "wkb_per_s"] == 92 and hm.loc[1, "wkb_total"] == 92  # `92.0k`
    assert hm.loc[0, "tps"] == 175
    h = parse_iostat(CAP / "iostat_h_t.txt")  # -h -t: kB_wrtn `17.5G`, C-locale stamps
    assert h.loc[0, "wkb_total"] == pytest.approx(17.5 * 1024 ** 2)
    assert h["timestamp"].iloc[2] == pd.Timestamp("2026-11-23 10:16:12", tz="UTC")
    hs = parse_iostat(CAP / "iostat_hsx_y.txt")  # -h -s -x: kB/s `149.0M`, areq-sz `871.6k`, %util `6.0%`
    assert hs.loc[0, ["kb_per_s", "areq_sz", "util_pct"]].tolist() == [149 * 1024, 871.6, 6.0]
    hu = parse_iostat(CAP / "iostat_human_x_y.txt")  # --human alone: the device stays on the left
    assert hu.loc[1, "dkb_per_s"] == pytest.approx(11.8 * 1024) and hu.loc[1, "d_per_s"] == 372


def test_pretty_subreports_joined_into_one_row_per_device():
    """-h -x prints each report as 4 sub-reports (r, w, d, f/%util), the device on the right;
    they make one row with the same columns, in the same order, as the one-line (--compact) form."""
    io = parse_iostat(CAP / "iostat_hx_yt.txt")
    assert len(io) == 2 and io["report"].tolist() == [0, 1] and io.attrs["layout"] == "ub22"
    assert list(io.columns) == list(parse_iostat(CAP / "iostat_hx_compact_y.txt").columns)
    row = io.loc[0]
    assert (row["r_per_s"], row["rkb_per_s"], row["wkb_per_s"], row["dareq_sz"]) == \
        (97, 48 * 1024, pytest.approx(49.4 * 1024), pytest.approx(8.3 * 1024))
    assert (row["wrqm_pct"], row["f_per_s"], row["util_pct"]) == (18.3, 2, 6.0)
    assert io["timestamp"].tolist() == [pd.Timestamp("2026-11-23 10:16:13", tz="UTC"),
                                        pd.Timestamp("2026-11-23 10:16:14", tz="UTC")]
    plain = parse_iostat(CAP / "iostat_pretty_x_y.txt")  # --pretty without --human
    assert plain.loc[1, ["rkb_per_s", "drqm_pct", "util_pct"]].tolist() == [124492, 11.11, 21.2]


PR = ["     r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz Device",
      "     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz Device"]


def pretty(*parts):
    """A --pretty report from (header, rows) pairs, each sub-report followed by a blank line."""
    return "".join(f"{h}\n" + "".join(f"{r}\n" for r in rows) + "\n" for h, rows in parts)


def test_pretty_two_devices_matched_by_name():
    text = BANNER + pretty((PR[0], ["   1.00     2.0k     0.00   0.0%    0.10     2.0k sda",
                                    "   3.00     1.5M     0.00   0.0%    0.10   512.0k sdb"]),
                           (PR[1], ["   5.00     6.0k     0.00   0.0%    0.10     1.2k sda",
                                    "   7.00     2.0G     0.00  50.0%    0.10   292.6M sdb"]))
    io = parse_iostat_text(text, source="fx")
    assert io["device"].tolist() == ["sda", "sdb"]
    assert io.loc[1, ["r_per_s", "rkb_per_s", "w_per_s", "wkb_per_s", "wrqm_pct"]].tolist() == \
        [3, 1.5 * 1024, 7, 2 * 1024 ** 2, 50]


def test_group_rows_named_with_a_space_and_flagged():
    """-g grp vda zram0 -x: each report lists vda, zram0, then the group as " grp" (iostat's own
    name for it). Its kB/s are the devices' sums (49304 + 0); its %util is parsed as printed,
    7.60 / 4: sysstat 12.6.1 divides by a device count it never resets (2 devices x 2 reads, the
    first read hidden by -y; iostat.c write_stats: `(g->dev_tp)++` per device per read)."""
    io = parse_iostat(CAP / "iostat_g_x_yt.txt")
    assert io["device"].tolist() == ["vda", "zram0", " grp"] * 2
    assert io["is_group"].tolist() == [False, False, True] * 2
    grp = parse_iostat(CAP / "iostat_g_x_yt.txt", device=" grp")
    assert grp["rkb_per_s"].tolist() == [49304 + 0, 4 + 0] and grp.loc[0, "util_pct"] == 1.90
    assert parse_iostat(CAP / "iostat_g_x_yt.txt", device="grp").empty  # not a device
    assert len(parse_iostat(CAP / "iostat_g_x_yt.txt", device="vda")) == 2
    assert io["timestamp"].iloc[2] == pd.Timestamp("2026-11-23 10:16:27", tz="UTC")
    assert not parse_iostat(CAP / "burst_iostat_xkt.txt")["is_group"].any()


def test_group_only_H_pretty_human_and_json():
    gh = parse_iostat(CAP / "iostat_gH.txt")  # -H: the group's row only
    assert gh["device"].tolist() == [" grp"] * 3 and gh["is_group"].all()
    assert gh.loc[1, ["rkb_per_s", "wkb_per_s", "dkb_per_s"]].tolist() == [49156, 52672, 49168]
    h = parse_iostat(CAP / "iostat_g_h_y.txt")  # -h: `... 48.1M  grp`, the name after two blanks
    assert h["device"].tolist() == ["vda", "zram0", " grp"] * 2
    assert h.loc[2, "rkb_per_s"] == pytest.approx(48.1 * 1024) and h.loc[5, "tps"] == 17
    hx = parse_iostat(CAP / "iostat_gH_hx_y.txt")  # -H -h -x: " grp" in all 4 sub-reports
    assert hx["device"].tolist() == [" grp"] * 2 and hx.loc[0, "rkb_per_s"] == pytest.approx(3.9 * 1024 ** 2)
    js = parse_iostat(CAP / "iostat_json_gH_y.json")
    assert js["device"].tolist() == [" grp"] * 2 and js["is_group"].all() and js.loc[0, "rkb_per_s"] == 49532


def test_since_boot_report_dropped_only_when_told():
    with_sb = parse_iostat(CAP / "iostat_x_t_clocale.txt", since_boot_included=False)
    dropped = parse_iostat(CAP / "iostat_x_t_clocale.txt", since_boot_included=True)
    assert len(with_sb) == 3 and len(dropped) == 2 and dropped["report"].tolist() == [1, 2]
    # the naive mean keeps the since-boot average (3910 kB/s of an idle disk)
    assert with_sb["wkb_per_s"].mean() > 1000 and dropped["wkb_per_s"].mean() == 0
    assert since_boot_from_argv(["iostat", "-y", "-x", "1"]) is False
    assert since_boot_from_argv(["iostat", "-kx", "10"]) is True
    assert since_boot_from_argv(["iostat", "-ykx", "5"]) is False


def test_locale_timestamps():
    c = parse_iostat(CAP / "iostat_x_t_clocale.txt")  # LC_ALL=C: 11/21/26 05:45:51
    assert c["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 05:45:51", tz="UTC")
    row = "sda 10.00 20.00 40.00 80.00 0.00 5.00 0.0 20.0 1.0 1.0 0.1 4.0 4.0 0.5 3.0"
    us = BANNER + report(UB18, [row], "11/21/2026 05:40:06 PM") + report(UB18, [row], "11/21/2026 05:40:07 PM")
    assert parse_iostat_text(us)["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 17:40:06", tz="UTC")
    gb = BANNER + report(UB18, [row], "21/11/26 05:40:06") + report(UB18, [row], "21/11/26 05:40:07")
    assert parse_iostat_text(gb)["timestamp"].iloc[1] == pd.Timestamp("2026-11-21 05:40:07", tz="UTC")
    iso = BANNER + report(UB18, [row], "2026-11-21T06:40:06+0100")
    assert parse_iostat_text(iso)["timestamp"].iloc[0] == pd.Timestamp("2026-11-21 05:40:06", tz="UTC")


def test_exact_device_match_not_substring():
    rows = ["vda 1 2 10 20 0 0 0 0 0 0 0 4 4 0 1", "vda1 100 200 1000 2000 0 0 0 0 0 0 0 4 4 0 1",
            "vda15 100 200 1000 2000 0 0 0 0 0 0 0 4 4 0 1"]
    text = BANNER + report(UB18, rows) * 3
    io = parse_iostat_text(text, device="vda")
    assert len(io) == 3 and (io["device"] == "vda").all()
    assert io["wkb_per_s"].mean() == 20  # grep vda would give (20+2000+2000)/3
    assert sorted(parse_iostat_text(text)["device"].unique()) == ["vda", "vda1", "vda15"]


def test_json_matches_text_layout_and_truncated_json_refused(tmp_path):
    js = parse_iostat(CAP / "iostat_json_xt.json")
    assert js.attrs["layout"] == "ub22" and len(js) == 3
    assert js.loc[0, "util_pct"] == 2.32 and js.loc[0, "rrqm_pct"] == 14.97
    assert js["timestamp"].iloc[1] == pd.Timestamp("2026-11-21 05:45:58", tz="UTC")
    assert parse_iostat(CAP / "iostat_json_d.json").loc[1, "rkb_per_s"] == 6080
    text = (CAP / "iostat_json_xt.json").read_text()
    bad = tmp_path / "cut.json"
    bad.write_text(text[: len(text) // 2])
    with pytest.raises(ParseError, match=r"cut\.json:\d+: truncated or invalid iostat JSON"):
        parse_iostat(bad)


@pytest.mark.parametrize("content,match", [
    ("", "empty file"),
    (None, "vmstat capture, not iostat"),
    (BANNER + report(UB18, ["sda 1 2 10 20 0 0 0 0 0 0 0 4 4 0 1", "sda 1 2 x 20 0 0 0 0 0 0 0 4 4 0 1"]),
     r":8: not a number in column rkb_per_s"),
    (BANNER + report(UB18, ["sda 1 2 10 20 0 0 0 0 0 0"]), r":7: short device row"),
    (BANNER + report(UB18, ["sda 1 2 10 20 0 0 0 0 0 0 0 4 4 0 1 7 7"]), r":7: garbled device row"),
    (BANNER + report("Device tps kB/s rqm/s q_lat aqu-sz %util", ["sda 1 2 3 4 5 6"]),
     r":6: unknown iostat layout: column 'q_lat'"),
    (BANNER + report("Device tps r/s w/s", ["sda 1 2 3"]), r":6: unknown iostat layout: no read and write kB"),
    (BANNER + report(UB18, ["sda 1 2 10 20 0 0 0 0 0 0 0 4 4 0 1"], "11/21/26 05:40:06") + "11/21/26 05:40:07\n",
     r":10: truncated file"),
    (BANNER + report(UB18, ["sda 1 2 10 20 0 0 0 0 0 0 0 4 4 0 1"]) + report(UB20, ["sda" + " 1" * 20]),
     "layout changes"),
    (BANNER + "avg-cpu:  %user\n   1.0\n\nhello world\n", r":6: garbled line"),
    (BANNER + report(UB18, ["sda 1 2 10 20 1.2k 0 0 0 0 0 0 4 4 0 1"]), r":7: not a number in column rrqm_per_s"),
    (BANNER + report(UB18, ["sda 1.2k 2 10 20 0 0 0 0 0 0 0 4 4 0 1"]), r":7: not a number in column r_per_s"),
    (BANNER + pretty((PR[0], ["1 2.0k 0 0.0% 0.1 2.0k sda"]), (PR[1], ["5 6.0k 0 0.0% 0.1 1.2k sdb"])),
     r":7: device 'sdb' where the first sub-report of the report has 'sda'"),
    (BANNER + pretty((PR[0], ["1 2.0k 0 0.0% 0.1 2.0k sda"]), (PR[1], ["5 6.0k 0 0.0% 0.1 1.2k sda"]),
                     (PR[0], ["1 2.0k 0 0.0% 0.1 2.0k sda"])), r":9: truncated file: the last report has 1 of its 2"),
    (BANNER + pretty((PR[0], ["1 2.0k 0 0.0% 0.1 2.0k sda"])) + "11/21/26 05:40:06\n" +
     pretty((PR[1], ["5 6.0k 0 0.0% 0.1 1.2k sda"])), r":6: a timestamp between the sub-reports"),
    (BANNER + pretty((PR[0], ["1 2.0k 0 0.0% 0.1 sda"]), (PR[1], ["5 6.0k 0 0.0% 0.1 1.2k sda"])),
     r":4: short device row"),
    (BANNER + pretty((PR[0], ["1 2.0k 0 0.0% 0.1 2.0k sda", "1 2.0k 0 0.0% 0.1 2.0k sdb"]),
                     (PR[1], ["5 6.0k 0 0.0% 0.1 1.2k sda"])), r":7: sub-report with 1 devices"),
])
def test_refused_with_file_and_line(tmp_path, content, match):
    f = tmp_path / "io.txt"
    f.write_text(content if content is not None else (CAP / "vmstat_a.txt").read_text())
    with pytest.raises(ParseError, match=match) as err:
        parse_iostat(f)
    assert str(err.value).startswith(str(f))
    assert isinstance(err.value, ValueError)


def test_cli_parse_iostat(capsys):
    assert main(["parse", "iostat", str(CAP / "iostat_xm_t.txt"), "--device", "vda",
                 "--since-boot-included"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("timestamp,report,device,r_per_s,w_per_s,rkb_per_s,wkb_per_s")
    assert len(out) == 4 and out[1].startswith("2026-11-21T05:45:49Z,1,vda,261,1,12011.52,")
    assert main(["parse", "iostat", str(CAP / "vmstat_a.txt")]) == 2


# The vectorized fast path (iostat._fast_text) must return exactly the reference loop's frame
# (iostat._parse_text) or give way to it (None); errors are always worded by the reference loop.

from engbench.parsers import iostat as _io  # noqa: E402


def _both(text, **kw):
    args = (kw.get("since_boot_included", False), kw.get("device"), "UTC", None)
    return _io._fast_text(text.encode(), "fx", *args), _io._parse_text(text, "fx", *args)


# human-readable values (-h, --human) and the device name on the right (--pretty) are left to the
# reference loop: rare in captures, and not worth a second vectorized reader
SLOW = {"iostat_h_t.txt", "iostat_hx_yt.txt", "iostat_hm_y.txt", "iostat_hsx_y.txt",
        "iostat_hx_compact_y.txt", "iostat_human_x_y.txt", "iostat_pretty_x_y.txt",
        # group rows start with a blank: " grp"
        "iostat_g_x_yt.txt", "iostat_gH.txt", "iostat_gH_hx_y.txt", "iostat_g_h_y.txt"}


@pytest.mark.parametrize("name", sorted(p.name for p in CAP.glob("*iostat*.txt")))
@pytest.mark.parametrize("since_boot", [False, True])
def test_fast_path_equals_reference_on_real_captures(name, since_boot):
    fast, ref = _both((CAP / name).read_text(), since_boot_included=since_boot)
    if name in SLOW:
        assert fast is None
        pd.testing.assert_frame_equal(parse_iostat(CAP / name, since_boot_included=since_boot), ref,
                                      check_exact=True)
        return
    assert fast is not None  # the other real layouts all take the fast path
    pd.testing.assert_frame_equal(fast, ref, check_exact=True)
    assert fast.attrs == ref.attrs


ROW18 = "sda 10.00 20.00 40.00 80.00 0.00 5.00 0.0 20.0 1.0 1.0 0.1 4.0 4.0 0.5 3.0"


@pytest.mark.parametrize("text,fast_taken", [
    (BANNER + report(UB18, [ROW18 + "   ", ROW18]) * 2, True),          # trailing blanks: \s+ kept
    (BANNER + report(UB18, [ROW18.replace(" ", "\t", 3)]) * 2, True),   # tabs: \s+ kept
    (BANNER + report(UB18, [ROW18], "11/21/2026 11:59:59 AM") + report(UB18, [ROW18], "11/21/2026 12:00:00 PM"),
     True),                                                            # stamps differ beyond digits
    (BANNER + report(UB18, [ROW18], "11/21/26 05:40:06 ") + report(UB18, [ROW18], "11/21/26 05:40:07"),
     False),                                                           # a blank after a stamp
    (BANNER + report(UB18, [ROW18, "Device2 " + ROW18[4:]]) * 2, False),  # 'Device...' as a device row
])
def test_fast_path_equals_reference_or_gives_way(text, fast_taken):
    fast, ref = _both(text)
    assert (fast is not None) == fast_taken
    if fast is not None:
        pd.testing.assert_frame_equal(fast, ref, check_exact=True)
    pd.testing.assert_frame_equal(parse_iostat_text(text), ref, check_exact=True)


def test_crlf_capture_reads_like_lf(tmp_path):
    text = (CAP / "burst_iostat_xkt.txt").read_text()
    f = tmp_path / "crlf.txt"
    f.write_bytes(text.replace("\n", "\r\n").encode())
    pd.testing.assert_frame_equal(parse_iostat(f), parse_iostat(CAP / "burst_iostat_xkt.txt"),
                                  check_exact=True)


def test_non_utf8_refused_as_not_text(tmp_path):
    f = tmp_path / "bin.txt"
    f.write_bytes(b"Linux \xff\xfe\n")
    with pytest.raises(ParseError, match=r"bin\.txt: not text"):
        parse_iostat(f)


def test_fast_path_gives_way_on_na_words():
    """read_csv reads a device named like an NA word as NaN; the fast path (no NA filter) must
    not silently differ from the reference."""
    text = BANNER + report(UB18, ["NA" + ROW18[3:], ROW18]) * 2
    fast, ref = _both(text)
    assert fast is None
    pd.testing.assert_frame_equal(parse_iostat_text(text), ref, check_exact=True)
    with pytest.raises(ParseError, match=r"fx:7: not a number in column rkb_per_s \('nan'"):
        parse_iostat_text(BANNER + report(UB18, [ROW18.replace(" 40.00 ", " nan ")]), source="fx")
