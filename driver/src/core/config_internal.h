// Text helpers shared by the config's files (param_parse.cc, config.cc): internal to core/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "params.h"

namespace eb {
namespace cfg {

std::string lower(std::string s);
std::string trim(const std::string& s);
// A whole string as a decimal integer (optional sign); false if it is not one.
bool parse_int_str(const std::string& s, int64_t* out);
// A JSON integer, or a float with an integral value, as int64; false otherwise.
bool json_to_int(const json& v, int64_t* out);
// "a, b, c"
std::string join(const std::vector<std::string>& v);

}  // namespace cfg
}  // namespace eb
