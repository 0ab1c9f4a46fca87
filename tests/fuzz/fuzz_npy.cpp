// A .npy file: magic, version, Python-dict header, data.
#include <vector>

#include "tests/fuzz/fuzz_common.h"
#include "workloads/loaders/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  stcsim::fuzz::refuse_only_with_input_error(
      [&] { stcsim::workloads::parse_npy(bytes, "fuzz.npy", "x"); });
  return 0;
}
