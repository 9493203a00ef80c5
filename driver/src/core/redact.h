// Secrets never reach an output file: see redact.cc.
#pragma once
#include <string>

#include "params.h"

namespace eb {

// A URI with the password of its userinfo replaced by *** (mongodb://u:***@h/).
std::string redact_uri(const std::string& uri);

// A target's connection section as shown in outputs: password → ***, the uri's password → ***.
json redact_target_conn(const json& conn);

}  // namespace eb
