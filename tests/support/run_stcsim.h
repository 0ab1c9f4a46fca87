// Run a program in a child process and capture its exit status, stdout and stderr.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace stcsim::test {

struct ProcResult {
  int status = -1;
  std::string out, err;
};

ProcResult run_command(const std::string& cmd);
// `stcsim ARGS` with the built binary.
ProcResult run_stcsim(const std::string& args);
// `stcsim run ARGS --out <fresh dir> -q`; fails the test unless it exits 0.
nlohmann::json run_stats(const std::string& args);
std::string temp_dir(const std::string& tag);

}  // namespace stcsim::test
