// Timing physics of the depthwise convolution kernel on the CUDA cores
// (models/kernels/depthwise_conv.cpp, docs/conv.md) on the A100 preset: DRAM traffic
// between the compulsory bytes and a small multiple of them, never above the CUDA
// cores' FMA peak, more work never faster, and `auto` choosing it for depthwise ops.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// A trace of one fp16 depthwise 3x3 conv (stride 1, pad 1) over `images` NHWC images of
// h x w x `channels`, with its geometry (conv=) or without it (a plain grouped GEMM).
std::string depthwise_trace(int images, int h, int w, int channels, bool with_conv = true,
                            const std::string& window = "3x3", int k = 9) {
  const std::string dir = temp_dir("depthwise");
  const std::string path = dir + "/dw.trace";
  std::ofstream f(path);
  f << "stcsim-trace 1\nmodel dw\nsynthetic true\ndtype fp16\nops 1\n"
    << "op dw m=" << images * h * w << " n=1 k=" << k << " batch=" << channels << " sparsity=dense";
  if (with_conv)
    f << " conv=" << h << "x" << w << ":" << window << ":s1:p" << (k == 25 ? 2 : 1) << ":d1";
  f << "\n";
  return path;
}

nlohmann::json dw_op(const std::string& trace, const std::string& extra = "") {
  return run_stats("--arch a100 --trace " + trace + extra)["ops"][0];
}

}  // namespace

TEST_CASE("physics_depthwise_f16_dram_bytes_between_compulsory_and_1_5x", "[physics][depthwise]") {
  for (const auto& [c, window, k] :
       {std::tuple{64, "3x3", 9}, std::tuple{240, "5x5", 25}, std::tuple{16, "3x3", 9}}) {
    const int images = 8, h = 24, w = 40;
    const auto op = dw_op(depthwise_trace(images, h, w, c, true, window, k));
    REQUIRE(op.contains("depthwise"));
    const double input = 2.0 * images * h * w * c, filter = 2.0 * k * c,
                 output = 2.0 * images * h * w * c;
    CHECK(op["depthwise"]["compulsory_bytes"].get<double>() == input + filter + output);
    const double reads = op["dram_read_bytes"], writes = op["dram_write_bytes"];
    INFO("channels " << c << " window " << window << ": DRAM reads " << reads << " writes "
                     << writes << ", input " << input << " filter " << filter << " output "
                     << output);
    // Every input and filter byte comes from DRAM once (the op's tensors are new to the
    // L2); the output may stay in the L2, whose write-back is not forced.
    CHECK(reads >= input + filter);
    // No im2col: the halo overlap between neighbouring rows is served by the L1 and the
    // L2, not re-read from DRAM.
    CHECK(reads + writes <= 1.5 * (input + filter + output));
  }
}

TEST_CASE("physics_depthwise_f16_never_exceeds_cuda_core_peak", "[physics][depthwise]") {
  for (int c : {16, 64, 256}) {
    const auto op = dw_op(depthwise_trace(8, 32, 32, c));
    INFO("channels " << c << " cycles " << op["cycles"] << " tflops " << op["tflops"]);
    // One FMA per product over the CUDA cores' FP32 lanes: 108 SMs x 64 lanes x 1.41 GHz.
    CHECK(op["cycles"].get<double>() >= op["products"].get<double>() / (108.0 * 64.0));
    CHECK(op["peak_tflops"].get<double>() == Approx(2 * 108 * 64 * 1.41e9 / 1e12));
    CHECK(op["tflops"].get<double>() <= op["peak_tflops"].get<double>());
    CHECK(op["utilization"]["cuda_cores"].get<double>() <= 1.0);
    CHECK(op["utilization"]["tensor"].get<double>() == 0.0);
  }
}

TEST_CASE("physics_depthwise_f16_more_work_never_takes_less_time", "[physics][depthwise]") {
  double prev = 0;
  for (int images : {1, 2, 4, 8, 16}) {
    const double cyc = dw_op(depthwise_trace(images, 32, 32, 64))["cycles"];
    INFO(images << " images: " << cyc << " cycles, previous " << prev);
    CHECK(cyc >= prev);
    prev = cyc;
  }
  // Channels at a size that fills every SM from the smallest case on (108 CTAs of 1024
  // threads x 3 passes at 32 channels): below that, the op is a handful of CTAs whose
  // time is their load latency, not their work.
  prev = 0;
  for (int c : {32, 64, 128, 256, 512}) {
    const double cyc = dw_op(depthwise_trace(8, 32, 32, c))["cycles"];
    INFO(c << " channels: " << cyc << " cycles, previous " << prev);
    CHECK(cyc >= prev);
    prev = cyc;
  }
  // A 5x5 window does more per output than a 3x3 one over the same tensors.
  const double three = dw_op(depthwise_trace(8, 24, 40, 240))["cycles"];
  const double five = dw_op(depthwise_trace(8, 24, 40, 240, true, "5x5", 25))["cycles"];
  CHECK(five >= three);
}

TEST_CASE("physics_depthwise_f16_auto_picks_the_cuda_core_kernel", "[physics][depthwise]") {
  const std::string trace = depthwise_trace(8, 32, 32, 64);
  const auto op = dw_op(trace);
  CHECK(op["depthwise"]["kernel"] == "direct NHWC depthwise convolution on CUDA cores");
  CHECK(op["depthwise"]["threads_per_cta"] == 1024);
  CHECK(op["instruction"] == "fp32 FMA (CUDA cores)");
  CHECK(op["mapping"]["chosen_by"].get<std::string>().find("TensorFlow") != std::string::npos);
  // Named explicitly, the same run.
  CHECK(dw_op(trace, " -p mapping.kernel=depthwise_conv")["cycles"] == op["cycles"]);
  // As `groups` GEMMs of N = 1 on the tensor cores (the lowering's view) it is another,
  // far slower, kernel; without its geometry the op is only a GEMM.
  const auto gemm = dw_op(trace, " -p mapping.kernel=multistage_gemm");
  CHECK_FALSE(gemm.contains("depthwise"));
  CHECK(gemm["cycles"].get<double>() > 2 * op["cycles"].get<double>());
  CHECK_FALSE(dw_op(depthwise_trace(8, 32, 32, 64, false)).contains("depthwise"));
  const auto r =
      run_stcsim("run --arch a100 --gemm 512x512x512 -p mapping.kernel=depthwise_conv -q");
  CHECK(r.status != 0);
  CHECK(r.err.find("needs the op's convolution shape") != std::string::npos);
}

TEST_CASE("physics_depthwise_ppocrv4_depthwise_layers_run_on_cuda_cores", "[physics][depthwise]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  const auto s = run_stats("--arch a100 --model ppocrv4_rec --batch 1 --prune dense,2:4 --no-memo");
  int depthwise = 0;
  for (const auto& op : s["ops"]) {
    // Depthwise: one channel per group (N = 1, K = R x S) over many groups.
    const bool dw = op["n"] == 1 && op["batch"].get<int>() > 1;
    INFO(op["name"]);
    CHECK(op.contains("depthwise") == dw);
    if (!dw) continue;
    ++depthwise;
    CHECK(op["sparsity"] == "dense");  // pruning leaves depthwise layers dense
    CHECK(op["utilization"]["tensor"].get<double>() == 0.0);
  }
  CHECK(depthwise == 2 * 14);  // 14 depthwise layers in each of the two variants
}
