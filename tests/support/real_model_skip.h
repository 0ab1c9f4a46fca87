// Tests that need a real model fetched by scripts/fetch_models.sh (into
// ${STCSIM_CACHE:-$HOME/.cache/stcsim}) are skipped when it is missing, never passed:
// skip_without_real_model() WARNs a line starting "SKIPPED:" with the reason and the
// fetch command, the test case returns, and ctest reports the case skipped (the Catch2
// tests carry SKIP_REGULAR_EXPRESSION "SKIPPED:"). STCSIM_SKIP_REAL_MODELS=1 skips them
// even when the model is there.
#pragma once
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "workloads/real_models/real_models.h"

namespace stcsim::test {

// Call first in the test case: `if (skip_without_real_model("ppocrv4_rec")) return;`.
inline bool skip_without_real_model(const std::string& name) {
  using namespace stcsim::workloads;
  const char* skip = std::getenv("STCSIM_SKIP_REAL_MODELS");
  if (skip && std::string(skip) == "1") {
    WARN("SKIPPED: STCSIM_SKIP_REAL_MODELS=1 (real model '" << name << "')");
    return true;
  }
  if (real_model_cached(name)) return false;
  WARN("SKIPPED: real model '" << name << "' is not in " << default_cache_dir()
                               << "; fetch it with: " << fetch_command(name));
  return true;
}

}  // namespace stcsim::test
