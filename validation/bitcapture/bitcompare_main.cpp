// stcsim_bitcompare: the offline comparator of a bit capture (docs/validation.md, "Bit
// capture").
//   stcsim_bitcompare CAPTURE [--presets a100,h100,...] [--show N] [--json FILE] [--require PRESET]
//     replays every record under each preset (default: all accumulation presets), prints
//     per preset the exact records per group and category and the first N (5) mismatches
//     per group; --json writes the same; --require: exit 1 unless PRESET matches every
//     record.
//   stcsim_bitcompare --synthesize PRESET --out FILE [--scale S] [--seed N] [--only GROUPS]
//     writes a SYNTHETIC capture whose D come from the model under PRESET (tests, dry runs).
//   stcsim_bitcompare CAPTURE --search [--only GROUPS] [--show N] [--per-category R] [--json FILE]
//     replays R (16) records of each operand category per group under every model of a
//     grid (model_search.h) and prints the N best per group and over all groups.
//   stcsim_bitcompare CAPTURE --keep R --out FILE [--keep-bytes B]
//     writes the first R records of each operand category of every group (fewer where a
//     group's kept records would pass B bytes, 1 MiB by default): the part of a capture
//     small enough to commit (capture_file.h, subset_capture).
// Exit status: 0, 1 (--require failed), 2 (usage, unreadable or malformed capture).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "models/numerics/accumulation_model.h"
#include "validation/bitcapture/comparator.h"
#include "validation/bitcapture/model_search.h"
#include "validation/bitcapture/plan.h"

using namespace stcsim::validation::bits;

namespace {
std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

int usage() {
  std::cerr
      << "usage: stcsim_bitcompare CAPTURE [--presets P,...] [--show N] [--json FILE] "
         "[--require PRESET]\n"
         "       stcsim_bitcompare CAPTURE --search [--only GROUPS] [--show N] [--per-category "
         "R] [--json FILE]\n"
         "       stcsim_bitcompare --synthesize PRESET --out FILE [--scale S] [--seed N] "
         "[--only GROUPS]\n"
         "       stcsim_bitcompare CAPTURE --keep R --out FILE [--keep-bytes B]\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  std::string capture, json_out, require, synthesize, out, only;
  std::vector<std::string> presets = stcsim::numerics::accumulation_preset_names();
  int show = 5, per_category = 16, keep = -1;  // keep: -1 = not asked
  std::size_t keep_bytes = 1 << 20;
  bool search = false;
  double scale = 1;
  unsigned long long seed = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const bool more = i + 1 < argc;
      if (a == "--presets" && more)
        presets = split(argv[++i]);
      else if (a == "--show" && more)
        show = std::stoi(argv[++i]);
      else if (a == "--json" && more)
        json_out = argv[++i];
      else if (a == "--require" && more)
        require = argv[++i];
      else if (a == "--synthesize" && more)
        synthesize = argv[++i];
      else if (a == "--out" && more)
        out = argv[++i];
      else if (a == "--scale" && more)
        scale = std::stod(argv[++i]);
      else if (a == "--seed" && more)
        seed = std::stoull(argv[++i]);
      else if (a == "--only" && more)
        only = argv[++i];
      else if (a == "--search")
        search = true;
      else if (a == "--per-category" && more)
        per_category = std::stoi(argv[++i]);
      else if (a == "--keep" && more) {
        keep = std::stoi(argv[++i]);
        if (keep < 1) return usage();
      } else if (a == "--keep-bytes" && more) {
        const long long b = std::stoll(argv[++i]);
        if (b <= 0) return usage();
        keep_bytes = std::size_t(b);
      } else if (a.rfind("--", 0) != 0 && capture.empty())
        capture = a;
      else
        return usage();
    }
    if (!synthesize.empty()) {
      if (out.empty()) return usage();
      Capture c = plan_capture(seed, scale, only);
      fill_by_model(c, synthesize);
      write_capture(out, c);
      std::cout << "Wrote " << out << " (synthetic, D from preset " << synthesize << ")\n";
      return 0;
    }
    if (capture.empty()) return usage();
    if (!require.empty() && std::find(presets.begin(), presets.end(), require) == presets.end())
      presets.push_back(require);
    const Capture c = read_capture(capture);
    if (c.header.value("synthetic", false))
      std::cout << "SYNTHETIC capture (D from the model under "
                << c.header.value("d_from_model", "?") << "), not a measurement\n";
    if (keep != -1) {
      if (out.empty() || !only.empty()) return usage();
      const Capture s = subset_capture(c, keep, keep_bytes);
      write_capture(out, s);
      std::size_t records = 0;
      for (const CaptureGroup& g : s.groups) records += std::size_t(g.records);
      std::cout << "Wrote " << out << " (" << records << " records of " << s.groups.size()
                << " groups)\n";
      return 0;
    }
    if (search) {  // which model of the family matches the capture (model_search.h)
      SearchGrid grid;
      grid.records_per_category = per_category;
      const auto found = search_models(c, grid, only);
      print_search(std::cout, found, show);
      if (!json_out.empty()) {
        std::ofstream js(json_out);
        js << nlohmann::json{{"capture", capture},
                             {"header", c.header},
                             {"records_per_category", per_category},
                             {"search", to_json(found, show)}}
                  .dump(1)
           << "\n";
      }
      return 0;
    }
    const auto results = compare_capture(c, presets, show);
    print_report(std::cout, results);
    if (!json_out.empty()) {
      std::ofstream js(json_out);
      js << nlohmann::json{{"capture", capture},
                           {"header", c.header},
                           {"presets", to_json(results)}}
                .dump(1)
         << "\n";
    }
    for (const PresetResult& p : results)
      if (p.preset == require && p.all.exact_records != p.all.records) {
        std::cout << "preset " << require << " does not match every record\n";
        return 1;
      }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "stcsim_bitcompare: " << e.what() << "\n";
    return 2;
  }
}
