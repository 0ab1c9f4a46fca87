// Timing physics of attention's batched GEMMs under a causal mask (models/common/gemm_op.h
// Causal): the masked GEMM counts only the products its mask keeps, never exceeds the
// tensor-core peak, takes less time than the unmasked one but no less than the share of
// the work it keeps allows, and runs on both the Ampere multistage kernel (a100) and the
// Hopper warp-specialized one (h100).
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// One trace: the scores and context GEMMs of `heads` heads of 128 at `tokens` tokens,
// unmasked and causal.
std::string attention_trace(int tokens, int heads) {
  const std::string path = temp_dir("attention") + "/att.trace";
  const std::string t = std::to_string(tokens), h = std::to_string(heads);
  std::ofstream f(path);
  f << "stcsim-trace 1\nmodel att\nsynthetic true\ndtype fp16\nops 4\n"
    << "op scores m=" << t << " n=" << t << " k=128 batch=" << h << "\n"
    << "op scores_causal m=" << t << " n=" << t << " k=128 batch=" << h << " causal=output\n"
    << "op context m=" << t << " n=128 k=" << t << " batch=" << h << "\n"
    << "op context_causal m=" << t << " n=128 k=" << t << " batch=" << h << " causal=a\n";
  return path;
}

}  // namespace

TEST_CASE("physics_attention_f16_causal_keeps_its_share_of_the_work", "[physics][attention]") {
  for (const char* arch : {"a100", "h100"})
    for (int tokens : {1000, 2048}) {
      const int heads = 16;
      // Without the launch latency (the h100's 2.5 us, fitted to our H100): a constant per
      // kernel that would hide the work the mask saves on the short GEMMs.
      const auto j =
          run_stats(std::string("--arch ") + arch + " --trace " + attention_trace(tokens, heads) +
                    " --no-memo -p gpu.kernel_launch_ns=0");
      const auto& ops = j["ops"];
      REQUIRE(ops.size() == 4);
      const double t = tokens, kept = t * (t + 1) / 2;  // (i, j) with j <= i
      for (int pair : {0, 2}) {
        const auto& full = ops[pair];
        const auto& causal = ops[pair + 1];
        INFO(arch << " " << tokens << " tokens: " << causal["name"].get<std::string>());
        CHECK(causal["causal"] == (pair == 0 ? "output" : "a"));
        CHECK(!full.contains("causal"));
        // Exactly the products the mask keeps, 2 per FMA.
        CHECK(causal["flops"].get<double>() == Approx(2.0 * kept * 128 * heads).epsilon(1e-12));
        CHECK(full["flops"].get<double>() == Approx(2.0 * t * t * 128 * heads).epsilon(1e-12));
        for (const auto* op : {&full, &causal})
          CHECK((*op)["tflops"].get<double>() <= (*op)["peak_tflops"].get<double>());
        // Fewer CTAs (scores) or shorter ones (context): less time, but the mask keeps
        // just over half of the work, and tiles on the diagonal run whole; a CTA's fixed
        // costs (prologue, its loads' latency, the epilogue) are not halved, which on the
        // h100's short context GEMM at 1000 tokens (K = 1000: a few k-tiles a CTA, fewer
        // under the mask; 206 ns DRAM latency) leaves the causal one at 91% of the full
        // one's time (86% while the h100 preset had a register operand path, which
        // lengthened the k-loop against those fixed costs).
        const double fc = full["cycles"], cc = causal["cycles"];
        CHECK(cc < 0.95 * fc);
        CHECK(cc > 0.4 * fc);
        // The multistage kernel launches a CTA per tile (the persistent one, a grid per SM).
        if (pair == 0 && std::string(arch) == "a100")
          CHECK(causal["ctas"].get<double>() < full["ctas"].get<double>());
      }
    }
}

TEST_CASE("physics_attention_f16_causal_refuses_split_k", "[physics][attention]") {
  const auto r = run_stcsim("run --arch a100 -q --trace " + attention_trace(256, 2) +
                            " -p mapping.kernel=multistage_gemm -p mapping.split_k=2");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("scores_causal: a causal attention GEMM runs without split-K"));
}
