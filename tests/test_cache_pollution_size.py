"""004's experiment files (notebooks/params/repro_cache_pollution_read_once_{false,true}.yaml) keep the
premise of the hot_bytes_lost gate (>= 0.25 with read_once false: the source lost 57 %), from the files
alone, hand-computed:

- the cold pass brings in enough bytes to take a quarter of the hot set out. WiredTiger evicts down to
  80 % of the cache (eviction_target); the hot set fills 0.775 of it after the warm-up (measured: hot
  0.70 of the cache in logical bytes). So the cold pass must bring at least (0.80 - 0.775) C of room
  plus 0.25 x 0.775 C of hot bytes out: 0.219 C (0.21875). 6 GiB = 6,442,450,944 B; 4,710,000 cold documents of
  1,000 bytes (1,026 of BSON) = 4,832,460,000 B = 0.750 C >= 2 x 0.219 C (a margin of 3.4x).
- the hot readers do not re-read every hot page faster than the cold pass ages them: paced
  (target_rate) to at most 0.4 reads per hot leaf page over a 10 s pass (the gate's shortest): measured
  at 4 GiB on a busy machine, 5,000 reads/s (0.545) lost 25.5 % (at the gate, 1 run), 2,500 (0.273) lost
  53-64 % (5 runs); at 6 GiB 2,500 (0.182) lost 53-62 % (3 runs). The hot collection in 32 KiB leaf
  pages (WiredTiger's leaf_page_max): 4,395,000 x 1,026 / 32,768 = 137,611 pages; 2,500 reads/s x 10 s
  = 25,000 reads = 0.182 per page. The closed-loop readers of the shipped
  runs (no target_rate) read 100k-290k/s, 11-32 reads per page in 10 s, and the hot set lost 0.45-1.0 %.
- both files are the same experiment but for read_once."""

from pathlib import Path

import pytest
import yaml

from engbench.run.units import parse_size

PARAMS = Path(__file__).resolve().parents[1] / "notebooks" / "params"
FILES = ("repro_cache_pollution_read_once_false", "repro_cache_pollution_read_once_true")
BSON_OVERHEAD = 26          # {_id: int64, v: string}: 4 length + 1+4+8 _id + 1+2+4+1 v + 1 end
LEAF_PAGE = 32 * 1024       # WiredTiger's default leaf_page_max
EVICTION_TARGET = 0.80      # WiredTiger's default eviction_target (% of the cache)
HOT_FILL = 0.775            # hot bytes in cache / cache after the warm-up (cache_pollution.hot_fill_start)


def _load(stem):
    return yaml.safe_load((PARAMS / f"{stem}.yaml").read_text())


def test_hand_computed_figures():
    assert 6 * 2**30 == 6_442_450_944
    assert 4_710_000 * (1000 + BSON_OVERHEAD) == 4_832_460_000
    assert round(4_832_460_000 / 6_442_450_944, 3) == 0.750
    assert abs((EVICTION_TARGET - HOT_FILL) + 0.25 * HOT_FILL - 0.21875) < 1e-12
    assert 4_395_000 * (1000 + BSON_OVERHEAD) // LEAF_PAGE == 137_611
    assert round(2500 * 10 / 137_611, 3) == 0.182
    assert round(5000 * 10 / (2_930_000 * (1000 + BSON_OVERHEAD) // LEAF_PAGE), 3) == 0.545  # 4 GiB, 5,000/s


@pytest.mark.parametrize("stem", FILES)
def test_cold_pass_can_take_a_quarter_of_the_hot_set(stem):
    d = _load(stem)
    cache = parse_size(d["knobs"]["wiredtiger.cache_size"])
    p = d["params"]
    cold = p["cold_docs"] * (p["doc_size"] + BSON_OVERHEAD)
    hot = p["hot_docs"] * (p["doc_size"] + BSON_OVERHEAD)
    needed = (EVICTION_TARGET - HOT_FILL) + 0.25 * HOT_FILL
    assert cold / cache >= 2 * needed, (stem, cold / cache, needed)
    assert 0.6 <= cold / cache <= 0.9, "the cold_per_cache gate (about 3/4 of the cache, as the source)"
    assert 0.65 <= hot / cache <= 0.75, "the hot set fills >= 0.75 of the cache after the warm-up (measured 0.775 at 0.70)"


@pytest.mark.parametrize("stem", FILES)
def test_hot_readers_paced_below_0_4_reads_per_page_per_pass(stem):
    p = _load(stem)["params"]
    rate = p.get("target_rate", 0)
    assert rate > 0, f"{stem}: closed-loop hot readers re-read every hot page within a second (0.45-1.0 % lost)"
    pages = p["hot_docs"] * (p["doc_size"] + BSON_OVERHEAD) / LEAF_PAGE
    assert rate * 10 / pages <= 0.4, (stem, rate * 10 / pages)


def test_the_two_files_differ_in_read_once_only():
    a, b = (_load(s) for s in FILES)
    assert a["params"].pop("read_once") is False and b["params"].pop("read_once") is True
    assert a["params"] == b["params"] and a["knobs"] == b["knobs"] and a["repeat"] == b["repeat"] >= 3
