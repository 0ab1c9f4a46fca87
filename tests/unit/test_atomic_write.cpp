// Output files are written to a temporary name and renamed: a failed write or rename
// throws an InputError naming the file, leaves the previous result whole and removes
// its temporary file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/driver/stats_json.h"

namespace fs = std::filesystem;
using namespace stcsim;

namespace {
std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("atomic_write_replaces_the_whole_file", "[unit][output]") {
  const fs::path dir = fs::temp_directory_path() / "stcsim-atomic-ok";
  fs::remove_all(dir);
  write_file_atomically(dir.string(), "a.json", "first");
  write_file_atomically(dir.string(), "a.json", "second");
  CHECK(read(dir / "a.json") == "second");
  CHECK(!fs::exists(dir / ".a.json.tmp"));
}

TEST_CASE("atomic_write_failure_leaves_no_temporary_file", "[unit][output]") {
  const fs::path dir = fs::temp_directory_path() / "stcsim-atomic-fail";
  fs::remove_all(dir);
  // The target name is a non-empty directory: the rename fails.
  fs::create_directories(dir / "stats.json" / "inside");
  CHECK_THROWS_AS(write_file_atomically(dir.string(), "stats.json", "new"), InputError);
  CHECK_THROWS_WITH(write_file_atomically(dir.string(), "stats.json", "new"),
                    Catch::Contains("stats.json") && Catch::Contains("cannot replace"));
  CHECK(!fs::exists(dir / ".stats.json.tmp"));
  CHECK(fs::is_directory(dir / "stats.json" / "inside"));  // what was there is untouched
}
