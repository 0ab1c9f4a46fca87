// Microbenchmarks of the units the simulator models (issue 19): tensor-core throughput
// and latency (mma.sync, mma.sp, wgmma, wgmma.sp), shared-memory paths (ldmatrix,
// ld.shared, cp.async, bulk copy), L2 and DRAM bandwidth and latency. Each benchmark gives
// one or more Results, written to one JSON file, schema "stcsim-ubench/1":
//   {schema, synthetic: false, command, created_utc, device{...}, results[{name, metric,
//    unit, value (the median), samples[], params{}, what}], errors[{name, why}]}
// Cycle figures come from clock64() inside the kernels (the SM's own clock); bandwidths
// in GB/s from CUDA events. Nothing is set on the card.
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stcsim::ubench {

struct Result {
  Result(std::string n, std::string m, std::string u, std::string w)
      : name(std::move(n)), metric(std::move(m)), unit(std::move(u)), what(std::move(w)) {}
  std::string name, metric, unit, what;  // metric: throughput, latency, bandwidth
  std::vector<double> samples;
  nlohmann::json params = nlohmann::json::object();
};
nlohmann::json to_json(const Result& r);  // value = median of samples

struct Device {
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  long long l2_bytes = 0, mem_bytes = 0;
  int smem_optin = 0;
};

struct Bench {
  std::string name;  // group name (--only)
  bool needs_sm90a = false;
  std::function<std::vector<Result>(const Device&)> run;  // throws on CUDA errors
};

// Each group registers its benchmarks (mma_bench.cu, wgmma_bench.cu, memory_bench.cu,
// mainloop_bench.cu).
std::vector<Bench> mma_benches();
std::vector<Bench> wgmma_benches();
std::vector<Bench> memory_benches();
std::vector<Bench> mainloop_benches();

}  // namespace stcsim::ubench
