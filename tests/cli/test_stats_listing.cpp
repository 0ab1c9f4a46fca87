// `stcsim stats` lists every declared stat (sim/core/stat.h); the README's stats
// glossary must document exactly those, and a run must write nothing undeclared.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

std::set<std::string> listed_stats() {
  const auto r = run_stcsim("stats");
  REQUIRE(r.status == 0);
  std::set<std::string> names;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != ' ' && line.find("  [") != std::string::npos)
      names.insert(line.substr(0, line.find("  [")));
  return names;
}

// `a.{b,c}` -> a.b, a.c
std::vector<std::string> expand_braces(const std::string& s) {
  const auto open = s.find('{'), close = s.find('}');
  if (open == std::string::npos || close == std::string::npos) return {s};
  std::vector<std::string> out;
  std::istringstream parts(s.substr(open + 1, close - open - 1));
  for (std::string p; std::getline(parts, p, ',');)
    out.push_back(s.substr(0, open) + p + s.substr(close + 1));
  return out;
}

// The backquoted names of the glossary table's first column.
std::vector<std::string> glossary_names() {
  std::ifstream in(std::string(STCSIM_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  std::vector<std::string> names;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line.find("Stats glossary") != std::string::npos;
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t a = cell.find('`'), b; a != std::string::npos; a = cell.find('`', b + 1)) {
      b = cell.find('`', a + 1);
      REQUIRE(b != std::string::npos);
      for (const auto& n : expand_braces(cell.substr(a + 1, b - a - 1))) names.push_back(n);
    }
  }
  return names;
}

// Does glossary entry `g` (a name, `group.*` or a bare group) document stat `s`?
bool covers(std::string g, const std::string& s) {
  if (g.size() > 2 && g.compare(g.size() - 2, 2, ".*") == 0) g.resize(g.size() - 2);
  return s == g || s.rfind(g + ".", 0) == 0;
}

void flatten(const nlohmann::json& j, const std::string& path, std::set<std::string>& out) {
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
  else
    out.insert(path);
}

}  // namespace

TEST_CASE("stats_listing_matches_readme_glossary", "[cli]") {
  const auto stats = listed_stats();
  REQUIRE(stats.size() > 40);
  const auto glossary = glossary_names();
  REQUIRE(!glossary.empty());
  // Entries that describe the file's layout rather than a stat.
  const std::set<std::string> layout{"total", "ops[i]", "variants", "run", "config"};
  for (const auto& s : stats) {
    INFO("stat listed by `stcsim stats` but not in the README glossary: " << s);
    CHECK(std::any_of(glossary.begin(), glossary.end(),
                      [&](const std::string& g) { return covers(g, s); }));
  }
  for (const auto& g : glossary) {
    if (layout.count(g)) continue;
    INFO("README glossary entry that `stcsim stats` does not list: " << g);
    CHECK(std::any_of(stats.begin(), stats.end(),
                      [&](const std::string& s) { return covers(g, s); }));
  }
}

TEST_CASE("stats_json_writes_only_declared_stats", "[cli]") {
  const auto stats = listed_stats();
  // Dense and 2:4 (the dense comparison), block-sparse and CSR (their kernels' stats), and
  // the warp-specialized kernel that auto picks on the h100, the depthwise conv kernel.
  for (const char* args :
       {"--arch a100 --gemm 256x256x512 --sparsity 2:4",
        "--arch a100 --gemm 256x256x512 --block 32x32@0.5",
        "--arch a100 --gemm 256x256x512 --unstructured 0.9 --unstructured-kernel csr",
        "--arch h100 --gemm 256x256x512 --sparsity 2:4",
        "--arch a100 --trace " STCSIM_SOURCE_DIR "/tests/golden/depthwise.trace"}) {
    INFO(args);
    const auto j = run_stats(args);
    std::set<std::string> written;
    flatten(j["total"], "", written);
    for (const auto& op : j["ops"]) flatten(op, "", written);
    written.erase("wall_seconds");  // of the run, not of an op (stats_json.cpp)
    for (const auto& w : written) {
      INFO("written but not declared: " << w);
      CHECK(stats.count(w));
    }
  }
}
