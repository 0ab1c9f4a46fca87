// The weightsManifest: groups of {paths: [shard files], weights: [{name, shape, dtype,
// quantization?}]}; each group's shards are one byte stream, read in weight order.
#include <cmath>

#include "sim/core/input_file.h"
#include "sim/core/memory_limit.h"
#include "workloads/loaders/byte_reader.h"
#include "workloads/loaders/element_types.h"
#include "workloads/loaders/path_inside.h"
#include "workloads/loaders/tfjs_internal.h"

namespace stcsim::workloads::tfjs_detail {
namespace {

using nlohmann::json;

// One group's shards, concatenated, remembering where each file starts so that errors
// name the shard and the offset inside it.
struct ShardStream {
  std::vector<std::uint8_t> bytes;
  std::vector<std::pair<std::string, std::uint64_t>> starts;  // (file, offset in bytes)
  std::string manifest_file;  // named when the group lists no shard at all

  // (file, offset in file) of stream position p; past the end: the last file's end.
  std::pair<std::string, std::uint64_t> locate(std::uint64_t p) const {
    for (std::size_t i = starts.size(); i-- > 0;)
      if (p >= starts[i].second) return {starts[i].first, p - starts[i].second};
    return {manifest_file + " (its group lists no shard files)", p};
  }
};

struct WeightSpec {
  std::string name;
  std::vector<std::int64_t> shape;
  std::string dtype;  // float32, int32, bool
  std::string quant;  // "", uint8, uint16, float16
  double scale = 1, min = 0;
};

WeightSpec parse_spec(const json& w, const JsonSource& src, const std::string& path) {
  WeightSpec s;
  if (!w.is_object() || !w.contains("name") || !w["name"].is_string())
    src.fail(path, "expected an object with a string \"name\"");
  s.name = w["name"].get<std::string>();
  const std::string near = s.name;
  if (!w.contains("shape") || !w["shape"].is_array())
    src.fail(path + ".shape", "expected an array of non-negative integers", near);
  for (const auto& d : w["shape"]) {
    if (!d.is_number_integer() || d.get<std::int64_t>() < 0)
      src.fail(path + ".shape", "expected an array of non-negative integers", near);
    s.shape.push_back(d.get<std::int64_t>());
  }
  s.dtype = w.value("dtype", std::string("float32"));
  if (s.dtype != "float32" && s.dtype != "int32" && s.dtype != "bool")
    src.fail(path + ".dtype", "expected float32, int32 or bool, not '" + s.dtype + "'", near);
  if (w.contains("quantization")) {
    const json& q = w["quantization"];
    if (!q.is_object() || !q.contains("dtype") || !q["dtype"].is_string())
      src.fail(path + ".quantization", "expected an object with a string dtype", near);
    s.quant = q["dtype"].get<std::string>();
    if (s.quant == "uint8" || s.quant == "uint16") {
      if (!q.contains("scale") || !q["scale"].is_number() || !q.contains("min") ||
          !q["min"].is_number())
        src.fail(path + ".quantization", "expected numbers scale and min for " + s.quant, near);
      s.scale = q["scale"].get<double>();
      s.min = q["min"].get<double>();
    } else if (s.quant != "float16") {
      src.fail(path + ".quantization.dtype",
               "expected uint8, uint16 or float16, not '" + s.quant + "'", near);
    }
  }
  return s;
}

ShardStream read_shards(const json& paths, const JsonSource& src, const std::string& dir,
                        const std::string& path) {
  if (!paths.is_array()) src.fail(path + ".paths", "expected an array of shard file names");
  ShardStream s;
  s.manifest_file = src.file;
  std::uint64_t total = 0;
  for (const auto& p : paths) {
    if (!p.is_string()) src.fail(path + ".paths", "expected an array of shard file names");
    const std::string name = p.get<std::string>();
    // Shards stay inside the model's folder (after symlinks); the error says where the
    // manifest names the offending path.
    path_inside(dir, name, src.file + ": byte " + std::to_string(src.offset_of(name)),
                path + ".paths: shard");
    const std::string file = dir + "/" + name;
    total += regular_file_size(file, "the file");
    admit_memory(total, path + ": its shards (" + std::to_string(total) + " bytes so far)");
    const auto bytes = read_file_bytes(file);
    s.starts.emplace_back(file, s.bytes.size());
    s.bytes.insert(s.bytes.end(), bytes.begin(), bytes.end());
  }
  return s;
}

Tensor decode_weight(const WeightSpec& w, const ShardStream& shards, std::uint64_t& pos) {
  const ElemType stored = w.quant == "uint8"     ? ElemType::U8
                          : w.quant == "uint16"  ? ElemType::U16
                          : w.quant == "float16" ? ElemType::F16
                          : w.dtype == "int32"   ? ElemType::I32
                          : w.dtype == "bool"    ? ElemType::Bool
                                                 : ElemType::F32;
  const auto [file, off] = shards.locate(pos);
  const std::uint64_t n =
      checked_numel(w.shape, elem_size(stored), file, off, "weight '" + w.name + "'");
  const std::uint64_t need = n * elem_size(stored);
  if (need > shards.bytes.size() - pos) {
    throw_at(file, off,
             "expected " + std::to_string(need) + " bytes for weight '" + w.name + "' (" +
                 stored_name(stored) + " " + shape_string(w.shape) + "), only " +
                 std::to_string(shards.bytes.size() - pos) + " left in the shards");
  }
  Tensor t;
  t.name = w.name;
  t.shape = w.shape;
  t.data.resize(n);
  decode_elements(stored, shards.bytes.data() + pos, n, t.data.data());
  pos += need;
  if (w.quant == "uint8" || w.quant == "uint16") {
    // TF.js dequantizes in double precision and stores into a Float32Array; int32
    // weights are rounded back to integers.
    for (auto& v : t.data) {
      const double d = static_cast<double>(v) * w.scale + w.min;
      v = static_cast<float>(w.dtype == "int32" ? std::round(d) : d);
    }
    t.stored_dtype = w.quant + "_affine";
  } else {
    t.stored_dtype = stored_name(stored);
  }
  return t;
}

}  // namespace

std::uint64_t JsonSource::offset_of(const std::string& needle) const {
  const std::size_t at = text.find("\"" + needle + "\"");
  return at == std::string::npos ? 0 : at;
}

void JsonSource::fail(const std::string& json_path, const std::string& what,
                      const std::string& near) const {
  throw_at(file,
           near.empty() ? offset_of(json_path.substr(0, json_path.find_first_of(".[")))
                        : offset_of(near),
           json_path + ": " + what);
}

std::vector<Tensor> read_manifest(const json& manifest, const JsonSource& src,
                                  const std::string& dir) {
  if (!manifest.is_array()) src.fail("weightsManifest", "expected an array of weight groups");
  std::vector<Tensor> out;
  for (std::size_t g = 0; g < manifest.size(); ++g) {
    const std::string path = "weightsManifest[" + std::to_string(g) + "]";
    const json& group = manifest[g];
    if (!group.is_object() || !group.contains("paths") || !group.contains("weights") ||
        !group["weights"].is_array())
      src.fail(path, "expected an object with arrays \"paths\" and \"weights\"");
    std::vector<WeightSpec> specs;
    for (std::size_t i = 0; i < group["weights"].size(); ++i)
      specs.push_back(
          parse_spec(group["weights"][i], src, path + ".weights[" + std::to_string(i) + "]"));
    const ShardStream shards = read_shards(group["paths"], src, dir, path);
    std::uint64_t pos = 0;
    for (const auto& s : specs) out.push_back(decode_weight(s, shards, pos));
    if (pos != shards.bytes.size()) {
      const auto [file, off] = shards.locate(pos);
      throw_at(file, off,
               "expected the end of the shards after the last weight of " + path + "; " +
                   std::to_string(shards.bytes.size() - pos) + " bytes are left over");
    }
  }
  return out;
}

}  // namespace stcsim::workloads::tfjs_detail
