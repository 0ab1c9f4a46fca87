// The predicted-versus-measured scatter plot of a validation report, drawn by gnuplot
// (Debian package gnuplot-nox): writes DIR/scatter.dat and DIR/scatter.gp, then runs
// gnuplot to make DIR/scatter.png.
#pragma once
#include <string>

#include "validation/compare/report.h"

namespace stcsim::validation {

// Returns "" on success, else why there is no PNG (gnuplot missing or failing); the
// data and script are written either way.
std::string write_scatter_plot(const ValidationReport& r, const std::string& dir);

}  // namespace stcsim::validation
