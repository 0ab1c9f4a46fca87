// Configuration: a YAML file (or built-in preset) -> validated, typed values for the
// declared parameters of every component kind. Sections are component kinds
// ("gpu", "sm", "tensor_core", "smem", "l2", "dram", "mapping", ...); each may name its
// implementation with `impl:`. A file may start from a preset with `base: a100`.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/param.h"
#include "sim/core/section_config.h"

namespace stcsim {

inline constexpr int kSchemaVersion = 1;

struct Config {
  int schema_version = kSchemaVersion;
  std::string name;
  std::string description;
  std::string file;                  // where it was read from ("presets/a100.yaml" for built-ins)
  std::vector<std::string> sources;  // provenance of the figures
  HardwareSections sections;

  const SectionConfig& section(const std::string& kind) const;
  nlohmann::json to_json() const;
};

// Built-in presets (the YAML under models/presets, compiled into the binary).
std::vector<std::string> preset_names();
const std::string& preset_text(const std::string& name);  // throws InputError if unknown

// `arch` is a preset name or a path to a YAML file. The result has every declared
// parameter resolved (defaults filled, required ones checked).
Config load_arch(const std::string& arch);
Config load_config_text(const std::string& text, const std::string& display_name);

// Apply `section.key=value` (or `section.impl=name`) and re-check the result.
void apply_override(Config& cfg, const std::string& assignment);

// Fill defaults and check that required keys are present.
void resolve_defaults(Config& cfg);

}  // namespace stcsim
