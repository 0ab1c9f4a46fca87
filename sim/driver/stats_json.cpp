#include "sim/driver/stats_json.h"

#include <filesystem>

#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace {

// The units block: every declared stat's unit under its dotted name, written from the
// declarations (sim/core/stat.h) like the stats themselves, so it cannot drift from
// them; `stcsim stats` gives each one's description.
nlohmann::json units() {
  nlohmann::json u = nlohmann::json::object();
  for (const auto* s : StatRegistry<OpResult>::all()) u[s->info().name] = s->info().unit;
  u["wall_seconds"] = "s of host time for the whole simulation";
  return u;
}

}  // namespace

nlohmann::json op_to_json(const OpResult& r, bool details) {
  // Every declared stat (sim/core/stat.h); a total leaves out the per-op ones.
  return StatRegistry<OpResult>::to_json(r, !details);
}

nlohmann::json stats_json(const RunRequest& req, const RunResult& res) {
  nlohmann::json j;
  j["schema_version"] = 1;
  j["arch"] = req.config.name;
  j["total"] = op_to_json(res.total, false);
  j["total"]["wall_seconds"] = res.wall_seconds;
  // Several variants (a model run with --prune dense,2:4,...): each one's total, named
  // after it, so speedups per variant need no parsing of op names.
  if (!res.variants.empty()) {
    j["variants"] = nlohmann::json::array();
    for (const auto& v : res.variants) j["variants"].push_back(op_to_json(v, false));
  }
  j["ops"] = nlohmann::json::array();
  for (std::size_t i = 0; i < res.ops.size(); ++i) {
    j["ops"].push_back(op_to_json(res.ops[i], true));
    if (i < res.functional.size()) j["ops"][i]["functional"] = res.functional[i];
  }
  // How the run was made, beside the hardware config: what the L2 held when each GEMM
  // started (models/gpu/l2_policy.h) and whether identical GEMMs were reused.
  j["run"] = {{"l2", to_string(req.l2)},
              {"memoize", req.memoize},
              {"mode", req.analytic       ? "analytic"
                       : req.steady_state ? "steady"
                                          : "cycle"}};
  j["config"] = req.config.to_json();
  j["units"] = units();
  return j;
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create output directory: " + ec.message());
  write_atomically((std::filesystem::path(dir) / name).string(), text);  // fsync, then rename
}

}  // namespace stcsim
