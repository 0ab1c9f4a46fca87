// `stcsim sweep-merge`: combine the folders of shards (or of any partial runs of the
// same sweep) into one folder that is exactly what an unsharded run would have
// written, and which `stcsim sweep SPEC --out` can resume to fill any gap.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace stcsim::sweep {

struct MergeSummary {
  std::int64_t inputs = 0;
  std::int64_t points_total = 0;
  std::int64_t present = 0;
  std::int64_t failed = 0;
};

// Throws InputError if an input is not a sweep folder or holds a different sweep.
MergeSummary merge_sweeps(const std::vector<std::string>& inputs, const std::string& out);

}  // namespace stcsim::sweep
