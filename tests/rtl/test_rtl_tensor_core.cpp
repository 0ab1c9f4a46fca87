// `impl: rtl` of the tensor core (rtl/model): the ii and latency it measures by clocking
// the Verilated units equal the analytic model (models/tensor_core/dot_unit_timing.h)
// for every kind and several unit counts; its numerics are the RTL's; the values of its
// dot-product hook equal the golden model bit for bit.
#include <catch2/catch.hpp>
#include <iostream>
#include <random>

#include "models/numerics/mma_dot.h"
#include "rtl/model/rtl_tensor_core.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

using namespace stcsim;

namespace {

std::vector<MmaKind> rtl_kinds() {
  std::vector<MmaKind> out;
  for (Dtype d : {Dtype::FP16, Dtype::BF16, Dtype::INT8})
    for (NmSparsity s : {NmSparsity{}, NmSparsity{2, 4}}) out.push_back({d, s});
  return out;
}

ParamSet defaults() {
  ParamSet p;
  for (const auto& d : RtlTensorCoreSpec::params()) p.set(d.key, *d.default_value);
  return p;
}

}  // namespace

TEST_CASE("rtl_tensor_core_measured_timing_equals_analytic", "[rtl]") {
  const RtlTensorCoreSpec specs[] = {{64, 32, 15}, {48, 32, 20}, {128, 128, 0},
                                     {1, 1, 0},    {7, 5, 3},    {256, 300, 9}};
  for (const auto& s : specs) {
    const RtlTensorCore tc(s);
    for (const MmaKind& k : rtl_kinds()) {
      INFO(k.str() << ": " << s.sparse_dot_units << " sparse / " << s.dense_dot_units
                   << " dense units, operand latency " << s.operand_latency);
      const DotUnitTiming want =
          dot_unit_timing(k, tc.units(k), RtlTensorCore::block(), s.operand_latency);
      CHECK(tc.timing(k).ii == want.ii);
      CHECK(tc.timing(k).latency == want.latency);
      CHECK(tc.initiation_interval(k) == want.ii);
      CHECK(tc.latency(k) == want.latency);
    }
  }
}

TEST_CASE("rtl_tensor_core_a100_figures", "[rtl]") {
  // With the defaults (64 sparse, 32 dense units, 15 operand cycles) and the a100 RTL
  // (8 logical K per beat) the f16 figures are the A100 preset's: ii 8, latency 24, dense
  // and 2:4 alike. s8 beats carry 8 logical K like f16 ones, so s8 runs at half the
  // A100's s8 rate (ii 16): the RTL has no packed s8 mode.
  auto tc = Registry<ITensorCore>::create("rtl", defaults());
  for (const MmaKind& k : rtl_kinds())
    std::cout << "rtl " << k.str() << ": ii " << tc->initiation_interval(k) << ", latency "
              << tc->latency(k) << "\n";
  if (RtlTensorCore::block() == 8) {
    for (Dtype d : {Dtype::FP16, Dtype::BF16})
      for (NmSparsity s : {NmSparsity{}, NmSparsity{2, 4}}) {
        CHECK(tc->initiation_interval({d, s}) == 8);
        CHECK(tc->latency({d, s}) == 24);
      }
    for (NmSparsity s : {NmSparsity{}, NmSparsity{2, 4}}) {
      CHECK(tc->initiation_interval({Dtype::INT8, s}) == 16);
      CHECK(tc->latency({Dtype::INT8, s}) == 32);
    }
  }
  CHECK(tc->numerics_preset() == RtlTensorCore::preset());
  CHECK_FALSE(tc->supports({Dtype::TF32, {}}));
  CHECK_THAT(tc->unsupported_reason({Dtype::TF32, {}}), Catch::Contains("fp16, bf16 and s8"));
  CHECK_FALSE(tc->supports({Dtype::FP16, {1, 4}}));
  CHECK_THAT(tc->unsupported_reason({Dtype::FP16, {2, 8}}), Catch::Contains("2:4 only"));
  CHECK_THROWS_AS(tc->initiation_interval({Dtype::TF32, {1, 2}}), InputError);
  // issue() reserves the pipe as mma_pipeline does; a clone starts empty with the same figures.
  const MmaKind f16{Dtype::FP16, {}};
  const int ii = int(tc->initiation_interval(f16));
  CHECK(tc->issue(100, f16) == 100);
  CHECK(tc->issue(0, f16) == 100 + ii);
  CHECK(tc->busy_cycles() == 2 * ii);
  auto clone = tc->clone_empty();
  CHECK(clone->busy_cycles() == 0);
  CHECK(clone->issue(0, f16) == 0);
  CHECK(clone->latency(f16) == tc->latency(f16));
}

TEST_CASE("rtl_tensor_core_numerics_must_be_rtl_preset", "[rtl]") {
  ParamSet p = defaults();
  CHECK(p.get_string("numerics") == RtlTensorCore::preset());
  p.set("numerics", std::string(std::string(RtlTensorCore::preset()) == "h100" ? "a100" : "h100"));
  CHECK_THROWS_WITH(
      Registry<ITensorCore>::create("rtl", p),
      Catch::Contains("tensor_core.numerics") && Catch::Contains(RtlTensorCore::preset()));
}

namespace {

std::uint32_t random_value(Dtype d, std::mt19937_64& rng) {
  if (d == Dtype::INT8) return std::uint32_t(std::int32_t(rng() % 256) - 128);
  const bool bf16 = d == Dtype::BF16;
  const std::uint32_t inf = bf16 ? 0x7F80 : 0x7C00;
  if (rng() % 32 == 0) {
    const std::uint32_t sp[] = {0x8000, inf, inf | 0x8000, inf | 1, 1, 0x8003};
    return sp[rng() % 6];
  }
  const int mbits = bf16 ? 7 : 10, emid = bf16 ? 127 : 15;
  return std::uint32_t(rng() & 1) << 15 | std::uint32_t(emid - 8 + int(rng() % 16)) << mbits |
         std::uint32_t(rng() & ((1u << mbits) - 1));
}

}  // namespace

TEST_CASE("rtl_tensor_core_dot_unit_values_equal_golden", "[rtl]") {
  auto tc = Registry<ITensorCore>::create("rtl", defaults());
  const auto model16 =
      numerics::accumulation_preset(RtlTensorCore::preset(), numerics::FloatFormat::FP16);
  const auto model_bf =
      numerics::accumulation_preset(RtlTensorCore::preset(), numerics::FloatFormat::BF16);
  std::mt19937_64 rng(21);
  for (const MmaKind& k : rtl_kinds()) {
    INFO(k.str());
    const functional::DotUnit unit = tc->dot_unit(k);
    REQUIRE(unit);
    CHECK_THAT(unit.name, Catch::Contains(k.sparsity.dense() ? "dense_dot" : "sp24_dot"));
    const int kk = k.shape().k;
    std::vector<std::uint32_t> w(kk), x(kk);
    for (int trial = 0; trial < 3000; ++trial) {
      for (int i = 0; i < kk; ++i) {
        w[i] = random_value(k.dtype, rng);
        x[i] = random_value(k.dtype, rng);
      }
      if (!k.sparsity.dense())  // 2:4: prune two of every four (to +0), or three, or all
        for (int g = 0; g < kk / 4; ++g)
          for (int i = 0, n = 2 + int(rng() % 8 == 0) + int(rng() % 16 == 0); i < n; ++i)
            w[4 * g + (g + 1 + i) % 4] = 0;
      const std::uint32_t c = trial % 3 == 0           ? 0u
                              : k.dtype == Dtype::INT8 ? std::uint32_t(rng())
                                                       : std::uint32_t(rng() & 0xBFFFFFFF);
      std::uint32_t want;
      if (k.dtype == Dtype::INT8) {
        std::vector<std::int32_t> xi(x.begin(), x.end()), wi(w.begin(), w.end());
        want = std::uint32_t(numerics::mma_dot_int(xi.data(), wi.data(), kk, std::int32_t(c)));
      } else {
        const bool bf16 = k.dtype == Dtype::BF16;
        want = numerics::mma_dot(bf16 ? numerics::FloatFormat::BF16 : numerics::FloatFormat::FP16,
                                 x.data(), w.data(), kk, c,
                                 bf16 ? model_bf : model16);  // gemm_values' order: x first
      }
      const std::uint32_t got = unit.fn({w.data(), x.data(), kk, c, 0, 0});
      if (got != want)
        FAIL_CHECK("trial " << trial << ": rtl " << std::hex << got << " golden " << want);
    }
  }
  // A weight group with three nonzeros is not 2:4: an InputError that says where.
  const MmaKind sp{Dtype::FP16, {2, 4}};
  std::vector<std::uint32_t> w(32, 0), x(32, 0x3C00);
  w[5] = w[6] = w[7] = 0x3C00;
  CHECK_THROWS_WITH(tc->dot_unit(sp).fn({w.data(), x.data(), 32, 0, 17, 64}),
                    Catch::Contains("weight row 17, k 68..71") && Catch::Contains("3 nonzeros"));
}
