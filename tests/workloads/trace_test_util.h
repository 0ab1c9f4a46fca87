// Scratch folders and small traces for the trace tests.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "workloads/layer.h"

namespace stcsim::workloads::testing {

// A fresh folder under the system temp dir, removed when the object goes.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("stcsim_wl_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// A model with weights: Linear 64x128, Linear 48x64 (k = 64 -> 2:4 ptx16), a grouped
// conv (4 groups, 3x3; K = 36 -> 2:4 index8 metadata) and a Linear 30x13 (K = 13: stays
// dense under N:M). Weights Gaussian, nonzero, from a fixed seed.
inline Model small_weighted_model() {
  Model m;
  m.name = "small";
  m.real_weights = true;
  m.source = "test fixture";
  auto add = [&](Layer l, std::vector<std::int64_t> shape) {
    l.weight = l.name + ".weight";
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::mt19937 rng(unsigned(m.layers.size() + 1));
    std::normal_distribution<float> nd(0.0f, 0.1f);
    Tensor t{l.weight, shape, std::vector<float>(std::size_t(n)), "float32"};
    for (auto& v : t.data) {
      do v = nd(rng);
      while (v == 0.0f);
    }
    m.weights[l.weight] = t;
    m.layers.push_back(l);
  };
  Layer a;
  a.name = "fc1";
  a.in_features = 128;
  a.out_features = 64;
  add(a, {64, 128});
  Layer b;
  b.name = "fc2";
  b.in_features = 64;
  b.out_features = 48;
  add(b, {48, 64});
  Layer c;
  c.name = "gconv";
  c.kind = LayerKind::Conv2d;
  c.in_features = 16;
  c.out_features = 24;
  c.groups = 4;
  c.kernel_h = c.kernel_w = 3;
  c.padding = 1;
  c.in_h = c.in_w = 8;
  add(c, {24, 4, 3, 3});
  Layer d;
  d.name = "odd";
  d.in_features = 13;
  d.out_features = 30;
  add(d, {30, 13});
  return m;
}

}  // namespace stcsim::workloads::testing
