// Redaction of secrets in what the driver writes (config.resolved.json, summary.json, describe of a
// target): passwords and the password of a URI's userinfo.
#include "core/redact.h"

namespace eb {

std::string redact_uri(const std::string& uri) {
  // scheme://user:password@host... → scheme://user:***@host...
  size_t scheme = uri.find("://");
  if (scheme == std::string::npos) return uri;
  size_t start = scheme + 3;
  size_t end = uri.find_first_of("/?#", start);
  std::string authority = uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
  size_t at = authority.rfind('@');
  if (at == std::string::npos) return uri;
  std::string userinfo = authority.substr(0, at);
  size_t colon = userinfo.find(':');
  std::string shown = colon == std::string::npos ? "***" : userinfo.substr(0, colon) + ":***";
  return uri.substr(0, start) + shown + uri.substr(start + at);
}

json redact_target_conn(const json& conn) {
  json c = conn;
  if (c.is_object() && c.contains("password")) c["password"] = "***";
  if (c.is_object() && c.contains("uri") && c["uri"].is_string()) c["uri"] = redact_uri(c["uri"].get<std::string>());
  return c;
}

}  // namespace eb
