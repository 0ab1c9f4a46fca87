// Shared-memory bank conflicts cost what the model says: the wavefront count of each
// ldmatrix phase, from the real addresses under each tile layout.
#include <catch2/catch.hpp>

#include "models/kernels/smem_tile_layout.h"
#include "models/kernels/tensor_core_ktile.h"
#include "models/smem/banked_smem.h"

using namespace stcsim;

TEST_CASE("smem_wavefronts_hand_cases", "[smem]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  // Eight 16-byte rows back to back: 128 bytes over all 32 banks, one wavefront.
  CHECK(smem.wavefronts({0, 16, 32, 48, 64, 80, 96, 112}, 16) == 1);
  // Eight rows 128 bytes apart all land in banks 0-3: eight wavefronts.
  CHECK(smem.wavefronts({0, 128, 256, 384, 512, 640, 768, 896}, 16) == 8);
  // Rows 64 bytes apart: two rows per bank group, four wavefronts.
  CHECK(smem.wavefronts({0, 64, 128, 192, 256, 320, 384, 448}, 16) == 4);
  // The same word read by every thread is a broadcast: one wavefront.
  CHECK(smem.wavefronts({0, 0, 0, 0}, 4) == 1);
  // 4-byte accesses 128 bytes apart: 32 threads in one bank.
  std::vector<std::uint32_t> a;
  for (int i = 0; i < 32; ++i) a.push_back(i * 128);
  CHECK(smem.wavefronts(a, 4) == 32);
}

TEST_CASE("smem_read_costs_wavefronts_plus_latency", "[smem]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  CHECK(smem.read(0, 4) == 4 + 30);
  CHECK(smem.read(0, 8) == 4 + 8 + 30);  // queued behind the first
  CHECK(smem.busy_cycles() == 12);
  CHECK(smem.write(100, 256) == 102);  // 256 bytes at 128 B/cycle
}

TEST_CASE("smem_fill_writes_at_its_own_width", "[smem]") {
  // Default: a fill writes at the port's width, like any write: 512 B in 4 cycles.
  BankedSmem full(BankedSmemSpec{32, 4, 30});
  CHECK(full.fill(0, 512) == 4);
  // Fills arriving 64 B per port cycle: 512 B take 8 cycles, and an ldmatrix of 4
  // wavefronts issued at cycle 2 queues behind them: 8 + 4 + 30.
  BankedSmemSpec s{32, 4, 30};
  s.fill_write_bytes_per_cycle = 64;
  BankedSmem half(s);
  CHECK(half.fill(0, 512) == 8);
  CHECK(half.read(2, 4) == 8 + 4 + 30);
  // A warp's own st.shared still writes at the port's width.
  CHECK(half.write(100, 512) == 104);
}

TEST_CASE("smem_store_takes_a_port_cycle_per_warp_store_at_least", "[smem]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  // 4 KiB as 2-byte stores: 64 B a warp's store, 64 stores, one cycle each.
  CHECK(smem.store(0, 4096, 2) == 64);
  // As 4-byte stores: 128 B, the port's width: 32 cycles, as write() charges.
  CHECK(smem.store(1000, 4096, 4) == 1000 + 32);
  // As 8-byte (two fp32 accumulators) and 16-byte stores: 2 and 4 cycles a store, 32 in all.
  CHECK(smem.store(2000, 4096, 8) == 2000 + 32);
  CHECK(smem.store(3000, 4096, 16) == 3000 + 32);
  // 1-byte stores: 32 B a store, 128 stores; queued behind one another on the port.
  CHECK(smem.store(4000, 4096, 1) == 4000 + 128);
  CHECK(smem.store(4000, 4096, 1) == 4000 + 256);
  CHECK(smem.busy_cycles() == 64 + 32 + 32 + 32 + 128 + 128);
}

TEST_CASE("smem_layout_conflicts_per_ldmatrix", "[smem]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  KernelMapping m;
  m.cta_m = 128;
  m.cta_n = 128;
  m.cta_k = 64;
  m.warp_m = 64;
  m.warp_n = 64;
  m.stages = 3;
  // Per warp per k-sub: A 64x16 and B 64x16 fp16 = 4 + 4 ldmatrix.x4 = 32 phases.
  for (auto [layout, per_phase] :
       {std::pair{SmemLayout::Swizzled, 1}, {SmemLayout::Padded, 1}, {SmemLayout::Naive, 8}}) {
    m.layout = layout;
    const auto wf = ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {}}, smem);
    INFO(to_string(layout));
    REQUIRE(wf.size() == 4);
    for (const auto& warp : wf) {
      REQUIRE(warp.size() == 4);
      for (const auto& f : warp) {
        CHECK(f.a == 16 * per_phase);  // A and B apart: the mainloop may load them apart
        CHECK(f.b == 16 * per_phase);
      }
    }
  }
  // 64-byte rows (cta_k 32): the naive layout conflicts 4-way, the swizzle not at all.
  m.cta_k = 32;
  m.layout = SmemLayout::Naive;
  CHECK(ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {}}, smem)[0][0].total() == 32 * 4);
  m.layout = SmemLayout::Swizzled;
  CHECK(ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {}}, smem)[0][0].total() == 32);
  // 256-byte rows (cta_k 128): stored as two 128-byte panels, still conflict-free;
  // the naive layout puts all eight rows of a phase in the same four banks.
  m.cta_k = 128;
  for (const auto& warp : ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {}}, smem))
    for (const auto& f : warp) CHECK(f.total() == 32);
  m.layout = SmemLayout::Naive;
  CHECK(ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {}}, smem)[0][0].total() == 32 * 8);
  // A 2:4 fp16 k32 instruction: compressed A (2 chunks per row), B 4 chunks per row,
  // plus metadata (64 rows x 32 K x 1/8 byte = 256 bytes = 2 wavefronts).
  m.layout = SmemLayout::Swizzled;
  m.cta_k = 64;
  const auto sp = ldmatrix_wavefronts(m, MmaKind{Dtype::FP16, {2, 4}}, smem);
  REQUIRE(sp[0].size() == 2);
  CHECK(sp[0][0].a == 64 / 8 * 2 + 2);  // compressed A and the metadata
  CHECK(sp[0][0].b == 64 / 8 * 4);
  // The bytes those fragments write into a warp's registers a k-sub: dense 64 x 16 of A
  // and of B (2 B each) = 4096; 2:4 A compressed 64 x 16 (2048), a 32-bit metadata register
  // a lane for each of the 4 A fragments (512), B 64 x 32 (4096) = 6656.
  CHECK(TensorCoreWarps(m, MmaKind{Dtype::FP16, {}}, smem).fragment_bytes == 4096);
  CHECK(TensorCoreWarps(m, MmaKind{Dtype::FP16, {2, 4}}, smem).fragment_bytes == 6656);
}
