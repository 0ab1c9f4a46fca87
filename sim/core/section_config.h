// One component kind's resolved configuration: which implementation, and values for
// every parameter it declares. Produced by sim/config, consumed by the models.
#pragma once
#include <map>
#include <string>

#include "sim/core/param.h"

namespace stcsim {

struct SectionConfig {
  std::string impl;
  ValueSource impl_source;
  ParamSet params;
  std::map<std::string, ValueSource> sources;  // key -> where its value was set
};

using HardwareSections = std::map<std::string, SectionConfig>;

}  // namespace stcsim
