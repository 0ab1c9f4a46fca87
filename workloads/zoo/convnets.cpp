// ResNet-50 (torchvision v1.5) and the DLRM MLPs.
#include <vector>

#include "workloads/zoo/zoo_layers.h"

namespace stcsim::workloads::zoo_detail {

Model resnet50() {
  Model m;
  m.name = "resnet50";
  m.layers.push_back(conv("resnet50.conv1", 3, 64, 7, 2, 3, 224));  // -> 112, max-pool -> 56
  struct Stage {
    int blocks;
    std::int64_t width, stride;
  };
  const Stage stages[] = {{3, 64, 1}, {4, 128, 2}, {6, 256, 2}, {3, 512, 2}};
  std::int64_t in_ch = 64, size = 56;
  for (int s = 0; s < 4; ++s) {
    const std::int64_t w = stages[s].width, out_ch = 4 * w;
    for (int b = 0; b < stages[s].blocks; ++b) {
      const std::string p =
          "resnet50.layer" + std::to_string(s + 1) + "." + std::to_string(b) + ".";
      const std::int64_t stride = b == 0 ? stages[s].stride : 1;
      // Bottleneck in torchvision's forward order: conv1, conv2 (strided), conv3, downsample.
      m.layers.push_back(conv(p + "conv1", in_ch, w, 1, 1, 0, size));
      m.layers.push_back(conv(p + "conv2", w, w, 3, stride, 1, size));
      m.layers.push_back(conv(p + "conv3", w, out_ch, 1, 1, 0, size / stride));
      if (b == 0) m.layers.push_back(conv(p + "downsample", in_ch, out_ch, 1, stride, 0, size));
      in_ch = out_ch;
      size /= stride;
    }
  }
  m.layers.push_back(linear("resnet50.fc", 2048, 1000, 1, 1));  // after global average pool
  m.description =
      "ResNet-50 at 224x224: 53 convolutions (1x1, 3x3, 7x7; strided and "
      "downsample) and the 1000-class fc (shapes only)";
  m.source =
      "shapes only: He et al. 2016, ResNet (arXiv:1512.03385) Table 1, 50-layer; "
      "torchvision resnet50 (v1.5, stride on the 3x3; 25,557,032 parameters)";
  return m;
}

namespace {

// An MLP "a-b-c-..." on one vector per sample.
void mlp(Model& m, const std::string& prefix, const std::vector<std::int64_t>& dims) {
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    m.layers.push_back(linear(prefix + std::to_string(i), dims[i], dims[i + 1], 1, 1));
}

}  // namespace

Model dlrm_mlperf() {
  Model m;
  m.name = "dlrm_mlperf";
  // 26 sparse features of dimension 128 and the bottom MLP's output: 27 vectors whose
  // 27*26/2 = 351 pairwise dot products, with the 128 dense outputs, feed the top MLP.
  mlp(m, "dlrm_mlperf.bot_l.", {13, 512, 256, 128});
  mlp(m, "dlrm_mlperf.top_l.", {479, 1024, 1024, 512, 256, 1});
  m.description =
      "DLRM MLPs, MLPerf Training config (Criteo Terabyte): bottom 13-512-256-128, "
      "top 479-1024-1024-512-256-1 (shapes only; embeddings are not GEMMs)";
  m.source =
      "shapes only: Naumov et al. 2019, DLRM (arXiv:1906.00091); facebookresearch/dlrm "
      "bench/run_and_time.sh (--arch-mlp-bot 13-512-256-128 --arch-mlp-top "
      "1024-1024-512-256-1 --arch-sparse-feature-size 128; dlrm_s_pytorch.py prepends "
      "the interaction size 27*26/2+128 = 479)";
  return m;
}

Model dlrm_kaggle() {
  Model m;
  m.name = "dlrm_kaggle";
  mlp(m, "dlrm_kaggle.bot_l.", {13, 512, 256, 64, 16});
  mlp(m, "dlrm_kaggle.top_l.", {367, 512, 256, 1});
  m.description =
      "DLRM MLPs, Criteo Kaggle config: bottom 13-512-256-64-16, top 367-512-256-1 "
      "(shapes only)";
  m.source =
      "shapes only: Naumov et al. 2019, DLRM (arXiv:1906.00091); facebookresearch/dlrm "
      "bench/dlrm_s_criteo_kaggle.sh (--arch-mlp-bot 13-512-256-64-16 --arch-mlp-top "
      "512-256-1 --arch-sparse-feature-size 16; top input 27*26/2+16 = 367)";
  return m;
}

}  // namespace stcsim::workloads::zoo_detail
