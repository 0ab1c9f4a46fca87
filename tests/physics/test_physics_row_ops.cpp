// Timing physics of the row-op kernel (models/kernels/row_op_kernel.cpp: softmax, norms,
// activations, residual adds, embedding lookups on the CUDA cores) on the A100 preset:
// every op reads its inputs from DRAM once and is bound by DRAM bandwidth, never above
// the HBM's peak; more elements never take less time; a causal softmax moves about half
// the bytes of a full one.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

constexpr double kA100DramGBps = 1555, kA100Efficiency = 0.92;  // models/presets/a100.yaml

// One op per line of `ops` ("<name> m=.. n=.. k=1 [batch=..] row_op=.. [causal=output]").
nlohmann::json run_ops(const std::vector<std::string>& ops) {
  const std::string path = temp_dir("row_ops") + "/rows.trace";
  std::ofstream f(path);
  f << "stcsim-trace 1\nmodel rows\nsynthetic true\ndtype fp16\nops " << ops.size() << "\n";
  for (const auto& o : ops) f << "op " << o << "\n";
  f.close();
  return run_stats("--arch a100 --no-memo --trace " + path);
}

}  // namespace

TEST_CASE("physics_row_ops_f16_are_bound_by_dram_bandwidth", "[physics][row_op]") {
  const auto j =
      run_ops({"ln m=8192 n=4096 k=1 row_op=layernorm", "rms m=8192 n=4096 k=1 row_op=rmsnorm",
               "gelu m=8192 n=4096 k=1 row_op=gelu", "silu m=8192 n=4096 k=1 row_op=silu_mul",
               "add m=8192 n=4096 k=1 row_op=add", "emb m=8192 n=4096 k=1 row_op=embedding",
               "sm m=1024 n=1024 k=1 batch=32 row_op=softmax"});
  for (const auto& op : j["ops"]) {
    const std::string name = op["name"];
    const int inputs = (name == "silu" || name == "add") ? 2 : 1;
    const double tensor = 2.0 * 8192 * 4096;  // = 32 x 1024 x 1024 fp16 too
    INFO(name << ": reads " << op["dram_read_bytes"] << " B in " << op["seconds"] << " s, "
              << op["dram_gbps"] << " GB/s");
    CHECK(op["row_op"]["kind"].get<std::string>().size() > 0);
    CHECK(op["flops"] == 0);
    CHECK(op["limiter"] == "dram");
    // Every input byte from DRAM once (a norm's weights stay in the L2), no more.
    const double reads = op["dram_read_bytes"];
    CHECK(reads >= inputs * tensor);
    CHECK(reads <= inputs * tensor * 1.01);
    CHECK(op["row_op"]["compulsory_bytes"].get<double>() >= (inputs + 1) * tensor);
    // Within the HBM's peak, and near its sustained rate.
    CHECK(op["dram_gbps"].get<double>() <= kA100DramGBps);
    CHECK(op["dram_gbps"].get<double>() >= 0.85 * kA100DramGBps * kA100Efficiency);
  }
}

TEST_CASE("physics_row_ops_f16_more_rows_never_faster", "[physics][row_op]") {
  std::vector<std::string> ops;
  for (int m : {64, 256, 1024, 4096, 16384})
    ops.push_back("ln" + std::to_string(m) + " m=" + std::to_string(m) +
                  " n=768 k=1 row_op=layernorm");
  const auto j = run_ops(ops);
  for (std::size_t i = 1; i < j["ops"].size(); ++i) {
    INFO(j["ops"][i]["name"]);
    CHECK(j["ops"][i]["cycles"].get<double>() >= j["ops"][i - 1]["cycles"].get<double>());
  }
  // 4x the rows, once the GPU is full: close to 4x the time.
  const double r = j["ops"][4]["cycles"].get<double>() / j["ops"][3]["cycles"].get<double>();
  CHECK(r > 3.0);
  CHECK(r < 4.5);
}

TEST_CASE("physics_row_ops_f16_causal_softmax_moves_half_the_bytes", "[physics][row_op]") {
  const auto j = run_ops({"full m=2048 n=2048 k=1 batch=16 row_op=softmax",
                          "causal m=2048 n=2048 k=1 batch=16 row_op=softmax causal=output"});
  const auto &full = j["ops"][0], &causal = j["ops"][1];
  const double kept = 2048.0 * 2049 / 2 / (2048.0 * 2048);
  CHECK(causal["row_op"]["elements"].get<double>() == 16 * 2048.0 * 2049 / 2);
  CHECK(causal["dram_read_bytes"].get<double>() ==
        Approx(full["dram_read_bytes"].get<double>() * kept).epsilon(0.01));
  const double t = causal["cycles"].get<double>() / full["cycles"].get<double>();
  CHECK(t > 0.4);
  CHECK(t < 0.6);
}
