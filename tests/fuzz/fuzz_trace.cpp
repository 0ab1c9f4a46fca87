// A trace v1 (text) and its payload (binary), split at the first "\n---\n"; the text is
// also read as format 0 when it says so. Written as fuzz.trace and fuzz.trace.bin in a
// scratch folder, since the reader resolves the payload beside the trace.
#include "sim/driver/gemm_list.h"
#include "tests/fuzz/fuzz_common.h"
#include "workloads/trace/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stcsim;
  const auto parts = fuzz::split_input(data, size);
  const std::string trace = fuzz::scratch_dir() + "/fuzz.trace";
  fuzz::write_bytes(trace, reinterpret_cast<const std::uint8_t*>(parts.first.data()),
                    parts.first.size());
  fuzz::write_bytes(trace + ".bin", reinterpret_cast<const std::uint8_t*>(parts.second.data()),
                    parts.second.size());
  fuzz::refuse_only_with_input_error([&] { workloads::read_trace(trace); });
  fuzz::refuse_only_with_input_error([&] { read_gemm_trace(trace, Dtype::FP16); });
  return 0;
}
