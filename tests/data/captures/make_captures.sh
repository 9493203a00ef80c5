#!/bin/bash
# Re-creates the real captures in this folder (sysstat 12.6.1, procps-ng 4.0.2, disk vda, ext4 with
# the `discard` mount option). Not run by the tests: the files it wrote are committed.
# Burst: 256 MiB written with dd conv=fsync to a file on vda, then the file is removed (ext4 with
# `discard` turns the freed blocks into discards, which iostat shows in d/s and dkB/s, not in wkB/s).
set -eu
cd "$(dirname "$0")"
BURST_FILE=${BURST_FILE:-/work/engbench_burst.bin}
export TZ=UTC LC_ALL=C
S_TIME_FORMAT=ISO iostat -y -x -k -t 1 vda > burst_iostat_xkt.txt & P1=$!
vmstat -n -t -w 1 > burst_vmstat_ntw.txt & P2=$!
sleep 3
t0=$(date +%s.%N)
dd if=/dev/urandom of="$BURST_FILE" bs=1M count=256 conv=fsync 2> burst_dd.log
t1=$(date +%s.%N)
sleep 3
rm -f "$BURST_FILE"; sync; sleep 3
t2=$(date +%s.%N)
sleep 2
kill $P1 $P2; wait $P1 $P2 2>/dev/null || true
printf '{"bytes_written": %d, "write_start_unix_s": %s, "write_end_unix_s": %s, "rm_done_unix_s": %s}\n' \
  $((256*1024*1024)) "$t0" "$t1" "$t2" > burst_meta.json

# other layouts, 4 reports each (the first is the since-boot one where -y is absent)
S_TIME_FORMAT=ISO iostat -d -k vda 1 4 > iostat_d.txt
S_TIME_FORMAT=ISO iostat -d -t vda 1 3 > iostat_d_t.txt
S_TIME_FORMAT=ISO iostat -x -m -t vda 1 4 > iostat_xm_t.txt
iostat -x -k -t vda 1 3 > iostat_x_t_clocale.txt
iostat -c -d -k vda 1 3 > iostat_cd.txt
iostat -y -x -k vda 1 2 > iostat_yx_nots.txt
S_TIME_FORMAT=ISO iostat -o JSON -x -k -t vda 1 3 > iostat_json_xt.json
iostat -o JSON -d vda 1 2 > iostat_json_d.json
iostat -x -k -p vda 1 2 > iostat_x_partitions.txt
vmstat -a -n -t 1 4 > vmstat_a.txt
vmstat -S M -n 1 4 > vmstat_SM.txt
vmstat -w 1 25 > vmstat_w_repeated_headers.txt
vmstat -n 1 4 > vmstat_n_nots.txt
vmstat -t 1 3 > vmstat_t_std.txt

# sysstat 12.x short (-s), MB (-m), human/pretty (-h, --human, --pretty, --compact) and group
# (-g NAME [-H]) layouts. Each capture runs while a small dd writes, fsyncs, reads back (O_DIRECT)
# and removes a 48 MiB file, so the values are not all zero. 3 reports of 1 s (2 with -y).
IO_FILE=${IO_FILE:-/work/engbench_io.bin}
with_io() {
  ( sleep 0.5; dd if=/dev/zero of="$IO_FILE" bs=1M count=48 conv=fsync 2>/dev/null
    dd if="$IO_FILE" of=/dev/null bs=1M iflag=direct 2>/dev/null; rm -f "$IO_FILE"; sync ) &
  "$@"; wait
}
S_TIME_FORMAT=ISO with_io iostat -s -t vda 1 3 > iostat_s_t.txt
with_io iostat -s -x -y vda 1 2 > iostat_sx_y.txt
with_io iostat -s -m -y vda 1 2 > iostat_sm_y.txt
with_io iostat -m -y vda 1 2 > iostat_m_y.txt
with_io iostat -h -t vda 1 3 > iostat_h_t.txt
S_TIME_FORMAT=ISO with_io iostat -h -x -y -t vda 1 2 > iostat_hx_yt.txt
with_io iostat -h -m -y vda 1 2 > iostat_hm_y.txt
with_io iostat -h -s -x -y vda 1 2 > iostat_hsx_y.txt
with_io iostat -h -x --compact -y vda 1 2 > iostat_hx_compact_y.txt
with_io iostat --human -x -y vda 1 2 > iostat_human_x_y.txt
with_io iostat --pretty -x -y vda 1 2 > iostat_pretty_x_y.txt
# groups: -g grp over vda and zram0 (idle) prints both devices then " grp"; -H only " grp". With -H,
# sysstat 12.6.1 prints wrong values in the split --pretty layout (the read totals since boot over
# one interval, w/s d/s f/s 0): they are parsed as printed.
S_TIME_FORMAT=ISO with_io iostat -g grp -x -y -t vda zram0 1 2 > iostat_g_x_yt.txt
with_io iostat -g grp -H vda zram0 1 3 > iostat_gH.txt
with_io iostat -g grp -H -h -x -y vda 1 2 > iostat_gH_hx_y.txt
with_io iostat -g grp -h -y vda zram0 1 2 > iostat_g_h_y.txt
with_io iostat -o JSON -g grp -H -y vda zram0 1 2 > iostat_json_gH_y.json
