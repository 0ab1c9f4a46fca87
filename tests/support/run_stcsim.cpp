#include "tests/support/run_stcsim.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace stcsim::test {

std::string temp_dir(const std::string& tag) {
  static int n = 0;
  auto p = std::filesystem::temp_directory_path() /
           ("stcsim_test_" + std::to_string(::getpid()) + "_" + tag + "_" + std::to_string(n++));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

static std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ProcResult run_command(const std::string& cmd) {
  const std::string d = temp_dir("proc");
  const std::string full = cmd + " >" + d + "/out 2>" + d + "/err";
  const int rc = std::system(full.c_str());
  ProcResult r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(d + "/out");
  r.err = slurp(d + "/err");
  std::filesystem::remove_all(d);
  return r;
}

ProcResult run_stcsim(const std::string& args) {
  return run_command(std::string(STCSIM_BIN) + " " + args);
}

nlohmann::json run_stats(const std::string& args) {
  const std::string d = temp_dir("run");
  const ProcResult r = run_stcsim("run " + args + " -q --out " + d);
  INFO("stcsim run " << args << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(slurp(d + "/stats.json"));
  std::filesystem::remove_all(d);
  return j;
}

}  // namespace stcsim::test
