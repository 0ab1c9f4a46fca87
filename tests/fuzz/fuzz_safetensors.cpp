// A .safetensors file: 8-byte header length, JSON header, tensor buffer.
#include <vector>

#include "tests/fuzz/fuzz_common.h"
#include "workloads/loaders/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  stcsim::fuzz::refuse_only_with_input_error(
      [&] { stcsim::workloads::parse_safetensors(bytes, "fuzz.safetensors"); });
  return 0;
}
