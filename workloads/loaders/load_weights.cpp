#include "workloads/loaders/load_weights.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sim/core/input_error.h"
#include "workloads/loaders/npy.h"
#include "workloads/loaders/onnx.h"
#include "workloads/loaders/safetensors.h"
#include "workloads/loaders/tfjs.h"

namespace stcsim::workloads {

static bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

namespace {

// "fc2" before "fc10": runs of digits compare as numbers, the rest byte by byte, so a
// folder of per-layer files keeps the network's order.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie, j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j || (a.size() - i == b.size() - j && a < b);
}

// Every *.npy under a folder (subfolders included), in natural order of the path; each
// tensor named by its path inside the folder less ".npy" ("encoder/fc1.weight").
std::vector<Tensor> load_npy_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> rel;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  if (ec) throw InputError(dir + ": cannot list the folder: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw InputError(dir + ": cannot list the folder: " + ec.message());
    if (it->is_regular_file() && it->path().extension() == ".npy")
      rel.push_back(fs::relative(it->path(), dir).generic_string());
  }
  if (rel.empty())
    throw InputError(dir + ": a weight folder must hold .npy files (one tensor each); it has none");
  std::sort(rel.begin(), rel.end(), natural_less);
  std::vector<Tensor> out;
  for (const auto& r : rel) {
    Tensor t = load_npy((fs::path(dir) / r).string()).at(0);
    t.name = r.substr(0, r.size() - 4);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

std::vector<Tensor> load_weights(const std::string& path) {
  // By extension first: a folder named like a weight file ("x.npy/") is refused by that
  // file's loader ("is a directory"); any other folder is read as .npy files.
  if (ends_with(path, ".npy")) return load_npy(path);
  if (ends_with(path, ".safetensors")) return load_safetensors(path);
  if (ends_with(path, ".onnx")) return load_onnx_weights(path);
  if (ends_with(path, ".json")) return load_tfjs_weights(path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return load_npy_folder(path);
  throw InputError(path +
                   ": unknown weight file type; expected .npy, .safetensors, .onnx, "
                   ".json (TF.js model.json or weights manifest) or a folder of .npy files");
}

}  // namespace stcsim::workloads
