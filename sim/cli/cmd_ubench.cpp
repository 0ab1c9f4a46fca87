// `stcsim ubench`: the CUDA microbenchmarks of validation/ubench run on the model
// (models/ubench), written in their schema (stcsim-ubench/1) so that a GPU's file and
// the simulator's can be read side by side; `stcsim validate` runs it as each measured
// figure's counterpart.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "models/ubench/microbenchmark.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_paths.h"
#include "sim/config/config.h"
#include "sim/driver/stats_json.h"
#include "sim/driver/ubench_run.h"

namespace stcsim {

namespace {

struct UbenchOptions {
  std::string arch = "a100";
  std::vector<std::string> overrides, only, figures;
  std::string out = "stcsim_ubench";
  bool list = false, quiet = false;
};

// The configuration a figure was taken at: its params that count units per SM.
std::string configuration(const nlohmann::json& params) {
  std::string c;
  for (const auto& [key, value] : params.items())
    if (key.size() > 7 && key.compare(key.size() - 7, 7, "_per_sm") == 0)
      c += (c.empty() ? "" : " ") + key + "=" + value.dump();
  return c;
}

std::string format_results(const nlohmann::json& doc) {
  std::string o;
  char line[320];
  std::snprintf(line, sizeof line, "%-34s %-10s %12s  %-12s %s\n", "benchmark", "metric", "value",
                "unit", "configuration");
  o += line;
  for (const auto& r : doc["results"]) {
    std::snprintf(line, sizeof line, "%-34s %-10s %12.1f  %-12s %s\n",
                  r["name"].get<std::string>().c_str(), r["metric"].get<std::string>().c_str(),
                  r["value"].get<double>(), r["unit"].get<std::string>().c_str(),
                  configuration(r["params"]).c_str());
    o += line;
  }
  for (const auto& e : doc["errors"])
    o += "not run: " + e["name"].get<std::string>() + ": " + e["why"].get<std::string>() + "\n";
  return o;
}

}  // namespace

Command add_ubench_command(CLI::App& app) {
  auto o = std::make_shared<UbenchOptions>();
  auto* sub = app.add_subcommand(
      "ubench",
      "Run the GPU microbenchmarks (validation/ubench) on the model: tensor-core throughput and "
      "latency, shared-memory and copy paths, L2 and DRAM bandwidth and latency; writes "
      "ubench.json in the GPU files' schema (stcsim-ubench/1)");
  sub->add_option("--arch", o->arch, "preset name (see `stcsim presets`) or a YAML file")
      ->capture_default_str();
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter: section.key=value (repeatable)");
  sub->add_option("--only", o->only, "benchmarks to run (names as --list shows; default all)")
      ->delimiter(',');
  sub->add_option("--figures", o->figures,
                  "run the benchmarks that yield figures of these names (as a GPU's ubench.json "
                  "names them; names no benchmark yields are skipped); with --only, both")
      ->delimiter(',');
  sub->add_option("--out", o->out, "directory for ubench.json")->capture_default_str();
  sub->add_flag("--list", o->list, "list the benchmarks and the figures each yields");
  sub->add_flag("-q,--quiet", o->quiet, "do not print the results");
  return [o] {
    if (o->list) {
      for (const IMicrobenchmark* b : UbenchRegistry::all()) {
        std::cout << b->name() << ":";
        for (const auto& f : b->figures()) std::cout << " " << f;
        std::cout << "\n";
      }
      return 0;
    }
    check_output_dir("--out", o->out);
    Config config = load_arch(o->arch);
    for (const auto& p : o->overrides) apply_override(config, p);
    std::string command = "stcsim ubench --arch " + o->arch;
    for (const auto& p : o->overrides) command += " -p " + p;
    for (const auto& g : o->only) command += " --only " + g;
    std::vector<std::string> groups = o->only;
    if (!o->figures.empty()) {
      command += " --figures ";
      for (std::size_t i = 0; i < o->figures.size(); ++i) command += (i ? "," : "") + o->figures[i];
      for (const auto& g : ubench_groups_yielding(o->figures))
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    }
    const bool all = o->only.empty() && o->figures.empty();
    const nlohmann::json doc = run_ubench(config, all ? nullptr : &groups, command);
    write_file_atomically(o->out, "ubench.json", doc.dump(1) + "\n");
    if (!o->quiet) std::cout << format_results(doc) << "Wrote " << o->out << "/ubench.json\n";
    return 0;
  };
}

}  // namespace stcsim
