// The .npy header: a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), } padded with spaces and a newline (internal to npy.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace stcsim::workloads {

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
};

// `base` is the file offset of the text, so errors name file offsets.
NpyHeader parse_npy_header(std::string text, const std::string& file, std::uint64_t base);

}  // namespace stcsim::workloads
