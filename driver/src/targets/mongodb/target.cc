// MongoDB target `mongodb` over libmongoc 1.23 (Debian libmongoc-dev): any MongoDB-compatible server
// by URI. The Target (client pool, write concern from the knobs, statistics, describe), its knobs and
// connection keys. The client plumbing is in targets/mongodb/mongodb.h; each workload's collections
// and requests in its workloads/<name>/store_mongodb.cc. The documents are the KV engines' documents
// byte for byte (BSON), so the collections hold what the document layer would hold.
#include <cstdlib>
#include <mutex>

#include "core/redact.h"
#include "targets/mongodb/mongodb.h"

namespace eb {
namespace mongo {
namespace {

std::string jstr(const json& c, const char* k, const std::string& dflt) {
  return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : dflt;
}

std::string to_json_text(const bson_t* b) {
  size_t n = 0;
  char* s = bson_as_relaxed_extended_json(b, &n);
  if (!s) throw EngineError("mongodb: a server reply is not valid BSON");
  std::string out(s, n);
  bson_free(s);
  return out;
}

// A server reply as JSON; one that does not parse is an error (never an empty document).
json bson_to_json(const bson_t* b) {
  try {
    return json::parse(to_json_text(b));
  } catch (const json::exception& e) {
    throw EngineError(std::string("mongodb: cannot read a server reply as JSON: ") + e.what());
  }
}

class MongoDBTarget final : public Target {
 public:
  ~MongoDBTarget() override { close(); }
  std::string backend() const override { return "mongodb"; }
  const Shared& plumbing() const { return shared_; }

  void open(const json& conn, const ParamValues& knobs) override {
    static std::once_flag once;
    std::call_once(once, [] { mongoc_init(); });
    open_pool(conn);
    set_write_concern(knobs);
    learn_server();
  }

  json stats() override {
    if (!shared_.pool) return json::object();
    Client c(shared_);
    BsonGuard cmd, reply;
    BSON_APPEND_INT32(&cmd, "serverStatus", 1);
    bson_error_t err;
    if (!mongoc_client_command_simple(c.raw(), "admin", &cmd, nullptr, &reply, &err))
      throw EngineError(std::string("mongodb: serverStatus: ") + err.message);
    return {{"serverStatus", bson_to_json(&reply)}};
  }

  json describe() const override {
    return {{"kind", "mongodb"}, {"uri", shared_.uri_shown}, {"database", shared_.db},
            {"server_version", version_}, {"server_flavor", flavor_.empty() ? json(nullptr) : json(flavor_)},
            {"write_concern", wc_shown_}};
  }

  void close() override {
    if (shared_.pool) {
      mongoc_client_pool_destroy(shared_.pool);
      shared_.pool = nullptr;
    }
    if (shared_.wc) {
      mongoc_write_concern_destroy(shared_.wc);
      shared_.wc = nullptr;
    }
  }

 private:
  // The URI (given, or from the environment variable uri_env names) and a client pool on it.
  void open_pool(const json& conn) {
    std::string uri_text = jstr(conn, "uri", "");
    if (uri_text.empty()) {
      std::string env = jstr(conn, "uri_env", "ENGBENCH_MONGO_URI");
      const char* v = std::getenv(env.c_str());
      if (!v || !*v) throw EngineError("mongodb: no URI: the target's uri_env " + env + " is not set");
      uri_text = v;
    }
    shared_.uri_shown = redact_uri(uri_text);
    shared_.db = jstr(conn, "database", "engbench");
    bson_error_t err;
    mongoc_uri_t* uri = mongoc_uri_new_with_error(uri_text.c_str(), &err);
    if (!uri) throw EngineError("mongodb: bad URI " + shared_.uri_shown + ": " + err.message);
    shared_.pool = mongoc_client_pool_new(uri);
    mongoc_uri_destroy(uri);
    if (!shared_.pool) throw EngineError("mongodb: cannot create a client pool for " + shared_.uri_shown);
    mongoc_client_pool_set_error_api(shared_.pool, MONGOC_ERROR_API_VERSION_2);
    mongoc_client_pool_set_appname(shared_.pool, "engbench-driver");
  }

  // The write concern of every write, from the knobs write_concern (w) and journal (j).
  void set_write_concern(const ParamValues& knobs) {
    shared_.wc = mongoc_write_concern_new();
    std::string w = knobs.count("write_concern") ? knobs.at("write_concern").get<std::string>() : "1";
    if (w == "majority") {
      mongoc_write_concern_set_w(shared_.wc, MONGOC_WRITE_CONCERN_W_MAJORITY);
    } else if (!w.empty() && w.find_first_not_of("0123456789") == std::string::npos) {
      mongoc_write_concern_set_w(shared_.wc, std::stoi(w));
    } else {
      mongoc_write_concern_set_wtag(shared_.wc, w.c_str());
    }
    std::string j = knobs.count("journal") ? knobs.at("journal").get<std::string>() : "default";
    if (j != "default") mongoc_write_concern_set_journal(shared_.wc, j == "true");
    wc_shown_ = {{"w", w}, {"j", j}};
  }

  // Reach the server now (fail fast), and learn its version (and FerretDB's).
  void learn_server() {
    Client c(shared_);
    BsonGuard cmd, reply;
    BSON_APPEND_INT32(&cmd, "buildInfo", 1);
    bson_error_t err;
    if (!mongoc_client_command_simple(c.raw(), "admin", &cmd, nullptr, &reply, &err))
      throw EngineError("mongodb: cannot reach " + shared_.uri_shown + ": " + err.message);
    bson_iter_t it;
    if (bson_iter_init_find(&it, &reply, "version") && BSON_ITER_HOLDS_UTF8(&it)) version_ = bson_iter_utf8(&it, nullptr);
    if (bson_iter_init_find(&it, &reply, "ferretdbVersion") && BSON_ITER_HOLDS_UTF8(&it))
      flavor_ = std::string("FerretDB ") + bson_iter_utf8(&it, nullptr);
  }

  Shared shared_;
  std::string version_, flavor_;
  json wc_shown_ = json::object();
};

void check_mongo_connection(const json& c, std::vector<std::string>* problems) {
  if (!c.is_object() || (!c.contains("uri") && !c.contains("uri_env")))
    problems->push_back("target: the mongodb target needs 'uri' or 'uri_env'");
}

}  // namespace

const Shared& shared_of(Target& target) {
  auto* t = dynamic_cast<MongoDBTarget*>(&target);
  if (!t) throw std::logic_error("not a mongodb target: " + target.backend());
  return t->plumbing();
}

}  // namespace mongo

TargetInfo mongodb_target_info() {
  TargetInfo t;
  t.name = "mongodb";
  t.description = "any MongoDB-compatible server by URI (verified against FerretDB v1.24.2 only), the "
                  "KV engines' documents and indexes";
  t.library = "libmongoc";
  t.library_version = mongoc_get_version();
  t.knob_namespace = "mongodb";
  t.knobs = {
      {"write_concern", ParamType::String, std::string("1"), "w of every write: a number, 'majority' or a tag"},
      {"journal", ParamType::Enum, std::string("default"), "j of every write (default: not sent, the server's)",
       {"default", "true", "false"}},
  };
  t.workloads = {"sysbench-update", "iibench", "linkbench", "ycsb"};
  t.connection = {
      {"uri", "mongodb:// URI (one with a password: use uri_env, it would sit in the config file)"},
      {"uri_env", "environment variable holding the URI (default ENGBENCH_MONGO_URI)"},
      {"database", "database (default engbench); the workload's collections in it are dropped and recreated"},
  };
  t.check_connection = mongo::check_mongo_connection;
  t.make = [] { return std::unique_ptr<Target>(new mongo::MongoDBTarget()); };
  return t;
}

}  // namespace eb
