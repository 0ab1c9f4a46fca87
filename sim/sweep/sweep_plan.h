// The plan of a sweep: every design point, numbered 0..count-1 in a fixed order (the
// product of the axes, the first axis slowest), so that shards, resumed runs and merges
// all agree on what point N is without listing them.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace stcsim::sweep {

// One design point: its number and the value of every varied key, in axis order.
struct Point {
  std::int64_t id = 0;
  std::vector<std::size_t> index;                           // per axis: which value
  std::vector<std::pair<std::string, std::string>> values;  // key -> value, axis order
  std::string value_of(const std::string& key) const;       // "" if not varied
};

class SweepPlan {
 public:
  explicit SweepPlan(SweepSpec spec);

  const SweepSpec& spec() const { return spec_; }
  std::int64_t count() const { return count_; }
  Point point(std::int64_t id) const;
  std::int64_t reference_id() const { return reference_id_; }
  // Every varied key, in axis order (the tidy table's parameter columns).
  std::vector<std::string> varied_keys() const;

  // Run options of a point: a varied value wins, then the workload's own dtype, then
  // the spec's top-level value.
  std::string base_for(const Point& p) const;
  std::string dtype_for(const Point& p, const WorkloadSpec& w) const;
  std::string sparsity_for(const Point& p) const;
  std::string l2_for(const Point& p) const;    // --l2 flush|warm|repeat
  std::string mode_for(const Point& p) const;  // --mode cycle|steady|analytic

  // What identifies the sweep's results: the spec's content (not its path) and the
  // traces' contents. A resumed run or a merge refuses a folder whose plan differs.
  nlohmann::json to_json() const;

 private:
  SweepSpec spec_;
  std::int64_t count_ = 1;
  std::int64_t reference_id_ = 0;
};

// "--shard I/N": the points with id % N == I (round robin, so that slow regions of the
// space spread over every shard). I counts from 0.
struct Shard {
  std::int64_t index = 0, count = 1;
  bool contains(std::int64_t id) const { return id % count == index; }
  std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};
Shard parse_shard(const std::string& text);  // throws InputError

inline constexpr std::int64_t kMaxPoints = 10'000'000;
// Memory one (point, workload) row of the results table takes, for --max-memory.
inline constexpr std::uint64_t kTableBytesPerRow = 2048;

}  // namespace stcsim::sweep
