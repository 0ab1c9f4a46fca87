// The preset `stcsim calibrate` writes (calibrated.yaml): `base: <arch>`, then the fitted
// values under their components, each with the provenance a preset owes its figures
// (docs/presets.md): the data files, the fit's error in-sample and under leave-one-out,
// the date and the command. The -p values the fit held fixed are written too, since the
// fitted values are only right with them. `stcsim run --arch DIR/calibrated.yaml` loads it.
#pragma once
#include <string>
#include <vector>

#include "validation/calibrate/calibration_run.h"

namespace stcsim::calibrate {

// `fixed` are the fit's -p overrides (section.key=value); `date` as YYYY-MM-DD (UTC);
// `command` the calibrate command line.
std::string calibrated_preset_yaml(const CalibrationResult& r,
                                   const std::vector<std::string>& fixed, const std::string& date,
                                   const std::string& command);

}  // namespace stcsim::calibrate
