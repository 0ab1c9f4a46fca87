// Runs microbenchmarks (models/ubench) on a configured GPU in one simulation and returns
// the stcsim-ubench/1 document the CUDA microbenchmarks write, marked as simulated.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/config/config.h"

namespace stcsim {

// `groups`: benchmark names (null: all). An unknown name is an InputError that lists
// the known ones. A benchmark the GPU cannot run goes to the document's errors with why.
nlohmann::json run_ubench(const Config& config, const std::vector<std::string>* groups,
                          const std::string& command);
// The benchmarks that yield figures named `names` (any metric); names no benchmark
// yields are left out.
std::vector<std::string> ubench_groups_yielding(const std::vector<std::string>& names);

}  // namespace stcsim
