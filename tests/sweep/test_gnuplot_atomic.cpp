// Plots are replaced whole (issue 20, item 6): run_gnuplot draws the PNG under a temporary
// name and renames it over the old one only when gnuplot succeeds; the script, run by a user
// from its own folder, still writes the PNG itself.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/sweep/gnuplot_script.h"
#include "tests/support/run_stcsim.h"

namespace fs = std::filesystem;
using namespace stcsim::sweep;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
int entries(const fs::path& dir) {
  int n = 0;
  for (auto it = fs::directory_iterator(dir); it != fs::directory_iterator(); ++it) ++n;
  return n;
}
}  // namespace

TEST_CASE("gnuplot_png_is_replaced_only_by_a_whole_new_plot", "[sweep][report]") {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    WARN("SKIPPED: gnuplot not installed (scripts/setup.sh installs gnuplot-nox)");
    return;
  }
  const fs::path dir = stcsim::test::temp_dir("gnuplot_atomic");
  write(dir / "good.gp", gp_preamble("plot.png", 400, 300) + "plot x title 'x'\n");
  REQUIRE(run_gnuplot(gnuplot, (dir / "good.gp").string(), "plot.png").empty());
  const std::string first = slurp(dir / "plot.png");
  REQUIRE(first.size() > 500);
  CHECK(entries(dir) == 2);  // the script and its PNG, no temporary

  // A script that fails after its output is set: the old PNG stays byte for byte.
  write(dir / "bad.gp", gp_preamble("plot.png", 400, 300) + "plot 'no_such_file.dat'\n");
  const std::string err = run_gnuplot(gnuplot, (dir / "bad.gp").string(), "plot.png");
  CHECK_THAT(err, Catch::Contains("no_such_file.dat"));
  CHECK(slurp(dir / "plot.png") == first);
  CHECK(entries(dir) == 3);

  // Run by hand from its folder, the script writes plot.png itself.
  fs::remove(dir / "plot.png");
  const std::string cmd = "cd '" + dir.string() + "' && '" + gnuplot + "' good.gp 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(fs::file_size(dir / "plot.png") > 500);
  fs::remove_all(dir);
}
