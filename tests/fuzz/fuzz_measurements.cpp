// A validation measurement file (JSON), as `stcsim validate` reads it.
#include "tests/fuzz/fuzz_common.h"
#include "validation/compare/measurements.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stcsim;
  const std::string file = fuzz::scratch_dir() + "/measurements.json";
  fuzz::write_bytes(file, data, size);
  fuzz::refuse_only_with_input_error([&] { validation::load_measurements(file); });
  return 0;
}
