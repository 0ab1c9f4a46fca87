#include "sim/sweep/gnuplot_script.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/sweep/value_range.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;

std::string find_gnuplot() {
  if (const char* env = std::getenv("STCSIM_GNUPLOT"); env && *env)
    return access(env, X_OK) == 0 ? env : "";
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    const std::string cand = (dir.empty() ? "." : dir) + "/gnuplot";
    if (access(cand.c_str(), X_OK) == 0) return cand;
  }
  return "";
}

namespace {
// The gnuplot variable that holds the output file's name (gp_output, run_gnuplot).
constexpr const char* kPngVariable = "stcsim_png";
}  // namespace

std::string gp_output(const std::string& png) {
  return std::string("if (!exists(\"") + kPngVariable + "\")) " + kPngVariable + " = " +
         gp_str(png) + "\nset output " + kPngVariable + "\n";
}

std::string run_gnuplot(const std::string& gnuplot, const std::string& script_path,
                        const std::string& png) {
  const fs::path script = fs::absolute(script_path);
  const fs::path final_png = script.parent_path() / png;
  const fs::path tmp_png = final_png.parent_path() / ("." + final_png.filename().string() + ".tmp");
  const std::string log =
      (script.parent_path() / ("." + script.filename().string() + ".log")).string();
  auto q = [](const std::string& s) {
    std::string r = "'";
    for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return r + "'";
  };
  const std::string cmd = "cd " + q(script.parent_path().string()) + " && " + q(gnuplot) + " -e " +
                          q(std::string(kPngVariable) + "=" + gp_str(tmp_png.string())) + " " +
                          q(script.filename().string()) + " >" + q(log) + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream out;
  out << in.rdbuf();
  std::error_code ec;
  fs::remove(log, ec);
  if (rc == 0) {
    fs::rename(tmp_png, final_png, ec);
    if (!ec) return "";
    fs::remove(tmp_png, ec);
    return final_png.string() + ": cannot replace it with the new plot: " + ec.message();
  }
  fs::remove(tmp_png, ec);
  std::string msg = out.str();
  if (msg.size() > 1500) msg = "..." + msg.substr(msg.size() - 1500);
  return "gnuplot " + script_path + " failed: " + msg;
}

namespace {
// A control character (a newline ends a gnuplot command: the rest of a name would run as
// the next one).
bool control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }
}  // namespace

std::string gp_str(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("''") : std::string(1, control(c) ? ' ' : c);
  return r + "'";
}

std::string gp_dq(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += std::string("\\") + c;
    else if (c == '\n')
      r += "\\n";  // gnuplot's own newline escape: the title breaks, the command does not
    else if (c == '`')
      r += '\'';  // gnuplot runs `...` in double-quoted strings as a shell command
    else
      r += control(c) ? ' ' : c;
  }
  return r;
}

std::string safe_name(const std::string& s) {
  std::string r;
  for (char c : s) r += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return r;
}

std::string gp_preamble(const std::string& png, int width, int height) {
  std::ostringstream os;
  // noenhanced: parameter names are full of '_' that would turn into subscripts.
  os << "set terminal pngcairo size " << width << "," << height << " font 'Sans,11' noenhanced\n"
     << gp_output(png) << "set datafile missing 'NaN'\n"
     << "set grid lc rgb '#d0d0d0'\n"
     << "set border lc rgb '#404040'\n"
     << "set key outside right top box opaque Left reverse width 1\n";
  return os.str();
}

std::string series_color(std::size_t i) {
  static const char* kColors[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00",
                                  "#56B4E9", "#000000", "#F0E442", "#8C564B", "#7F7F7F"};
  return kColors[i % (sizeof kColors / sizeof kColors[0])];
}

std::string faded_color(std::size_t i) { return "#B0" + series_color(i).substr(1); }

std::string gp_number(double v) { return std::isfinite(v) ? format_number(v) : "NaN"; }

}  // namespace stcsim::sweep
