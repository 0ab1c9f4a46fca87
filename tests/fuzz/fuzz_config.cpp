// A hardware design file (YAML): schema, sections, keys, numbers, base presets.
#include "sim/config/config.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  stcsim::fuzz::refuse_only_with_input_error([&] {
    stcsim::Config cfg = stcsim::load_config_text(text, "fuzz.yaml");
    stcsim::apply_override(cfg, "gpu.num_sms=8");  // overrides after a fuzzed base
  });
  return 0;
}
