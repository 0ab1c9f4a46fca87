#include "sim/sweep/tensor_core_area.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stcsim {
const char* yosys_area_cells_csv();  // rtl/reports/area_cells.csv, embedded at build time
}

namespace stcsim::sweep {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

// The whole of `text` as a number; false when it is not one.
bool whole_number(const std::string& text, double& value) {
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

// The value of NAME=VALUE among a unit's parameters; NaN when absent.
double parameter(const SynthesizedUnit& u, const std::string& name) {
  for (const auto& p : u.parameters)
    if (p.rfind(name + "=", 0) == 0) return std::stod(p.substr(name.size() + 1));
  return NAN;
}

// Least-squares line cells = a + b x over the rows of `unit` (x its parameter `name`).
void fit_line(const std::vector<SynthesizedUnit>& t, const std::string& unit,
              const std::string& name, double& a, double& b) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& u : t) {
    if (u.unit != unit) continue;
    const double x = parameter(u, name);
    if (std::isnan(x)) continue;
    n += 1, sx += x, sy += u.cells, sxx += x * x, sxy += x * u.cells;
  }
  const double det = n * sxx - sx * sx;
  if (n < 2 || det <= 0)
    throw std::invalid_argument("area cell table: fewer than two widths of " + unit + " (" + name +
                                ") to fit");
  b = (n * sxy - sx * sy) / det;
  a = (sy - b * sx) / n;
}

double cells_of(const std::vector<SynthesizedUnit>& t, const std::string& unit) {
  for (const auto& u : t)
    if (u.unit == unit) return u.cells;
  throw std::invalid_argument("area cell table: no row for " + unit);
}

}  // namespace

std::vector<SynthesizedUnit> parse_cell_table(const std::string& csv, const std::string& source) {
  std::vector<SynthesizedUnit> out;
  std::istringstream in(csv);
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::string where = source + ":" + std::to_string(number);
    if (!header) {
      if (line != "unit,parameters,cells")
        throw std::invalid_argument(where + ": expected the header 'unit,parameters,cells'");
      header = true;
      continue;
    }
    const auto f = split(line, ',');
    if (f.size() != 3 || f[0].empty())
      throw std::invalid_argument(where + ": expected 'unit,parameters,cells'");
    SynthesizedUnit u;
    u.unit = f[0];
    if (f[1] != "-") u.parameters = split(f[1], ';');
    for (const auto& p : u.parameters) {
      const auto eq = p.find('=');
      double v = 0;
      if (eq == std::string::npos || !whole_number(p.substr(eq + 1), v))
        throw std::invalid_argument(where + ": parameter '" + p + "' is not NAME=NUMBER");
    }
    if (!whole_number(f[2], u.cells) || !(u.cells > 0))
      throw std::invalid_argument(where + ": cells '" + f[2] + "' is not a positive count");
    out.push_back(u);
  }
  if (!header) throw std::invalid_argument(source + ": no header row");
  return out;
}

AreaCoefficients fit_area_coefficients(const std::vector<SynthesizedUnit>& t) {
  AreaCoefficients c;
  fit_line(t, "dense_dot", "BLOCK", c.per_dot_unit, c.per_lane);
  fit_line(t, "stc_operand_stage", "BITS", c.per_stage, c.per_stage_bit);
  c.per_sparse_group = cells_of(t, "sp24_operand_select") + cells_of(t, "sp24_meta_decode");
  return c;
}

const AreaCoefficients& yosys_area_coefficients() {
  static const AreaCoefficients c =
      fit_area_coefficients(parse_cell_table(yosys_area_cells_csv(), "rtl/reports/area_cells.csv"));
  return c;
}

TensorCoreArea tensor_core_area(const TensorCoreDesign& d, const AreaCoefficients& c) {
  TensorCoreArea a;
  const double pipes = d.sms * d.sub_cores;
  if (!(pipes > 0) || !(d.lanes > 0) || d.block <= 0) return a;
  // A pipe's multipliers sit in dot units of `block` lanes, each with its own aligner,
  // adder tree and accumulator (the per-unit cost).
  const double units = std::ceil(d.lanes / d.block);
  a.dot_units = pipes * units * (c.per_dot_unit + c.per_lane * d.block);
  // 2:4: every pair of multipliers picks its two B values out of a group of four.
  if (d.sparse_24) a.sparse_select = pipes * (d.lanes / 2) * c.per_sparse_group;
  // One register stage of each operand path's width.
  auto stage = [&](double bits) { return bits > 0 ? c.per_stage + c.per_stage_bit * bits : 0.0; };
  a.b_path = pipes * stage(d.b_bytes_per_cycle * 8);
  a.metadata_path = pipes * stage(d.metadata_bits_per_cycle);
  return a;
}

}  // namespace stcsim::sweep
