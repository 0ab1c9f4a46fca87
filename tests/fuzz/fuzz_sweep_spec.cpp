// A sweep spec (YAML): axes, zipped groups, linear and geometric ranges, workloads.
#include "sim/sweep/sweep_spec.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  stcsim::fuzz::refuse_only_with_input_error(
      [&] { stcsim::sweep::parse_sweep_spec_text(text, "fuzz-sweep.yaml"); });
  return 0;
}
