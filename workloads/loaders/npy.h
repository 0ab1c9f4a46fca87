// NumPy .npy files (format versions 1.0, 2.0 and 3.0): one array, C order, little-endian
// dtypes <f4 <f2 <f8 |i1 |u1 <i4 (numpy writes |i1 and |u1; <i1 and <u1 are accepted).
// Reading decodes to fp32; writing is used to dump functional outputs and fixtures.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

// One tensor named after the file's stem ("w.npy" -> "w"). InputError names the file and
// byte offset of anything malformed: bad magic, header, dtype, fortran_order, truncation.
std::vector<Tensor> load_npy(const std::string& path);
Tensor parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& file,
                 const std::string& tensor_name);

// Writes `t` as dtype "<f4" (default), "<f2", "<f8", "|i1", "|u1" or "<i4"; integer dtypes
// take values rounded to nearest, which must fit (InputError otherwise).
void save_npy(const std::string& path, const Tensor& t, const std::string& dtype = "<f4");
std::vector<std::uint8_t> encode_npy(const Tensor& t, const std::string& dtype = "<f4");

}  // namespace stcsim::workloads
