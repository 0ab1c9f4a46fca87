#include "workloads/loaders/npy.h"

#include <cmath>
#include <cstring>
#include <optional>

#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"
#include "workloads/loaders/byte_reader.h"
#include "workloads/loaders/element_types.h"
#include "workloads/loaders/npy_header.h"

namespace stcsim::workloads {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

std::optional<ElemType> npy_dtype(const std::string& d) {
  if (d == "<f4") return ElemType::F32;
  if (d == "<f2") return ElemType::F16;
  if (d == "<f8") return ElemType::F64;
  if (d == "|i1" || d == "<i1") return ElemType::I8;
  if (d == "|u1" || d == "<u1") return ElemType::U8;
  if (d == "<i4") return ElemType::I32;
  return std::nullopt;
}

}  // namespace

Tensor parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& file,
                 const std::string& tensor_name) {
  ByteReader r(bytes.data(), bytes.size(), file);
  if (std::memcmp(r.take(6, "the magic string \\x93NUMPY"), kMagic, 6) != 0)
    throw_at(file, 0, "expected the magic string \\x93NUMPY (not a .npy file)");
  const std::uint64_t version_at = r.offset();
  const std::uint8_t major = r.u8("the format version");
  r.u8("the format version");
  if (major < 1 || major > 3)
    throw_at(file, version_at,
             "unsupported .npy format version " + std::to_string(major) + " (expected 1, 2 or 3)");
  const std::uint64_t hlen = major == 1 ? r.u16("the header length") : r.u32("the header length");
  const std::uint64_t header_at = r.offset();
  const std::uint8_t* h = r.take(hlen, "header");
  const NpyHeader hp =
      parse_npy_header(std::string(reinterpret_cast<const char*>(h), hlen), file, header_at);

  const auto type = npy_dtype(hp.descr);
  if (!type) {
    const bool big = !hp.descr.empty() && hp.descr[0] == '>';
    throw_at(file, header_at,
             "dtype '" + hp.descr + "' is not supported" + (big ? " (big-endian)" : "") +
                 "; expected <f4, <f2, <f8, |i1, |u1 or <i4");
  }
  if (hp.fortran_order)
    throw_at(file, header_at,
             "fortran_order is True: Fortran-ordered arrays are not supported; "
             "save a C-ordered copy (numpy.ascontiguousarray)");
  const std::uint64_t n = checked_numel(hp.shape, elem_size(*type), file, header_at, "shape");
  const std::uint64_t need = n * elem_size(*type);
  if (r.remaining() != need)
    r.fail("expected " + std::to_string(need) + " bytes of data for shape " +
           shape_string(hp.shape) + " " + hp.descr + ", the file has " +
           std::to_string(r.remaining()));
  Tensor t;
  t.name = tensor_name;
  t.shape = hp.shape;
  t.stored_dtype = stored_name(*type);
  t.data.resize(n);
  decode_elements(*type, r.take(need, "data"), n, t.data.data());
  return t;
}

std::vector<Tensor> load_npy(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".npy") == 0)
    stem.resize(stem.size() - 4);
  return {parse_npy(read_file_bytes(path), path, stem)};
}

std::vector<std::uint8_t> encode_npy(const Tensor& t, const std::string& dtype) {
  const auto type = npy_dtype(dtype);
  if (!type)
    throw InputError("npy writer: dtype '" + dtype + "' is not one of <f4 <f2 <f8 |i1 |u1 <i4");
  if (static_cast<std::int64_t>(t.data.size()) != t.numel())
    throw InputError("npy writer: tensor '" + t.name + "' has " + std::to_string(t.data.size()) +
                     " values for shape " + shape_string(t.shape));
  std::string shape = "(";
  for (auto d : t.shape) shape += std::to_string(d) + ", ";
  if (t.shape.size() == 1)
    shape.resize(shape.size() - 1);  // "(3,)"
  else if (!t.shape.empty())
    shape.resize(shape.size() - 2);  // "(3, 4)"
  shape += ")";
  std::string header =
      "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a newline so the data starts on a 64-byte boundary (as numpy does).
  const bool v1 = header.size() + 64 < 65535;  // version 1.0 has a 16-bit header length
  const std::size_t prefix = v1 ? 10 : 12;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';

  std::vector<std::uint8_t> out(kMagic, kMagic + 6);
  out.push_back(v1 ? 1 : 2);
  out.push_back(0);
  if (v1)
    put_le16(out, static_cast<std::uint16_t>(header.size()));
  else
    put_le32(out, static_cast<std::uint32_t>(header.size()));
  out.insert(out.end(), header.begin(), header.end());
  const auto integral = [&](float v, double lo, double hi) {
    const double r = std::nearbyint(static_cast<double>(v));
    if (!(r >= lo && r <= hi))
      throw InputError("npy writer: tensor '" + t.name + "' value " + std::to_string(v) +
                       " does not fit " + dtype);
    return r;
  };
  for (float v : t.data) {
    switch (*type) {
      case ElemType::F32: {
        std::uint32_t u;
        std::memcpy(&u, &v, 4);
        put_le32(out, u);
        break;
      }
      case ElemType::F16:
        put_le16(out, float_to_half(v));
        break;
      case ElemType::F64: {
        const double d = v;
        std::uint64_t u;
        std::memcpy(&u, &d, 8);
        put_le64(out, u);
        break;
      }
      case ElemType::I8:
        out.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(integral(v, -128, 127))));
        break;
      case ElemType::U8:
        out.push_back(static_cast<std::uint8_t>(integral(v, 0, 255)));
        break;
      case ElemType::I32:
        put_le32(out, static_cast<std::uint32_t>(
                          static_cast<std::int32_t>(integral(v, -2147483648.0, 2147483647.0))));
        break;
      default:
        break;
    }
  }
  return out;
}

void save_npy(const std::string& path, const Tensor& t, const std::string& dtype) {
  // Through a temporary and a rename: a failed run once truncated the previous run's files.
  const auto bytes = encode_npy(t, dtype);
  write_atomically(path, bytes.data(), bytes.size());
}

}  // namespace stcsim::workloads
