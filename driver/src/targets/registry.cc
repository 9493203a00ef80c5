// The server targets compiled into the driver, in display order (listed explicitly, like the
// engines: they live in a static library whose unreferenced objects the linker would drop).
#include "target.h"

namespace eb {

TargetInfo mariadb_innodb_target_info();
TargetInfo mariadb_myrocks_target_info();
TargetInfo mongodb_target_info();

const std::vector<TargetInfo>& target_registry() {
  static const std::vector<TargetInfo> v = [] {
    std::vector<TargetInfo> t;
    t.push_back(mariadb_innodb_target_info());
    t.push_back(mariadb_myrocks_target_info());
    t.push_back(mongodb_target_info());
    return t;
  }();
  return v;
}

}  // namespace eb
