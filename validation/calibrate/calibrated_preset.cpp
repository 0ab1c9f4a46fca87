#include "validation/calibrate/calibrated_preset.h"

#include <algorithm>
#include <map>

#include "sim/config/config.h"
#include "validation/calibrate/residual_report.h"

namespace stcsim::calibrate {

namespace {

// A double-quoted YAML scalar: the files and the command may hold any character.
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n') {
      q += "\\n";
      continue;
    }
    q += c;
  }
  return q + "\"";
}

// One comment line: YAML comments end at the line's end.
std::string comment(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return "# " + s + "\n";
}

std::string files_text(const CalibrationResult& r) {
  std::string s;
  for (const auto& f : r.files) s += (s.empty() ? "" : ", ") + f;
  return s;
}

struct Entry {
  std::string key, value;
  std::vector<std::string> comments;
};

}  // namespace

std::string calibrated_preset_yaml(const CalibrationResult& r,
                                   const std::vector<std::string>& fixed, const std::string& date,
                                   const std::string& command) {
  const std::string errors =
      time_error_line(r) + (speedup_error_line(r).empty() ? "" : "; " + speedup_error_line(r));
  std::map<std::string, std::vector<Entry>> sections;  // by section, in the file's order
  for (const auto& f : fixed) {  // already applied to the arch, so section.key=value
    const auto dot = f.find('.'), eq = f.find('=');
    auto& entries = sections[f.substr(0, dot)];
    const Entry e{f.substr(dot + 1, eq - dot - 1),
                  quoted(f.substr(eq + 1)),
                  {"held fixed (-p) during the fit"}};
    // A key given twice: the last -p is the one that ran.
    auto same = std::find_if(entries.begin(), entries.end(),
                             [&](const Entry& x) { return x.key == e.key; });
    if (same != entries.end())
      *same = e;
    else
      entries.push_back(e);
  }
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const FitParameter& p = r.params[i];
    std::string spread;
    if (!r.loo_fits.empty()) {
      double lo = r.loo_fits[0].values[i], hi = lo;
      for (const auto& f : r.loo_fits)
        lo = std::min(lo, f.values[i]), hi = std::max(hi, f.values[i]);
      spread = "; leave-one-out refits " + p.format(lo) + " .. " + p.format(hi);
    }
    sections[p.section].push_back(Entry{
        p.key,
        p.format(r.fitted[i]),
        {"stcsim calibrate, " + date + ": fitted in [" + p.format(p.lo) + ", " + p.format(p.hi) +
             "] " + p.unit + " (" + r.arch + ": " + p.format(p.start) + spread + ")",
         "to " + files_text(r) + " (" + std::to_string(r.fit_rows.size()) + " GEMMs of '" +
             r.device + "'" + (r.synthetic ? ", SYNTHETIC" : "") + ")",
         errors, "command: " + command}});
  }

  std::string y;
  if (r.synthetic)
    y += comment(
        "SYNTHETIC measurements (made up or simulated for tests, not from a GPU): "
        "these values say nothing about any GPU.");
  y += comment(r.arch + " calibrated by `stcsim calibrate` on " + date +
               " (UTC): " + std::to_string(r.params.size()) +
               " parameter(s) fitted to measurements of '" + r.device + "'.");
  y += comment("Data: " + files_text(r));
  y += comment("Fit: " + errors + ".");
  y += comment(
      "The fit minimised time MAPE + 100 x mean |2:4 speedup error|; residuals.txt "
      "beside this file has every GEMM.");
  y += comment("Command: " + command);
  y += comment("Use: stcsim run --arch <this file> ...");
  y += "schema_version: " + std::to_string(kSchemaVersion) + "\n";
  y += "base: " + r.arch + "\n";
  y += "name: " + r.arch + "-calibrated\n";
  y += "description: " +
       quoted(load_arch(r.arch).description + ", calibrated to measurements (stcsim calibrate, " +
              date + ")") +
       "\n";
  // `sources` replaces the base's list, so the base's sources come first.
  y += "sources:\n";
  for (const auto& s : load_arch(r.arch).sources) y += "  - " + quoted(s) + "\n";
  y += "  - " + quoted("stcsim calibrate " + date + " on " + files_text(r)) + "\n";
  for (const auto& [section, entries] : sections) {
    y += section + ":\n";
    for (const auto& e : entries) {
      for (const auto& c : e.comments) y += "  " + comment(c);
      y += "  " + e.key + ": " + e.value + "\n";
    }
  }
  return y;
}

}  // namespace stcsim::calibrate
