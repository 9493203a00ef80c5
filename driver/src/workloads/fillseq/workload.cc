// fillseq: sequential keys written straight to one engine table (no BSON, no indexes), like
// `db_bench --benchmarks=fillseq` and wtperf's populate phase. Keys: the 8-byte big-endian counter
// padded with '0' to key_size (db_bench's layout); values: (100 - compressible_pct)% random bytes
// from a 1 MiB buffer at a random offset, the rest zero bytes. WAL/sync come from engine knobs.
//
// key_order: `ranges` (default) gives thread t the disjoint range [num*t/threads, num*(t+1)/threads);
// `shared` hands out every key from one atomic counter to whichever thread asks next, exactly as
// wtperf's populate threads do (`batch` keys per transaction either way), so all threads insert at
// the end of the key space (WiredTiger then splits the tail page in memory instead of forcing
// evictions of pages in the middle, which a thread writing its own range below another's causes).
// With `shared` and threads > 1 a thread's op stream depends on scheduling, so those threads are
// left out of op_stream_hash (with one thread `shared` writes and hashes exactly what `ranges` does).
//
// op_stream_hash: per batch its size, per key the key counter and the offset of the value's random
// bytes in the 1 MiB buffer, and once per thread the sizes and the buffer itself. The key and value
// bytes are a pure function of these, so the digest identifies the same stream as hashing every
// key and value byte did, at 2 words per key instead of 17: that hashing (a dependent chain of
// multiplies, ~31 ns per key here) was 6 % of the writer thread's time under RocksDB, the whole gap
// to db_bench, which hashes nothing (issue 30).
//
// Per-op cost kept small (the engine should dominate): the random source offset of the next value
// is drawn 16 ops ahead and its cache lines prefetched (a random 50-byte slice of a 1 MiB buffer is
// otherwise a cache miss per op, 10-14% of the writer thread under a RocksDB/WiredTiger insert);
// the sequence of offsets, and so every value and the op stream hash, is unchanged.
#include <algorithm>

#include "core/keycodec.h"
#include "core/rng.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {

constexpr size_t kValueBuffer = 1u << 20;
constexpr size_t kAhead = 16;  // power of two

int64_t p_int(const ParamValues& p, const char* n) { return p.at(n).get<int64_t>(); }

class FillSeq final : public Workload {
 public:
  std::vector<std::string> op_names() const override { return {"insert"}; }
  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    threads_ = static_cast<int>(p_int(p, "threads"));
    num_ = static_cast<uint64_t>(p_int(p, "num"));
    shared_ = p.at("key_order").get<std::string>() == "shared";
    next_key_.store(0);
    table_ = engine.table(p.at("table").get<std::string>(), TableKind::Record);
    Rng r(seed, 0xF111);
    buf_.resize(kValueBuffer);
    for (auto& c : buf_) c = static_cast<char>(r.next());
  }
  int threads() const override { return threads_; }
  bool thread_is_deterministic(int) const override { return !shared_ || threads_ == 1; }
  uint64_t target_ops() const override { return num_; }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    const ParamValues& p = ctx.params;
    const size_t key_size = static_cast<size_t>(p_int(p, "key_size"));
    const size_t value_size = static_cast<size_t>(p_int(p, "value_size"));
    const size_t rand_len = value_size * static_cast<size_t>(100 - p_int(p, "compressible_pct")) / 100;
    const uint64_t batch = static_cast<uint64_t>(p_int(p, "batch"));
    const double rate = ctx.params.at("target_rate").get<double>() / threads_;
    const bool shared = shared_;  // a local: the member shares its line with nothing hot, but a read is a load
    // A thread left out of op_stream_hash (key_order=shared, threads > 1) does not hash at all: its
    // digest would be discarded (run_summary), and hashing 116 bytes per key was about half of this
    // loop's own time under WiredTiger (perf, 3M keys; issue 30).
    const bool hashed = thread_is_deterministic(t);
    const uint64_t lo = shared ? 0 : num_ * t / threads_, hi = shared ? num_ : num_ * (t + 1) / threads_;
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    auto s = ctx.engine->session();
    std::string key(key_size, '0'), value(value_size, '\0');
    const char* src = buf_.data();
    const size_t offsets = kValueBuffer - rand_len + 1;
    // Offsets are drawn kAhead ops early (same sequence) so their cache lines can be prefetched:
    // inside a batch a put can be as cheap as an append to a RocksDB WriteBatch, so one op ahead is
    // not enough to hide a memory access.
    size_t ahead[kAhead];
    for (size_t i = 0; i < kAhead; ++i) {
      ahead[i] = static_cast<size_t>(rng.uniform(offsets));
      if (rand_len > 0) __builtin_prefetch(src + ahead[i]);
    }
    if (hashed) {
      h.u64(key_size);
      h.u64(value_size);
      h.u64(rand_len);
      h.str(buf_);
    }
    size_t slot = 0;
    uint64_t k = lo, done = 0;
    while (k < hi && !ctx.should_stop()) {
      const uint64_t first = shared ? next_key_.load(std::memory_order_relaxed) : k;
      if (first >= hi) break;
      uint64_t n = std::min(batch, hi - first);  // shared, threads > 1: at most n (others claim too)
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop()) break;
      uint64_t t0 = rate > 0 ? intended : now_ns();
      if (hashed) {
        h.u64(0x46494C /* FIL */);
        h.u64(n);
      }
      s->begin();
      try {
        for (uint64_t i = 0; i < n; ++i, ++k) {
          if (shared) {  // claim the next key (wtperf: one atomic increment per key)
            k = next_key_.fetch_add(1, std::memory_order_relaxed);
            if (k >= hi) {
              n = i;
              break;
            }
          }
          for (int b = 0; b < 8; ++b) key[b] = static_cast<char>((k >> (56 - 8 * b)) & 0xFF);
          const size_t off = ahead[slot];
          const size_t next = static_cast<size_t>(rng.uniform(offsets));
          ahead[slot] = next;
          slot = (slot + 1) & (kAhead - 1);
          // Nothing is read when every value byte is zero (compressible_pct=100): a prefetch would
          // only pull a random line of the buffer in, and under WiredTiger it held up the memory
          // fence of the next insert's split-generation enter (perf, 3M keys, 2 threads:
          // __wt_session_gen_enter 2.2x the samples of wtperf's populate; issue 30).
          if (rand_len > 0) {
            __builtin_prefetch(src + next);
            __builtin_prefetch(src + next + rand_len - 1);
          }
          std::copy(src + off, src + off + rand_len, value.begin());
          s->put(table_, key, value);
          if (hashed) {
            h.u64(k);
            h.u64(off);
          }
        }
        s->commit();
      } catch (...) {
        try { s->rollback(); } catch (...) {}
        throw;
      }
      if (n == 0) break;  // key_order=shared: the other threads took the last keys
      uint64_t t1 = now_ns();
      done += n;
      m.record(0, (t1 - std::min(t0, t1)) / 1000, n, 0, n * (key_size + value_size));
      written_.fetch_add(n * (key_size + value_size), std::memory_order_relaxed);
    }
  }

  json summary_extra() const override { return {{"logical_bytes_stored", written_.load()}}; }

 private:
  int threads_ = 1;
  uint64_t num_ = 0;
  int table_ = 0;
  bool shared_ = false;
  std::string buf_;
  std::atomic<uint64_t> written_{0};
  // key_order=shared: the next unclaimed key, on a cache line of its own (every key's claim moves
  // the line between the writers; nothing else they read may live on it)
  alignas(64) std::atomic<uint64_t> next_key_{0};
  char pad_[64 - sizeof(std::atomic<uint64_t>)];
};

}  // namespace

WorkloadInfo fillseq_info() {
  WorkloadInfo w;
  w.name = "fillseq";
  w.description = "sequential key/value inserts straight into one table (compare db_bench fillseq, wtperf populate)";
  w.params = {
      {"num", ParamType::Int, int64_t{1000000}, "keys to write (split into disjoint ranges per thread)", at_least(1)},
      {"key_size", ParamType::Int, int64_t{16}, "key bytes: big-endian counter padded with '0'", in_range(8, 4096),
       "bytes"},
      {"value_size", ParamType::Int, int64_t{100}, "value bytes", in_range(0, 1 << 20), "bytes"},
      {"compressible_pct", ParamType::Int, int64_t{50}, "percent of each value that is zero bytes", in_range(0, 100),
       "percent"},
      {"batch", ParamType::Int, int64_t{1000}, "keys per transaction", in_range(1, kMaxBatch)},
      {"threads", ParamType::Int, int64_t{1}, "writer threads (key ranges: see key_order)", in_range(1, kMaxThreads)},
      {"key_order", ParamType::Enum, std::string("ranges"),
       "ranges: each thread writes its own contiguous range; shared: every key comes from one atomic "
       "counter shared by the threads (all append at the end, like wtperf populate)",
       {"ranges", "shared"}},
      {"table", ParamType::Name, std::string("fillseq"), "table name"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = [](const ParamValues& p, std::vector<std::string>* problems) {
    // every writer's transaction holds its batch of keys and values until it commits
    double kv = static_cast<double>(p.at("key_size").get<int64_t>() + p.at("value_size").get<int64_t>());
    need_memory("'batch'/'threads'/'value_size'", kv * static_cast<double>(p.at("batch").get<int64_t>()) *
                static_cast<double>(p.at("threads").get<int64_t>()), "the writers' transactions", problems);
  };
  w.make = [] { return std::unique_ptr<Workload>(new FillSeq()); };
  return w;
}

}  // namespace eb
