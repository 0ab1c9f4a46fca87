// stcsim_ubench: runs the microbenchmarks (ubench.h), each group in its own child process
// (validation/harness/isolation.h: a fault costs that group only), and writes one
// stcsim-ubench/1 file atomically after every group.
// Exit status: 0, 1 (some group failed), 2 usage, 77 no GPU.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "models/common/median.h"
#include "validation/harness/device_probe.h"
#include "validation/harness/isolation.h"
#include "validation/harness/result_writer.h"
#include "validation/ubench/ubench.h"

using namespace stcsim::ubench;
using nlohmann::json;
using stcsim::validation::probe_device;
using stcsim::validation::run_isolated;
using stcsim::validation::utc_now;
using stcsim::validation::write_file_atomic;

namespace stcsim::ubench {
json to_json(const Result& r) {
  std::vector<double> s = r.samples;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  const double median = n == 0 ? 0 : median_of(s);
  return {{"name", r.name},       {"metric", r.metric},       {"unit", r.unit},
          {"value", median},      {"min", n ? s.front() : 0}, {"max", n ? s.back() : 0},
          {"samples", r.samples}, {"params", r.params},       {"what", r.what}};
}
}  // namespace stcsim::ubench

int main(int argc, char** argv) {
  std::string out, only;
  bool check_gpu = false;
  double timeout = 60;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc)
      out = argv[++i];
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--timeout" && i + 1 < argc)
      timeout = std::stod(argv[++i]);
    else if (a == "--check-gpu")
      check_gpu = true;
    else {
      std::cerr << "usage: stcsim_ubench --out FILE.json [--only GROUP,...] [--timeout S] | "
                   "--check-gpu\n";
      return 2;
    }
  }
  if (out.empty() && !check_gpu) {
    std::cerr << "stcsim_ubench: --out FILE.json is required\n";
    return 2;
  }
  std::vector<Bench> benches = mma_benches();
  for (auto* group : {&wgmma_benches, &memory_benches, &mainloop_benches})
    for (Bench& b : (*group)()) benches.push_back(b);
  const std::string scratch =
      (std::filesystem::temp_directory_path() / ("stcsim_ubench_" + std::to_string(::getpid())))
          .string();
  std::filesystem::create_directories(scratch);
  const std::string progress = scratch + "/progress";
  json dj;
  const int probed = probe_device(scratch, timeout, dj);
  if (probed != 0 || check_gpu) {
    std::filesystem::remove_all(scratch);
    return probed;
  }
  Device dev;
  dev.sm_count = dj["sm_count"];
  dev.l2_bytes = dj["l2_bytes"];
  dev.mem_bytes = dj["global_mem_bytes"];
  const std::string cc = dj["compute_capability"];
  dev.cc_major = cc[0] - '0';
  dev.cc_minor = cc[2] - '0';
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  json doc{{"schema", "stcsim-ubench/1"}, {"synthetic", false}, {"command", command},
           {"created_utc", utc_now()},    {"device", dj},       {"results", json::array()},
           {"errors", json::array()}};
  int failed = 0;
  for (const Bench& b : benches) {
    if (!only.empty() && ("," + only + ",").find("," + b.name + ",") == std::string::npos) continue;
    if (b.needs_sm90a && !(dev.cc_major == 9 && dev.cc_minor == 0)) {
      doc["errors"].push_back({{"name", b.name}, {"why", "unsupported: needs sm_90a"}});
      continue;
    }
    const std::string part = scratch + "/part.json";
    std::filesystem::remove(part);
    std::cerr << "ubench " << b.name << "\n";
    const auto o = run_isolated(
        [&] {
          json rs = json::array();
          for (const Result& r : b.run(dev)) rs.push_back(to_json(r));
          write_file_atomic(part, rs.dump());
          return 0;
        },
        progress, timeout);
    if (o.exited && o.status == 0 && std::filesystem::exists(part)) {
      std::ifstream in(part);
      for (const json& r : json::parse(in)) {
        doc["results"].push_back(r);
        std::cerr << "  " << r["name"].get<std::string>() << " " << r["metric"].get<std::string>()
                  << " " << r["value"].get<double>() << " " << r["unit"].get<std::string>() << "\n";
      }
    } else {
      ++failed;
      doc["errors"].push_back({{"name", b.name}, {"why", "fault: " + o.describe()}});
    }
    doc["finished_utc"] = utc_now();
    write_file_atomic(out, doc.dump(1) + "\n");
  }
  std::filesystem::remove_all(scratch);
  std::cout << "Wrote " << out << " (" << doc["results"].size() << " results, " << failed
            << " groups failed)\n";
  return failed ? 1 : 0;
}
