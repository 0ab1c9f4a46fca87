#include "validation/bitcapture/capture_file.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "validation/bitcapture/operand_gen.h"

namespace stcsim::validation::bits {

using nlohmann::json;

namespace {
constexpr const char* kSchema = "stcsim-bitcapture/1";

// The capture is written and read on little-endian machines (x86-64 both ends); the
// format says little-endian so that a reader elsewhere knows what to swap.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the capture format is little-endian");
}  // namespace

json header_json(const Capture& c) {
  json h = c.header;
  h["schema"] = kSchema;
  h["byte_order"] = "little-endian 32-bit words";
  h["record"] = "[category][a][b][c][e][d] (validation/bitcapture/instruction_layout.h)";
  json cats = json::array();
  for (int i = 0; i < kCategories; ++i) cats.push_back(to_string(Category(i)));
  h["categories"] = cats;
  json groups = json::array();
  std::size_t offset = 0;
  for (const CaptureGroup& g : c.groups) {
    const GroupSpec& s = g.spec;
    groups.push_back({{"name", s.name()},
                      {"instruction", to_string(s.instr)},
                      {"ptx", s.ptx()},
                      {"dtype", functional::to_string(s.type)},
                      {"m", s.m()},
                      {"n", s.n},
                      {"k", s.k()},
                      {"records", g.records},
                      {"record_words", s.record_words()},
                      {"fields",
                       {{"category", 1},
                        {"a", s.a_words()},
                        {"b", s.b_words()},
                        {"c", s.cd_words()},
                        {"e", s.e_words()},
                        {"d", s.cd_words()}}},
                      {"offset_bytes", offset}});
    offset += std::size_t(g.records) * s.record_words() * 4;
  }
  h["groups"] = groups;
  return h;
}

void write_capture(const std::string& path, const Capture& c) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << header_json(c).dump() << '\n';
    for (const CaptureGroup& g : c.groups)
      out.write(reinterpret_cast<const char*>(g.words.data()), std::streamsize(g.words.size() * 4));
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

Capture read_capture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);
  Capture c;
  json h;
  try {
    h = json::parse(line);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": the first line is not a JSON header: " + e.what());
  }
  if (h.value("schema", "") != kSchema)
    throw std::runtime_error(path + ": schema '" + h.value("schema", "") + "', expected " +
                             kSchema);
  for (const json& gj : h.at("groups")) {
    CaptureGroup g{
        parse_group(gj.at("instruction"), gj.at("dtype"), gj.at("n")), gj.at("records"), {}};
    if (gj.at("record_words").get<int>() != g.spec.record_words())
      throw std::runtime_error(path + ": group " + g.spec.name() + " has " +
                               gj.at("record_words").dump() + " words a record, expected " +
                               std::to_string(g.spec.record_words()));
    g.words.resize(std::size_t(g.records) * g.spec.record_words());
    in.read(reinterpret_cast<char*>(g.words.data()), std::streamsize(g.words.size() * 4));
    if (std::size_t(in.gcount()) != g.words.size() * 4)
      throw std::runtime_error(path + ": group " + g.spec.name() + " is cut short (" +
                               std::to_string(in.gcount()) + " of " +
                               std::to_string(g.words.size() * 4) + " bytes)");
    c.groups.push_back(std::move(g));
  }
  if (in.peek() != std::char_traits<char>::eof())
    throw std::runtime_error(path + ": bytes after the last group");
  h.erase("groups");
  c.header = h;
  return c;
}

Capture subset_capture(const Capture& c, int per_category, std::size_t max_group_bytes) {
  if (per_category < 1) throw std::invalid_argument("subset_capture: per_category must be >= 1");
  Capture out;
  out.header = c.header;
  json kept = json::array();
  for (const CaptureGroup& g : c.groups) {
    const std::size_t record_bytes = std::size_t(g.spec.record_words()) * 4;
    const std::size_t fit = max_group_bytes / (record_bytes * kCategories);
    const int take = int(std::max<std::size_t>(1, std::min<std::size_t>(per_category, fit)));
    CaptureGroup s;
    s.spec = g.spec;
    std::vector<int> taken(kCategories, 0);
    for (int r = 0; r < g.records; ++r) {
      const std::uint32_t cat = g.record(r)[0];
      if (cat >= std::uint32_t(kCategories) || taken[cat] >= take) continue;
      ++taken[cat];
      s.words.insert(s.words.end(), g.record(r), g.record(r) + g.spec.record_words());
      ++s.records;
    }
    kept.push_back({{"name", g.spec.name()}, {"of", g.records}, {"kept", s.records}});
    out.groups.push_back(std::move(s));
  }
  out.header["subset"] = {{"rule", "the first records of each operand category per group"},
                          {"records_per_category", per_category},
                          {"max_group_bytes", max_group_bytes},
                          {"groups", kept}};
  return out;
}

}  // namespace stcsim::validation::bits
