// The list of engines compiled into the driver, in display order. Engines are listed explicitly
// (not self-registered) because the engines live in a static library, whose unreferenced objects
// the linker would drop.
#include "engines/engine_util.h"

namespace eb {

// Each engine file (engines/<name>.cc) defines its descriptor (WiredTiger two); one line here and one
// in the list below register it.
EngineInfo null_engine_info();
EngineInfo wiredtiger_engine_info();
EngineInfo wiredtiger_lsm_engine_info();
EngineInfo rocksdb_engine_info();
EngineInfo lmdb_engine_info();
EngineInfo sqlite_engine_info();

const std::vector<EngineInfo>& engine_registry() {
  static const std::vector<EngineInfo> engines = [] {
    std::vector<EngineInfo> v;
    v.push_back(wiredtiger_engine_info());
    v.push_back(wiredtiger_lsm_engine_info());
    v.push_back(rocksdb_engine_info());
    v.push_back(lmdb_engine_info());
    v.push_back(sqlite_engine_info());
    v.push_back(null_engine_info());
    return v;
  }();
  return engines;
}

}  // namespace eb
