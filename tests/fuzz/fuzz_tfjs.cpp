// A TF.js model.json (or bare weights manifest) and one shard, split at the first
// "\n---\n", written as model.json and shard.bin in a scratch folder: the manifest's
// paths are fuzzed too, so path confinement (nothing outside the folder) is exercised.
#include "tests/fuzz/fuzz_common.h"
#include "workloads/loaders/tfjs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stcsim;
  const auto parts = fuzz::split_input(data, size);
  const std::string dir = fuzz::scratch_dir() + "/model";
  std::filesystem::create_directories(dir);
  fuzz::write_bytes(dir + "/shard.bin", reinterpret_cast<const std::uint8_t*>(parts.second.data()),
                    parts.second.size());
  fuzz::refuse_only_with_input_error(
      [&] { workloads::parse_tfjs(parts.first, dir + "/model.json"); });
  return 0;
}
