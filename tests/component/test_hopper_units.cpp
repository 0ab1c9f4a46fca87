// Hopper's units with cycle counts derived by hand: a wgmma chain on one sub-core's
// pipe (issue interval, result latency), wgmma.sp against the B operand path, the
// shared-memory matrix read path, the TMA unit's issue cost and the mbarrier wake.
#include <catch2/catch.hpp>

#include "models/smem/banked_smem.h"
#include "models/tensor_core/mma_pipeline.h"
#include "models/tma/tma_unit.h"

using namespace stcsim;

namespace {
// The h100 preset's figures: mma.sync m16n8k16 every 4 cycles, a wgmma slice's
// m16 x n8 step every 4 cycles, 32 cycles of drain.
MmaPipelineSpec hopper() {
  MmaPipelineSpec s;
  for (Dtype d : kAllDtypes) {
    s.per_dtype[int(d)] = {4, 24};
    s.wgmma_cycles_per_n8[int(d)] = 4;
  }
  s.wgmma_drain_cycles = 32;
  s.sparse_patterns = {NmSparsity{2, 4}};
  return s;
}
}  // namespace

TEST_CASE("wgmma_chain_issue_interval_and_latency_exact", "[tensor_core][hopper]") {
  MmaPipeline pipe(hopper());
  const MmaKind wg{Dtype::BF16, {}, 256};  // m64n256k16: this sub-core's m16 slice is 32 n8 steps
  CHECK(wg.shape().m == 64);
  CHECK(wg.sub_core_shape().m == 16);
  CHECK(wg.products() == 64 * 256 * 16);
  CHECK(pipe.initiation_interval(wg) == 32 * 4);
  CHECK(pipe.latency(wg) == 128 + 32);
  // Three back to back from cycle 0: issues at 0, 128, 256; the last result at 256 + 160.
  Cycle last = 0;
  for (int i = 0; i < 3; ++i) last = pipe.issue(0, wg);
  CHECK(last == 256);
  CHECK(last + pipe.latency(wg) == 416);
  CHECK(pipe.busy_cycles() == 384);
  // wait_group 0 after the chain: the warpgroup resumes when the last result is in.
  // A narrow wgmma: N = 8 is one step.
  MmaPipeline p2(hopper());
  CHECK(p2.initiation_interval(MmaKind{Dtype::FP16, {}, 8}) == 4);
  CHECK(p2.latency(MmaKind{Dtype::FP16, {}, 8}) == 36);
}

TEST_CASE("wgmma_sp_interval_bound_by_the_b_operand_path", "[tensor_core][hopper]") {
  // wgmma.sp m64n256k32: the same real products as the dense m64n256k16 (32 steps),
  // but all of B, 256 x 32 x 2 = 16384 bytes, reaches each sub-core.
  const MmaKind sp{Dtype::FP16, {2, 4}, 256};
  CHECK(sp.shape().k == 32);
  CHECK(sp.b_bytes() == 16384);
  auto s = hopper();
  s.b_bytes_per_cycle = 128;  // 16384 / 128 = 128: exactly the dense interval
  CHECK(MmaPipeline(s).initiation_interval(sp) == 128);
  s.b_bytes_per_cycle = 64;  // a narrower path doubles it
  CHECK(MmaPipeline(s).initiation_interval(sp) == 256);
  // Metadata: 16 rows x 16 kept x 2 bits = 512 bits per sub-core slice.
  s.b_bytes_per_cycle = 0;
  s.metadata_bits_per_cycle = 2;
  CHECK(MmaPipeline(s).initiation_interval(sp) == 256);
}

TEST_CASE("wgmma_unsupported_shapes_and_dtypes_are_named", "[tensor_core][hopper]") {
  auto s = hopper();
  s.wgmma_cycles_per_n8[int(Dtype::TF32)] = 0;
  MmaPipeline pipe(s);
  CHECK(pipe.unsupported_reason(MmaKind{Dtype::TF32, {}, 64}).find("wgmma_tf32_cycles_per_n8") !=
        std::string::npos);
  CHECK(pipe.unsupported_reason(MmaKind{Dtype::FP16, {}, 12}).find("multiple of 8") !=
        std::string::npos);
  CHECK(pipe.unsupported_reason(MmaKind{Dtype::FP16, {}, 264}).find("multiple of 8") !=
        std::string::npos);
  CHECK(pipe.supports(MmaKind{Dtype::FP16, {}, 256}));
  CHECK(pipe.supports(MmaKind{Dtype::TF32, {}, 0}));  // mma.sync tf32 still runs
  CHECK(MmaKind{Dtype::BF16, {}, 128}.str() == "bf16 wgmma m64n128k16");
}

TEST_CASE("wgmma_fp8_chain_issue_interval_and_latency_exact", "[tensor_core][hopper][fp8]") {
  // The h100 preset's fp8 figures: a wgmma slice's m16 x n8 x k32 step every 4 cycles
  // (twice fp16's products per step), 32 cycles of drain; mma.sync m16n8k32 emulated as
  // two fp16 m16n8k16 steps: every 8 cycles, 28 to its result.
  MmaPipelineSpec s = hopper();
  for (Dtype d : {Dtype::FP8_E4M3, Dtype::FP8_E5M2}) s.per_dtype[int(d)] = {8, 28};
  MmaPipeline pipe(s);
  const MmaKind wg{Dtype::FP8_E4M3, {}, 128};  // m64n128k32: 16 n8 steps per sub-core slice
  CHECK(wg.sub_core_shape().k == 32);
  CHECK(pipe.initiation_interval(wg) == 16 * 4);
  CHECK(pipe.latency(wg) == 64 + 32);
  // Four back to back from cycle 10: issues at 10, 74, 138, 202; wait_group 0 resumes
  // the warpgroup when the last result is in, at 202 + 96 = 298.
  Cycle last = 0;
  for (int i = 0; i < 4; ++i) last = pipe.issue(10, wg);
  CHECK(last == 202);
  CHECK(last + pipe.latency(wg) == 298);
  CHECK(pipe.busy_cycles() == 256);
  // Per cycle per sub-core: 16 x 128 x 32 products / 64 = 1024, twice bf16's 512.
  const MmaKind bf{Dtype::BF16, {}, 128};
  CHECK(double(wg.sub_core_shape().fma()) / pipe.initiation_interval(wg) == 1024);
  CHECK(double(bf.sub_core_shape().fma()) / pipe.initiation_interval(bf) == 512);
  // e5m2 runs at the same rate; the emulated mma.sync at half of it.
  CHECK(pipe.initiation_interval(MmaKind{Dtype::FP8_E5M2, {}, 128}) == 64);
  const MmaKind sync{Dtype::FP8_E4M3, {}};
  CHECK(pipe.initiation_interval(sync) == 8);
  CHECK(pipe.latency(sync) == 28);
  CHECK(double(sync.shape().fma()) / 8 == 512);
}

TEST_CASE("wgmma_sp_fp8_interval_bound_by_the_b_operand_path", "[tensor_core][hopper][fp8]") {
  // wgmma.sp m64n256k64 e4m3: the dense m64n256k32's products (32 steps, 128 cycles) and
  // all of B, 256 x 64 x 1 = 16384 bytes, at each sub-core: exactly fp16 2:4's bytes.
  const MmaKind sp{Dtype::FP8_E4M3, {2, 4}, 256};
  auto s = hopper();
  s.b_bytes_per_cycle = 128;  // the h100 preset: 16384 / 128 = 128, the dense interval
  CHECK(MmaPipeline(s).initiation_interval(sp) == 128);
  CHECK(MmaPipeline(s).latency(sp) == 128 + 32);
  s.b_bytes_per_cycle = 64;
  CHECK(MmaPipeline(s).initiation_interval(sp) == 256);
  // Metadata per sub-core: 16 rows x 32 kept x 2 bits = 1024 bits.
  s.b_bytes_per_cycle = 0;
  s.metadata_bits_per_cycle = 4;
  CHECK(MmaPipeline(s).initiation_interval(sp) == 256);
}

TEST_CASE("fp8_on_a_tensor_core_without_it_names_what_it_has", "[tensor_core][fp8]") {
  // The a100 preset: fp16/bf16/tf32/int8 mma.sync, no fp8, no wgmma.
  MmaPipelineSpec a100;
  for (Dtype d : {Dtype::FP16, Dtype::BF16, Dtype::TF32, Dtype::INT8})
    a100.per_dtype[int(d)] = {8, 24};
  MmaPipeline pipe(a100);
  const std::string why = pipe.unsupported_reason(MmaKind{Dtype::FP8_E4M3, {}});
  CHECK_THAT(why, Catch::Contains("no fp8_e4m3 mma") &&
                      Catch::Contains("fp8_e4m3_ii_cycles is 0") &&
                      Catch::Contains("mma here takes: fp16, bf16, tf32, int8"));
  CHECK_THAT(pipe.unsupported_reason(MmaKind{Dtype::FP8_E5M2, {}, 64}),
             Catch::Contains("no fp8_e5m2 wgmma") && Catch::Contains("wgmma here takes: none"));
  CHECK(pipe.supports(MmaKind{Dtype::INT8, {}}));
}

TEST_CASE("smem_matrix_reads_share_the_port_or_take_their_own_path", "[smem][hopper]") {
  // 32 banks x 4 bytes: 128 B/clk. One m64n256k16 wgmma reads A 2048 + B 8192 bytes.
  BankedSmemSpec spec;
  BankedSmem shared(spec);
  auto r = shared.matrix_read(0, 10240);
  CHECK(r.start == 0);
  CHECK(r.done == 80);
  CHECK(shared.write(0, 1280) == 90);  // the port is busy until 80
  r = shared.matrix_read(0, 1280);
  CHECK(r.start == 90);
  spec.matrix_read_bytes_per_cycle = 256;
  BankedSmem own(spec);
  r = own.matrix_read(0, 10240);
  CHECK(r.done == 40);
  CHECK(own.write(0, 1280) == 10);  // the port is free
  CHECK(own.busy_cycles() == 10);
  CHECK_FALSE(own.matrix_path_is_port());
}

TEST_CASE("tma_unit_issue_cost_per_box_and_mbarrier_wake", "[tma][hopper]") {
  TmaUnit tma(TmaUnitSpec{8, 20});
  CHECK(tma.present());
  // A stage of two boxes (A, B): its requests enter at 16; a second stage queues behind.
  CHECK(tma.issue(0, 2) == 16);
  CHECK(tma.issue(0, 2) == 32);
  CHECK(tma.issue(100, 3) == 124);
  // The mbarrier's phase flips when the last byte lands; a waiting warp sees it 20 later.
  CHECK(tma.observed(1000) == 1020);
  CHECK_FALSE(NoTma().present());
}

TEST_CASE("mma_sp_and_wgmma_sp_take_b_through_separate_paths", "[tensor_core][hopper]") {
  // The h100 preset's measured figures (an H200, validation/measurements/nvidia_h200):
  // mma.sync m16n8k16 every 6 cycles; mma.sp m16n8k32 needs 32 x 8 x 2 = 512 B of B from
  // the registers at 64 B/clk = 8 cycles (1.5x, as measured), while wgmma.sp m64n64k32's
  // 64 x 32 x 2 = 4096 B come from shared memory at 128 B/clk = 32 cycles = its dense
  // interval (2x, as measured).
  auto s = hopper();
  s.per_dtype[int(Dtype::FP16)] = {6, 24};
  s.b_bytes_per_cycle = 64;
  s.wgmma_b_bytes_per_cycle = 128;
  MmaPipeline pipe(s);
  CHECK(pipe.initiation_interval(MmaKind{Dtype::FP16, {}}) == 6);
  CHECK(pipe.initiation_interval(MmaKind{Dtype::FP16, {2, 4}}) == 8);
  const MmaKind wg_sp{Dtype::FP16, {2, 4}, 64};
  CHECK(wg_sp.b_bytes() == 4096);
  CHECK(pipe.initiation_interval(wg_sp) == 32);
  CHECK(pipe.initiation_interval(MmaKind{Dtype::FP16, {}, 64}) == 32);
  // 0: wgmma.sp shares the register path's width (the earlier single-path model).
  s.wgmma_b_bytes_per_cycle = 0;
  CHECK(MmaPipeline(s).initiation_interval(wg_sp) == 64);
}
