// The command line contract: exit 0 on success, 2 with a message on stderr for a
// usage or input error; stats.json's required fields; listings; --help everywhere.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("cli_help_on_every_subcommand", "[cli]") {
  for (const char* sub : {"", "run", "presets", "components"}) {
    const auto r = run_stcsim(std::string(sub) + " --help");
    INFO(sub);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("Usage"));
  }
}

TEST_CASE("cli_version", "[cli]") {
  const auto r = run_stcsim("--version");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::StartsWith("stcsim 0."));
}

TEST_CASE("cli_stats_json_contract", "[cli]") {
  const auto j = run_stats("--arch a100 --gemm 1024x512x256 --gemm 256x256x256 --dtype bf16");
  for (const char* k : {"cycles", "seconds", "tflops", "limiter"}) {
    CHECK(j["total"].contains(k));
    for (const auto& op : j["ops"]) CHECK(op.contains(k));
  }
  REQUIRE(j["ops"].size() == 2);
  CHECK(j["ops"][0]["m"] == 1024);
  CHECK(j["ops"][0]["dtype"] == "bf16");
  CHECK(j["config"]["name"] == "a100");
  CHECK(j["config"]["hardware"]["dram"]["params"]["bandwidth_gbps"]["unit"] == "GB/s");
  CHECK(j["units"].contains("cycles"));
  const double sum = j["ops"][0]["cycles"].get<double>() + j["ops"][1]["cycles"].get<double>();
  CHECK(j["total"]["cycles"].get<double>() == Approx(sum));
}

TEST_CASE("cli_input_errors_exit_2_with_message", "[cli]") {
  const std::string bad_yaml = temp_dir("cfg") + "/bad.yaml";
  std::ofstream(bad_yaml) << "schema_version: 1\nbase: a100\nl2:\n  capacity_kb: 4\n";
  const std::pair<std::string, std::string> cases[] = {
      {"run --arch a100 --gemm 12x12", "MxNxK"},
      {"run --arch nope --gemm 8x8x8", "unknown preset"},
      {"run --arch a100 --gemm 8x8x8 --dtype fp12", "unknown dtype"},
      {"run --arch a100 --gemm 8x8x8 -p l2.capacity=5", "nearest valid key"},
      {"run --arch " + bad_yaml + " --gemm 8x8x8", "bad.yaml:4"},
      {"run --arch v100 --gemm 64x64x64 --dtype bf16", "no bf16 mma"},
      {"run --arch a100 --trace /no/such/file", "cannot open"},
      {"run --bogus-flag", ""},
      {"frobnicate", ""},
  };
  for (const auto& [args, msg] : cases) {
    const auto r = run_stcsim(args);
    INFO(args << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(!r.err.empty());
    if (!msg.empty()) CHECK_THAT(r.err, Catch::Contains(msg));
  }
}

TEST_CASE("cli_failed_run_keeps_previous_stats", "[cli]") {
  const std::string d = temp_dir("keep");
  REQUIRE(run_stcsim("run --arch a100 --gemm 256x256x256 -q --out " + d).status == 0);
  const auto before = std::filesystem::file_size(d + "/stats.json");
  CHECK(run_stcsim("run --arch a100 --gemm 256x256 -q --out " + d).status == 2);
  CHECK(std::filesystem::file_size(d + "/stats.json") == before);
}

TEST_CASE("cli_presets_and_components_list", "[cli]") {
  const auto p = run_stcsim("presets");
  CHECK(p.status == 0);
  for (const char* n : {"v100", "a100", "h100"}) CHECK_THAT(p.out, Catch::Contains(n));
  const auto c = run_stcsim("components");
  CHECK(c.status == 0);
  for (const char* k :
       {"tensor_core / mma_pipeline", "l2 / sectored_lru", "dram / hbm", "smem / banked",
        "mapping / multistage", "dram.bandwidth_gbps  [float, GB/s] required"})
    CHECK_THAT(c.out, Catch::Contains(k));
}

TEST_CASE("cli_trace_runs_and_vcd_is_written", "[cli]") {
  const std::string d = temp_dir("trace");
  std::ofstream(d + "/t.trace") << "stcsim-trace 0\n512x512x512 fp16 a\n256x1024x512 int8 b\n";
  const auto j = run_stats("--arch a100 --trace " + d + "/t.trace");
  REQUIRE(j["ops"].size() == 2);
  CHECK(j["ops"][1]["name"] == "b");
  CHECK(j["ops"][1]["dtype"] == "int8");
  const auto r = run_stcsim("run --arch a100 --gemm 256x256x256 -q --vcd " + d +
                            "/w.vcd --vcd-signals sm0.active_ctas,mem.inflight_requests");
  CHECK(r.status == 0);
  std::ifstream vcd(d + "/w.vcd");
  std::string text((std::istreambuf_iterator<char>(vcd)), {});
  CHECK_THAT(text, Catch::Contains("active_ctas"));
  CHECK(run_stcsim("run --arch a100 --gemm 256x256x256 -q --vcd " + d +
                   "/x.vcd --vcd-signals sm999.foo")
            .status == 2);
}

TEST_CASE("cli_default_run_prints_report", "[cli]") {
  const auto r = run_stcsim("run --arch a100");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("bert_base.qkv"));
  CHECK_THAT(r.out, Catch::Contains("total"));
  CHECK(r.err.empty());
}

TEST_CASE("cli_functional_mode_writes_npy_and_errors", "[cli]") {
  const std::string d = temp_dir("func");
  const auto r =
      run_stcsim("run --arch a100 --gemm 64x32x128 --sparsity 2:4 --functional -q --out " + d);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::ifstream in(d + "/stats.json");
  const auto j = nlohmann::json::parse(in);
  const auto& f = j["ops"][0]["functional"];
  CHECK(f["numerics"] == "a100");  // the A100 preset's tensor_core.numerics
  CHECK(f["max_error_in_ulps_of_abs_sum"].get<double>() < 64);
  for (const char* key : {"x_file", "w_file", "y_file"}) {
    const std::string path = f[key];
    CHECK(std::filesystem::file_size(path) > 128);
  }
  // y is 64 x 32 fp32: an .npy header plus 8 KiB of values.
  CHECK(std::filesystem::file_size(f["y_file"].get<std::string>()) >= 64 * 32 * 4);
  CHECK(run_stcsim("run --arch a100 --gemm 64x32x128 --functional -q").status == 2);  // needs --out
}

TEST_CASE("cli_models_lists_real_and_shapes_only", "[cli]") {
  const auto r = run_stcsim("models");
  CHECK(r.status == 0);
  for (const char* m : {"ppocrv4_rec", "resnet34_face", "mobilenetv1_faceres", "rdn_esrgan_thick"})
    CHECK_THAT(r.out, Catch::Contains(std::string(m) + "\treal weights"));
  for (const char* m :
       {"bert_base", "bert_large", "gpt2", "llama2_7b", "vit_b16", "resnet50", "dlrm_mlperf"})
    CHECK_THAT(r.out, Catch::Contains(std::string(m) + "\tshapes only"));
  // What each model covers, and what no model simulates.
  CHECK_THAT(r.out, Catch::Contains("gpt2\tshapes only\t147 ops: 49 linear, 24 attention "
                                    "(causal), 74 row ops"));
  CHECK_THAT(r.out, Catch::Contains("Not simulated: pooling"));
}

TEST_CASE("cli_trace_v1_written_then_run", "[cli]") {
  const std::string d = temp_dir("tv1");
  // A shapes-only model: synthetic trace with sparsity labels, no payload.
  const auto w =
      run_stcsim("trace --model bert_base --seq 128 --prune 2:4 --out " + d + "/bert.trace");
  INFO(w.err);
  REQUIRE(w.status == 0);
  std::ifstream t(d + "/bert.trace");
  std::string text((std::istreambuf_iterator<char>(t)), {});
  CHECK_THAT(text, Catch::Contains("stcsim-trace 1"));
  CHECK_THAT(text, Catch::Contains("synthetic true"));
  const auto j = run_stats("--arch a100 --trace " + d + "/bert.trace --no-dense-baseline");
  // The embedding and its LayerNorm, then 12 layers x (qkv, attn scores, softmax, attn
  // context, attn out, add, LayerNorm, mlp up, GELU, mlp down, add, LayerNorm).
  REQUIRE(j["ops"].size() == 2 + 12 * 12);
  const auto& qkv = j["ops"][2];
  CHECK(qkv["name"] == "bert_base.l0.qkv");
  CHECK(qkv["sparsity"] == "2:4");
  CHECK(qkv["m"] == 128);
  // Attention's products have no weight: dense, 12 heads of 64 at 128 tokens.
  const auto& scores = j["ops"][3];
  CHECK(scores["name"] == "bert_base.l0.attn_scores");
  CHECK(scores["sparsity"] == "dense");
  CHECK(scores["batch"] == 12);
  CHECK(!scores.contains("causal"));
  // The softmax between them, on the row-op kernel: 12 x 128 rows of 128.
  const auto& softmax = j["ops"][4];
  CHECK(softmax["row_op"]["kind"] == "softmax");
  CHECK(softmax["n"] == 128);
  CHECK(softmax["flops"] == 0);
  CHECK(j["ops"][5]["k"] == 128);
  // Bad traces are input errors naming the file.
  std::ofstream(d + "/bad.trace")
      << "stcsim-trace 1\nmodel x\nsynthetic true\ndtype fp16\nops 1\nop a m=0 n=1 k=1\n";
  const auto bad = run_stcsim("run --arch a100 --trace " + d + "/bad.trace");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("bad.trace"));
  CHECK(run_stcsim("trace --model no_such_model --out " + d + "/x.trace").status == 2);
  CHECK(run_stcsim("trace --model bert_base --prune block:7@0.5 --out " + d + "/x.trace").status ==
        2);
}

TEST_CASE("cli_real_model_pruned_side_by_side", "[cli]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  const std::string d = temp_dir("real");
  const auto r = run_stcsim(
      "run --arch a100 --model ppocrv4_rec --prune dense,2:4,block:32x32@0.5 --out " + d);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("Variants (whole model)"));
  std::ifstream in(d + "/stats.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["ops"].size() == 3 * 47);
  int on_sparse = 0;
  for (const auto& op : j["ops"])
    if (op["sparsity"] == "2:4") {
      ++on_sparse;
      CHECK(op["speedup_vs_dense"].get<double>() > 0);
    }
  CHECK(on_sparse >= 30);  // layers whose K is not a multiple of 4 (the stem, depthwise) stay dense
  // Small layers gain little or lose (docs/notes.md); the model as a whole must not lose.
  CHECK(j["total"]["speedup_vs_dense"].get<double>() >= 0.9);
  // A trace of the real pruned model carries its weights in the payload.
  const auto w = run_stcsim("trace --model ppocrv4_rec --prune 2:4 --out " + d + "/ocr.trace");
  REQUIRE(w.status == 0);
  CHECK(std::filesystem::file_size(d + "/ocr.trace.bin") > 1000000);
  CHECK(run_stats("--arch a100 --trace " + d + "/ocr.trace --no-dense-baseline")["ops"].size() ==
        47);
}

TEST_CASE("cli_functional_mode_uses_trace_weights", "[cli]") {
  const std::string d = temp_dir("ftrace");
  // A checkpoint with one 2-D weight [16, 32] of small integers (exact in fp16).
  {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 32), }";
    header.append(118 - header.size(), ' ');
    header += '\n';
    std::ofstream f(d + "/w.npy", std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const std::uint16_t len = std::uint16_t(header.size());
    f.write(reinterpret_cast<const char*>(&len), 2);
    f << header;
    for (int i = 0; i < 16 * 32; ++i) {
      const float v = float((i * 7) % 11) - 5.0f;
      f.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  REQUIRE(run_stcsim("trace --model " + d + "/w.npy --seq 8 --prune 2:4 --out " + d + "/w.trace")
              .status == 0);
  REQUIRE(run_stcsim("run --arch a100 --trace " + d +
                     "/w.trace --functional --no-dense-baseline -q --out " + d)
              .status == 0);
  std::ifstream in(d + "/stats.json");
  const auto j = nlohmann::json::parse(in);
  const auto& f = j["ops"][0]["functional"];
  CHECK(f["weights"] == "from the trace");
  // The weights written back are the pruned checkpoint: every group of 4 keeps at most 2.
  std::ifstream w(f["w_file"].get<std::string>(), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(w)), {});
  REQUIRE(bytes.size() >= 16 * 32 * 4);
  const char* data = bytes.data() + bytes.size() - 16 * 32 * 4;
  for (int g = 0; g < 16 * 32 / 4; ++g) {
    int nonzero = 0;
    for (int i = 0; i < 4; ++i) {
      float v;
      std::memcpy(&v, data + 4 * (4 * g + i), 4);
      nonzero += v != 0.0f;
    }
    CHECK(nonzero <= 2);
  }
}

TEST_CASE("cli_scalesim_topology_runs_as_a_model", "[cli]") {
  const std::string csv = std::string(STCSIM_SOURCE_DIR) + "/examples/scalesim/resnet18.csv";
  const auto j = run_stats("--arch a100 --model " + csv + " --batch 2 --prune 2:4");
  REQUIRE(j["ops"].size() == 21);
  const auto& conv1 = j["ops"][0];
  CHECK(conv1["m"] == 2 * 112 * 112);
  CHECK(conv1["k"] == 147);
  CHECK(conv1["pattern"] == "dense");  // K = 147: 2:4 cannot apply, and the note says so
  CHECK(j["ops"][1]["pattern"] == "2:4");
  const std::string d = temp_dir("scalesim");
  const auto t = run_stcsim("trace --model " + csv + " --out " + d + "/r.trace");
  INFO(t.err);
  CHECK(t.status == 0);
  std::ofstream(d + "/bad.csv") << "Layer, M, N, K,\nfc, 4, 4,\n";
  const auto bad = run_stcsim("run --arch a100 -q --model " + d + "/bad.csv");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("bad.csv:2: expected 4 fields"));
}

TEST_CASE("cli_sparsity_never_prunes_attentions_activation_operand", "[cli]") {
  // --sparsity prunes every weight operand; attention's K and V^T are activations.
  const auto j =
      run_stats("--arch a100 --model gpt2 --tokens 64 --sparsity 2:4 --no-dense-baseline");
  int attention = 0;
  for (const auto& op : j["ops"]) {
    const bool att = op.contains("causal") || op.contains("row_op");
    attention += att;
    CHECK(op["sparsity"] == (att ? "dense" : "2:4"));
  }
  CHECK(attention == 24 + 74);  // the attention GEMMs and every row op
}
