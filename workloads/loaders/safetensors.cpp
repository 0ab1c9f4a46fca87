#include "workloads/loaders/safetensors.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "workloads/loaders/byte_reader.h"
#include "workloads/loaders/element_types.h"
#include "workloads/loaders/json_depth.h"

namespace stcsim::workloads {
namespace {

using nlohmann::json;

std::optional<ElemType> st_dtype(const std::string& d) {
  static const std::pair<const char*, ElemType> kTypes[] = {
      {"F32", ElemType::F32},  {"F16", ElemType::F16}, {"BF16", ElemType::BF16},
      {"F64", ElemType::F64},  {"I8", ElemType::I8},   {"U8", ElemType::U8},
      {"I16", ElemType::I16},  {"I32", ElemType::I32}, {"I64", ElemType::I64},
      {"BOOL", ElemType::Bool}};
  for (const auto& [name, type] : kTypes)
    if (d == name) return type;
  return std::nullopt;
}

struct Entry {
  std::string name;
  ElemType type;
  std::vector<std::int64_t> shape;
  std::uint64_t begin, end, numel;
  std::uint64_t key_at;  // file offset of the entry's key, for errors
};

bool is_uint(const json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j >= 0); }

Entry parse_entry(const std::string& name, const json& v, const std::string& file,
                  std::uint64_t key_at) {
  const auto bad = [&](const std::string& what) {
    throw_at(file, key_at, "header entry '" + name + "': expected " + what);
  };
  if (!v.is_object()) bad("an object {dtype, shape, data_offsets}");
  for (const char* k : {"dtype", "shape", "data_offsets"})
    if (!v.contains(k)) bad(std::string("the key '") + k + "'");
  if (!v["dtype"].is_string()) bad("dtype as a string");
  const auto type = st_dtype(v["dtype"].get<std::string>());
  if (!type)
    bad("dtype one of F32 F16 BF16 F64 I8 U8 I16 I32 I64 BOOL, not '" +
        v["dtype"].get<std::string>() + "'");
  Entry e{name, *type, {}, 0, 0, 0, key_at};
  if (!v["shape"].is_array()) bad("shape as an array of non-negative integers");
  for (const auto& d : v["shape"]) {
    if (!is_uint(d)) bad("shape as an array of non-negative integers");
    e.shape.push_back(d.get<std::int64_t>());
  }
  const json& off = v["data_offsets"];
  if (!off.is_array() || off.size() != 2 || !is_uint(off[0]) || !is_uint(off[1]))
    bad("data_offsets as [begin, end], non-negative integers");
  e.begin = off[0].get<std::uint64_t>();
  e.end = off[1].get<std::uint64_t>();
  if (e.end < e.begin) bad("data_offsets with begin <= end");
  e.numel = checked_numel(e.shape, elem_size(*type), file, key_at, "header entry '" + name + "'");
  if (e.end - e.begin != e.numel * elem_size(*type))
    bad("data_offsets spanning " + std::to_string(e.numel * elem_size(*type)) + " bytes for " +
        v["dtype"].get<std::string>() + " " + shape_string(e.shape) + ", they span " +
        std::to_string(e.end - e.begin));
  return e;
}

}  // namespace

std::vector<Tensor> parse_safetensors(const std::vector<std::uint8_t>& bytes,
                                      const std::string& file,
                                      std::map<std::string, std::string>* metadata) {
  ByteReader r(bytes.data(), bytes.size(), file);
  const std::uint64_t n = r.u64("the header length");
  if (n > r.remaining())
    throw_at(file, 0,
             "header length " + std::to_string(n) + " runs past the end of the file (" +
                 std::to_string(r.remaining()) + " bytes follow)");
  const std::string text(reinterpret_cast<const char*>(r.take(n, "header")), n);
  check_json_depth(text, file, 8);
  json header;
  try {
    header = json::parse(text);
  } catch (const json::parse_error& e) {
    throw_at(file, 8 + (e.byte ? e.byte - 1 : 0),
             std::string("expected a JSON header: ") + e.what());
  } catch (const json::exception& e) {  // out_of_range: a number beyond a double (1e999)
    throw_at(file, 8, std::string("expected a JSON header: ") + e.what());
  }
  if (!header.is_object()) throw_at(file, 8, "expected the JSON header to be an object");

  std::vector<Entry> entries;
  for (const auto& [name, v] : header.items()) {
    const std::size_t at = text.find(json(name).dump());
    const std::uint64_t key_at = 8 + (at == std::string::npos ? 0 : at);
    if (name == "__metadata__") {
      if (!v.is_object())
        throw_at(file, key_at, "expected __metadata__ to be an object of strings");
      for (const auto& [k, s] : v.items()) {
        if (!s.is_string())
          throw_at(file, key_at, "expected __metadata__ value of '" + k + "' to be a string");
        if (metadata) (*metadata)[k] = s.get<std::string>();
      }
      continue;
    }
    entries.push_back(parse_entry(name, v, file, key_at));
  }
  // The buffer must be tiled exactly, in offset order.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  const std::uint64_t data_at = 8 + n, size = r.remaining();
  std::uint64_t covered = 0;
  for (const auto& e : entries) {
    if (e.begin < covered)
      throw_at(file, e.key_at,
               "header entry '" + e.name + "': data_offsets [" + std::to_string(e.begin) + ", " +
                   std::to_string(e.end) + ") overlap the previous tensor, which ends at " +
                   std::to_string(covered));
    if (e.begin > covered)
      throw_at(file, e.key_at,
               "header entry '" + e.name + "': data_offsets begin at " + std::to_string(e.begin) +
                   ", leaving bytes [" + std::to_string(covered) + ", " + std::to_string(e.begin) +
                   ") of the buffer unused");
    if (e.end > size)
      throw_at(file, data_at + std::min(e.begin, size),
               "header entry '" + e.name + "': data_offsets end at " + std::to_string(e.end) +
                   " but the buffer after the header holds only " + std::to_string(size) +
                   " bytes");
    covered = e.end;
  }
  if (covered != size)
    throw_at(file, data_at + covered,
             "expected the end of the file after the last tensor; " +
                 std::to_string(size - covered) + " bytes are not indexed");
  std::vector<Tensor> out;
  for (const auto& e : entries) {
    Tensor t;
    t.name = e.name;
    t.shape = e.shape;
    t.stored_dtype = stored_name(e.type);
    t.data.resize(e.numel);
    decode_elements(e.type, bytes.data() + data_at + e.begin, e.numel, t.data.data());
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Tensor> load_safetensors(const std::string& path,
                                     std::map<std::string, std::string>* metadata) {
  return parse_safetensors(read_file_bytes(path), path, metadata);
}

}  // namespace stcsim::workloads
