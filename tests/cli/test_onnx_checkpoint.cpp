// A user's .onnx checkpoint (issue 16): PaddleOCR's direction classifier, from the same
// fetched package as ppocrv4_rec, is lowered node by node: its convolutions become conv
// ops with their geometry, its classifier a Linear layer of one token per sample, and
// the dynamic input size it was lowered at is said on stderr.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// A float32 .npy of zeros with the given 2-D shape, written as numpy 1.x writes it.
// A float32 .npy of `rows` x `cols` holding `values` (row-major; zeros when empty).
void write_npy(const std::string& path, int rows, int cols, const std::vector<float>& values) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  const char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
  f.write(len, 2);
  f << header;
  std::vector<float> v = values;
  v.resize(std::size_t(rows) * cols, 0.0f);
  f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
}

void write_npy_zeros(const std::string& path, int rows, int cols) {
  write_npy(path, rows, cols, {});
}

}  // namespace

TEST_CASE("onnx_checkpoint_lowers_its_convolutions", "[cli][onnx]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  using namespace stcsim::workloads;
  const std::string onnx = package_dir(real_model_info("ppocrv4_rec"), default_cache_dir()) +
                           "/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx";
  const std::string trace = temp_dir("onnx_checkpoint") + "/cls.trace";
  const ProcResult r =
      run_stcsim("trace --model " + onnx + " --out " + trace + " --no-payload --batch 2");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("stcsim: note: ch_ppocr_mobile_v2.0_cls_infer: input 'x'") != std::string::npos);
  CHECK(r.err.find("dynamic height or width: lowered at 224x224") != std::string::npos);
  std::ifstream in(trace);
  std::string line;
  int ops = 0, convs = 0;
  std::string last;
  while (std::getline(in, line))
    if (line.rfind("op ", 0) == 0) {
      ++ops;
      convs += line.find(" conv=") != std::string::npos;
      last = line;
    }
  // Every Conv node (53) and the fully connected classifier: nothing dropped.
  CHECK(ops == 54);
  CHECK(convs == 53);
  CHECK(last.find("op fc_0 m=2 n=2 k=200 ") == 0);  // two samples, one token each
}

TEST_CASE("checkpoint_tokens_set_m_and_the_run_says_so", "[cli][checkpoint]") {
  // A weight file without a graph: its 2-D tensor is a sequence Linear layer, M = batch x
  // tokens (128 by default, --tokens to change), and the run states that M on stderr.
  const std::string dir = temp_dir("tokens");
  const std::string npy = dir + "/mlp.npy";
  write_npy_zeros(npy, 64, 32);
  const ProcResult by_default = run_stcsim("run --model " + npy + " --batch 16");
  INFO(by_default.err);
  REQUIRE(by_default.status == 0);
  CHECK(by_default.err.find("M = batch x tokens = 16 x 128 = 2048 (--batch, --tokens)") !=
        std::string::npos);
  CHECK(by_default.out.find("2048x64x32") != std::string::npos);
  const ProcResult one = run_stcsim("run --model " + npy + " --batch 16 --tokens 1");
  INFO(one.err);
  REQUIRE(one.status == 0);
  CHECK(one.err.find("= 16 x 1 = 16 ") != std::string::npos);
  CHECK(one.out.find("16x64x32") != std::string::npos);
}

TEST_CASE("checkpoint_folder_of_npy_files_runs_its_layers_in_order", "[cli][checkpoint]") {
  // One .npy per tensor, as `numpy.save` of each state-dict entry writes them: the 2-D
  // ones run as Linear layers in natural order (fc2 before fc10), the 1-D bias does not.
  const std::string dir = temp_dir("npy_folder") + "/mlp/";
  std::filesystem::create_directories(dir);
  write_npy_zeros(dir + "fc10.weight.npy", 16, 64);
  write_npy_zeros(dir + "fc2.weight.npy", 64, 128);
  write_npy_zeros(dir + "fc1.weight.npy", 128, 32);
  {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (128,), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream f(dir + "fc1.bias.npy", std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
    f.write(len, 2);
    f << header << std::string(128 * 4, '\0');
  }
  const ProcResult r = run_stcsim("run --model " + dir + " --batch 2 --tokens 4");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("stcsim: mlp: 3 sequence layer(s) at M = batch x tokens = 2 x 4 = 8") !=
        std::string::npos);
  const auto a = r.out.find("8x128x32"), b = r.out.find("8x64x128"), c = r.out.find("8x16x64");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  REQUIRE(c != std::string::npos);
  CHECK((a < b && b < c));
  // A folder without .npy files is refused by name.
  const std::string empty = temp_dir("npy_folder_empty");
  const ProcResult e = run_stcsim("run --model " + empty);
  CHECK(e.status == 2);
  CHECK(e.err.find("a weight folder must hold .npy files") != std::string::npos);
}

TEST_CASE("checkpoint_weight_layout_in_out_reads_paddle_and_keras_weights", "[cli][checkpoint]") {
  // Paddle's nn.Linear and Keras' Dense store W as [in, out]: the same MLP as above, stored
  // that way, runs the same GEMMs with --weight-layout in_out.
  const std::string dir = temp_dir("npy_in_out") + "/mlp/";
  std::filesystem::create_directories(dir);
  write_npy_zeros(dir + "fc1.weight.npy", 32, 128);
  write_npy_zeros(dir + "fc2.weight.npy", 128, 64);
  write_npy_zeros(dir + "fc3.weight.npy", 64, 16);
  const ProcResult r =
      run_stcsim("run --model " + dir + " --batch 2 --tokens 4 --weight-layout in_out");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto a = r.out.find("8x128x32"), b = r.out.find("8x64x128"), c = r.out.find("8x16x64");
  CHECK((a != std::string::npos && b != std::string::npos && c != std::string::npos));
  // The values are transposed, not only the shape: W[i][o] = 4 i + o + 1 stored [in 3, out
  // 4] becomes the [out, in] rows (1, 5, 9), (2, 6, 10), ... in the trace's payload.
  const std::string one = temp_dir("npy_in_out_values") + "/w/";
  std::filesystem::create_directories(one);
  std::vector<float> w;
  for (int i = 0; i < 3; ++i)
    for (int o = 0; o < 4; ++o) w.push_back(float(4 * i + o + 1));
  write_npy(one + "fc.weight.npy", 3, 4, w);
  const std::string trace = temp_dir("npy_in_out_trace") + "/w.trace";
  // block:1x1@0 keeps every value and writes them in row order (fp16).
  const ProcResult t = run_stcsim("trace --model " + one +
                                  " --weight-layout in_out --prune block:1x1@0 --out " + trace);
  INFO(t.err);
  REQUIRE(t.status == 0);
  std::ifstream text(trace);
  const std::string header((std::istreambuf_iterator<char>(text)), {});
  INFO(header);
  REQUIRE(header.find("m=128 n=4 k=3") != std::string::npos);
  REQUIRE(header.find("values=0:24 values_dtype=fp16") != std::string::npos);
  std::ifstream in(trace + ".bin", std::ios::binary);
  std::vector<std::uint16_t> half(12);
  in.read(reinterpret_cast<char*>(half.data()), 24);
  // fp16 of 1, 5, 9, 2, 6, 10: the first two rows of W as [out, in].
  CHECK(std::vector<std::uint16_t>(half.begin(), half.begin() + 6) ==
        std::vector<std::uint16_t>{0x3C00, 0x4500, 0x4880, 0x4000, 0x4600, 0x4900});
  // A graph says how it uses its weights; the option is refused there, and a bad value too.
  const ProcResult zoo = run_stcsim("run -q --model bert_base --weight-layout in_out");
  CHECK(zoo.status == 2);
  CHECK(zoo.err.find("--weight-layout in_out: 'bert_base' is a zoo model") != std::string::npos);
  const ProcResult bad = run_stcsim("run -q --model " + dir + " --weight-layout io");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--weight-layout: expected out_in (PyTorch) or in_out") != std::string::npos);
}
