// What `stcsim report` plots, computed from a sweep folder's plan and tidy table:
// each point's speedups over the reference point, the one-at-a-time slices through the
// reference (vary one axis, hold the others at the reference), and the Pareto fronts of
// speed against the tensor cores' area (Yosys cells, tensor_core_area.h) and against energy.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace stcsim::sweep {

struct AxisInfo {
  std::string name;  // key or zipped group name
  std::vector<std::string> keys;
  std::vector<std::string> labels;  // per value: the values of its keys, joined by '/'
  std::vector<double> numbers;      // per value, when `numeric`
  bool numeric = false;             // every value of the first key is a number
  bool log_scale = false;           // numeric, positive, spanning 16x or more
};

struct PointView {
  std::int64_t id = 0;
  std::vector<std::size_t> index;              // per axis
  bool ok = false;                             // every workload ran
  std::vector<std::optional<double>> speedup;  // per workload, vs the reference point
  std::vector<std::optional<double>> seconds;  // per workload
  std::optional<double> geomean_speedup;       // over workloads, when all are known
  std::optional<double> tc_macs_per_cycle;     // mean over workloads
  std::optional<double> tc_area_cells;         // tensor cores' Yosys cells (tensor_core_area.h)
  std::vector<std::optional<double>> joules;   // per workload (runs with a power model)
  std::optional<double> total_joules;          // over workloads, when all are known
  std::vector<std::string> limiter;            // per workload
};

struct ReportData {
  std::string name;
  std::vector<AxisInfo> axes;
  std::vector<std::string> workloads;
  std::int64_t points_total = 0;
  std::int64_t reference = 0;
  std::map<std::int64_t, PointView> points;  // present points only

  const PointView* reference_point() const;
  // Points that differ from the reference only on axis `a` (and on `b` if given).
  std::vector<const PointView*> slice(std::size_t a,
                                      std::optional<std::size_t> b = std::nullopt) const;
  // Points no other point beats on both speed (higher) and tensor-core area (lower), by
  // increasing area.
  std::vector<const PointView*> pareto_front() const;
  // Points no other point beats on both speed (higher) and energy (lower), by
  // increasing energy.
  std::vector<const PointView*> energy_front() const;
  // Points with a geomean speedup, fastest first; equal speedups (within 1e-9) go to the
  // cheaper design: smaller area, then less energy, then the lower point id.
  std::vector<const PointView*> ranked() const;
  // "l2.capacity_kib=20480, tensor_core.fp16_ii_cycles=4".
  std::string describe(const PointView& p) const;
};

ReportData load_report_data(const nlohmann::json& plan, const nlohmann::json& table);

}  // namespace stcsim::sweep
