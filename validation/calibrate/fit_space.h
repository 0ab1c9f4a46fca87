// The parameters `stcsim calibrate` fits and the box it searches: each a dotted key as
// `-p` takes it (`l2.hit_latency_cycles`), optionally with a range (`key=lo:hi`); without
// one, the range its ParamDecl declares. Only Int and Float parameters have a range; the
// declared ones are often mere sanity bounds (1..10000 cycles), which the caller prints so
// the user sees why a fit is slow or lands somewhere odd.
#pragma once
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "validation/calibrate/optimizer.h"

namespace stcsim::calibrate {

struct FitParameter {
  std::string section, key;  // "l2", "hit_latency_cycles"
  bool integer = false;
  std::string unit;
  double lo = 0, hi = 0;                    // the box searched
  double declared_lo = 0, declared_hi = 0;  // the ParamDecl's range
  bool range_given = false;                 // lo:hi came from the command line
  double start = 0;                         // the value in the arch (with -p overrides)

  std::string dotted() const { return section + "." + key; }
  // A value in the box's coordinates: lo -> 0, hi -> 1, and back (integers rounded).
  double to_unit(double value) const;
  double from_unit(double u) const;
  // The value as written to `-p` and to the calibrated preset: integers as integers,
  // floats with 6 significant digits, so the text is the value that was simulated.
  std::string format(double value) const;
};

// Parses `--params` entries against `cfg` (the arch with the fixed -p overrides applied,
// so a section's implementation is the one that runs). InputError naming the parameter
// for an unknown section or key, a Bool or String parameter ("has no range"), a range
// that is not lo:hi numbers, lo >= hi, or a range outside the declared one; and for an
// empty list or a parameter given twice.
std::vector<FitParameter> parse_fit_space(const std::vector<std::string>& specs, const Config& cfg);

// Integer steps across each parameter's box (0 for floats), for OptimizerOptions.
std::vector<int> integer_steps(const std::vector<FitParameter>& params);

// `section.key=value` for each parameter at a unit point, the form `-p` takes.
std::vector<std::string> overrides_at(const std::vector<FitParameter>& params, const UnitPoint& u);

// The start (the arch's values) as a unit point.
UnitPoint start_point(const std::vector<FitParameter>& params);

}  // namespace stcsim::calibrate
