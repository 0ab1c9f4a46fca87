#include "sim/sweep/sweep_merge.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/sweep/point_record.h"
#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_dir.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;

MergeSummary merge_sweeps(const std::vector<std::string>& inputs, const std::string& out) {
  if (inputs.empty()) throw InputError("sweep-merge: give the shard folders to merge");
  nlohmann::json plan;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::exists(out) && fs::equivalent(in, out, ec))
      throw InputError("sweep-merge: --out " + out + " is also an input; merge into a new folder");
    const auto p = read_plan(in);
    if (plan.is_null())
      plan = p;
    else if (p != plan)
      throw InputError(in + " holds a different sweep than " + inputs.front() +
                       " (their sweep.json differ)");
  }
  SweepDir dir(out);
  dir.lock();
  dir.adopt_plan(plan);
  auto have = dir.point_files();
  for (const auto& in : inputs) {
    SweepDir src(in);
    for (const auto& [id, path] : src.point_files()) {
      if (have.count(id)) continue;  // the same point from two inputs: results are identical
      read_point(path);              // refuse to copy anything that is not a point result
      std::ifstream f(path, std::ios::binary);
      std::stringstream ss;
      ss << f.rdbuf();
      const std::string dest = dir.points_dir() + "/" + point_file_name(id);
      write_atomically(dest, ss.str());
      have[id] = dest;
    }
  }
  const auto t = write_tables(out, plan, have);
  std::error_code ec;
  fs::remove_all(dir.work_dir(), ec);
  MergeSummary s;
  s.inputs = std::int64_t(inputs.size());
  s.points_total = plan.at("points").get<std::int64_t>();
  s.present = std::int64_t(have.size());
  s.failed = t.at("points_failed").get<std::int64_t>();
  return s;
}

}  // namespace stcsim::sweep
