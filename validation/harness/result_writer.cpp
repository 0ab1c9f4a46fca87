#include "validation/harness/result_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace stcsim::validation {

namespace fs = std::filesystem;
using nlohmann::json;

void write_file_atomic(const std::string& path, const std::string& text) {
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + tmp);
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  if (std::fclose(f) != 0 || !wrote || !flushed) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, format, std::gmtime(&t));
  return buf;
}

std::string parts_dir_for(const std::string& out_json) { return out_json + ".parts"; }

std::string part_file_name(int gemm_index, const std::string& kernel) {
  char head[16];
  std::snprintf(head, sizeof head, "g%05d_", gemm_index);
  return head + kernel + ".json";
}

void write_part(const std::string& parts_dir, const Part& p) {
  json j{{"gemm_index", p.gemm_index}, {"kernel", p.kernel},     {"entry", p.entry},
         {"skipped", p.skipped},       {"baseline", p.baseline}, {"check_failed", p.check_failed}};
  write_file_atomic(parts_dir + "/" + part_file_name(p.gemm_index, p.kernel), j.dump(1) + "\n");
}

bool part_exists(const std::string& parts_dir, int gemm_index, const std::string& kernel) {
  return fs::exists(parts_dir + "/" + part_file_name(gemm_index, kernel));
}

std::vector<Part> read_parts(const std::string& parts_dir, std::vector<std::string>* bad) {
  std::vector<std::string> files;
  if (fs::is_directory(parts_dir))
    for (const auto& e : fs::directory_iterator(parts_dir)) {
      const std::string name = e.path().filename().string();
      if (name.size() > 6 && name[0] == 'g' && e.path().extension() == ".json")
        files.push_back(e.path().string());
    }
  std::sort(files.begin(), files.end());
  std::vector<Part> parts;
  for (const std::string& f : files) {
    try {
      std::ifstream in(f);
      const json j = json::parse(in);
      Part p;
      p.gemm_index = j.at("gemm_index").get<int>();
      p.kernel = j.at("kernel").get<std::string>();
      p.entry = j.value("entry", json());
      p.skipped = j.value("skipped", json());
      p.baseline = j.value("baseline", "");
      p.check_failed = j.value("check_failed", false);
      parts.push_back(std::move(p));
    } catch (const std::exception& e) {
      if (bad) bad->push_back(f + ": " + e.what());
    }
  }
  return parts;
}

json merge_parts(const json& header, const std::vector<Part>& parts) {
  json doc = header;
  json gemms = json::array(), skipped = json::array(), baselines = json::object();
  std::vector<double> clocks;
  for (const Part& p : parts) {
    if (!p.entry.is_null()) {
      gemms.push_back(p.entry);
      if (p.entry.contains("sm_clock_mhz_median") && p.entry["sm_clock_mhz_median"].is_number())
        clocks.push_back(p.entry["sm_clock_mhz_median"].get<double>());
    }
    if (!p.skipped.is_null()) skipped.push_back(p.skipped);
    // A library's status: "ok" once it ran for any GEMM, else the last reason it did not.
    if (!p.baseline.empty() && baselines.value(p.kernel, "") != "ok")
      baselines[p.kernel] = p.baseline;
  }
  if (!doc.contains("device") || !doc["device"].is_object()) doc["device"] = json::object();
  if (!clocks.empty()) {
    std::sort(clocks.begin(), clocks.end());
    const std::size_t n = clocks.size();
    doc["device"]["sm_clock_mhz"] = {
        {"median", n % 2 ? clocks[n / 2] : 0.5 * (clocks[n / 2 - 1] + clocks[n / 2])},
        {"min", clocks.front()},
        {"max", clocks.back()},
        {"entries", n},
        {"of", "the entries' own sm_clock_mhz_median"}};
  } else {
    doc["device"]["sm_clock_mhz"] = nullptr;
  }
  doc["gemms"] = gemms;
  doc["skipped"] = skipped;
  doc["baselines"] = baselines;
  return doc;
}

}  // namespace stcsim::validation
