// An .onnx file: protobuf wire format, ModelProto -> GraphProto -> nodes, initializers.
#include <vector>

#include "tests/fuzz/fuzz_common.h"
#include "workloads/loaders/onnx.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  stcsim::fuzz::refuse_only_with_input_error(
      [&] { stcsim::workloads::parse_onnx(bytes, "fuzz.onnx"); });
  return 0;
}
