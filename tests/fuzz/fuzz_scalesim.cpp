// A SCALE-Sim topology CSV: a header naming the format, then rows of layer shapes.
#include <string>

#include "tests/fuzz/fuzz_common.h"
#include "workloads/loaders/scalesim_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  stcsim::fuzz::refuse_only_with_input_error(
      [&] { stcsim::workloads::parse_scalesim_topology(text, "fuzz.csv"); });
  return 0;
}
