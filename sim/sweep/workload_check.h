// Checks a workload's trace file with the reader `stcsim run --trace` uses, so that a
// bad trace fails the sweep up front instead of failing every point.
#pragma once
#include <string>

#include "models/common/dtype.h"

namespace stcsim::sweep {

// Throws InputError naming the file and line of the first problem.
void check_trace(const std::string& path, Dtype default_dtype);

}  // namespace stcsim::sweep
