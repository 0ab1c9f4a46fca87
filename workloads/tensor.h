// A named dense tensor as the workload tools see it: real weights are decoded to
// fp32 here whatever their stored form (fp16, bf16, uint8 with scale/min, ...).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace stcsim::workloads {

struct Tensor {
  std::string name;
  std::vector<std::int64_t> shape;  // outermost first, as stored in the file
  std::vector<float> data;          // row-major, size = product of shape
  std::string stored_dtype;         // how the file stored it: "float32", "float16", "bfloat16",
                                    // "uint8_affine", ...

  std::int64_t numel() const {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
};

}  // namespace stcsim::workloads
