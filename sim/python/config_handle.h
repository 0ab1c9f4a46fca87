// A config as the Python module holds it: how it was made (the --arch and the -p
// overrides, in order) beside the result, so a child `stcsim run` given the same
// arguments resolves exactly the same config.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/config/config.h"

namespace stcsim::python {

class ConfigHandle {
 public:
  static ConfigHandle preset(const std::string& name);
  static ConfigHandle from_yaml(const std::string& path);

  // `section.key=value`; throws InputError (and changes nothing) when the CLI would.
  void set(const std::string& assignment);

  const Config& config() const { return config_; }
  const std::string& arch() const { return arch_; }
  const std::vector<std::string>& overrides() const { return overrides_; }
  std::vector<std::string> cli_args() const;

 private:
  ConfigHandle(std::string arch, Config config)
      : arch_(std::move(arch)), config_(std::move(config)) {}
  std::string arch_;
  std::vector<std::string> overrides_;
  Config config_;
};

}  // namespace stcsim::python
