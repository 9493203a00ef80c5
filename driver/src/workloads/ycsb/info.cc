// ycsb's parameters and their checks (WorkloadInfo); the workload itself is in workload.cc.
#include "workloads/doc_writer.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"
#include "workloads/ycsb/generators.h"

namespace eb {
namespace ycsb {
std::unique_ptr<Workload> make_workload();  // workload.cc
}  // namespace ycsb

namespace {
using namespace wl;

void check(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  need(p_int(p, "operationcount") > 0 || p_dbl(p, "max_seconds") > 0,
       "'operationcount'/'max_seconds': set at least one bound for the run phase");
  need(p_int(p, "maxscanlength") >= p_int(p, "minscanlength"), "'maxscanlength': expected an integer >= minscanlength");
  // every client holds a load batch of records, or a scan's records, at once
  double record = static_cast<double>(p_int(p, "fieldcount")) * static_cast<double>(p_int(p, "fieldlength") + 16);
  double rows = static_cast<double>(std::max(p_int(p, "load_batch"), p_int(p, "maxscanlength")));
  need_memory("'load_batch'/'maxscanlength'/'threads'/'fieldcount'/'fieldlength'",
              record * rows * static_cast<double>(p_int(p, "threads")), "the clients' batches and scans", problems);
}

}  // namespace

WorkloadInfo ycsb_info() {
  WorkloadInfo w;
  w.name = "ycsb";
  w.description = "YCSB core workloads A-F (read/update/insert/scan/read-modify-write mixes over usertable), "
                  "a load phase then a run phase";
  w.params = {
      {"letter", ParamType::Enum, std::string("a"),
       "YCSB core workload by its letter (YCSB's workloads/workload<letter>; named `workload` before issue 29): a 50/50 read/update, b 95/5 read/update, c read only, d 95/5 read/insert (latest), "
       "e 95/5 scan/insert, f 50/50 read/read-modify-write",
       {"a", "b", "c", "d", "e", "f"}},
      {"recordcount", ParamType::Int, int64_t{1000}, "records loaded before the run phase", at_least(1)},
      {"operationcount", ParamType::Int, int64_t{1000}, "operations of the run phase over all threads (0 = bounded by max_seconds)",
       at_least(0)},
      {"fieldcount", ParamType::Int, int64_t{10}, "fields per record (field0..)", in_range(1, kMaxFields)},
      {"fieldlength", ParamType::Int, int64_t{100}, "bytes per field value", in_range(1, 1 << 20), "bytes"},
      {"readallfields", ParamType::Bool, true, "reads and scans return every field (false: one random field)"},
      {"writeallfields", ParamType::Bool, false, "updates write every field (false: one random field)"},
      {"requestdistribution", ParamType::Enum, std::string("letter"),
       "key popularity: the letter's own (letter), zipfian (scrambled), uniform or latest",
       {"letter", "zipfian", "uniform", "latest"}},
      {"zipfianconstant", ParamType::Double, ycsb::kZipfianConstant,
       "theta of the scrambled zipfian (YCSB 0.17 always uses 0.99; latest always uses 0.99); YCSB's generator "
       "needs theta != 1",
       strictly_between(0, 1)},
      {"insertorder", ParamType::Enum, std::string("hashed"),
       "hashed: key user<fnv64(n)> (YCSB's default order), ordered: user<n>", {"hashed", "ordered"}},
      {"zeropadding", ParamType::Int, int64_t{1}, "digits of the key number, left-padded with zeros", in_range(1, 64)},
      {"minscanlength", ParamType::Int, int64_t{1}, "shortest scan (records), uniform up to maxscanlength",
       at_least(1)},
      {"maxscanlength", ParamType::Int, int64_t{100}, "longest scan (records)", in_range(1, kMaxRowsPerRead)},
      {"threads", ParamType::Int, int64_t{1}, "client threads (load and run)", in_range(1, kMaxThreads)},
      {"load_batch", ParamType::Int, int64_t{1}, "records per insert request in the load phase (YCSB batchsize)",
       in_range(1, kMaxBatch)},
      {"table", ParamType::Name, std::string("usertable"), "table / collection name"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check;
  w.make = ycsb::make_workload;
  return w;
}

}  // namespace eb
