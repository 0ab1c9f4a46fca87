#include "models/mapping/cutlass_sm90_tiles.h"

#include <sstream>

#include "sim/core/input_error.h"

namespace stcsim {

namespace {

// One TileShape and the persistent schedules get_valid_schedules gives it: cooperative
// needs M a multiple of 128 (is_tile_desc_compatible_with_cooperative); ping-pong is
// emitted for every aligned tile of these (non-fp8) types.
struct Tile {
  int m, n, k;
  bool cooperative, pingpong;
};

// Both lists use SM90_CLUSTER_SIZES at cluster level 1: (1, 2, 1) and (2, 1, 1).
struct Cluster {
  int m, n;
};
const Cluster kClusters[] = {{2, 1}, {1, 2}};

// f16 / bf16, dense and 2:4 alike (level 131: wgmma m64n128k16 and m64n256k16 x
// multipliers (2,1,4), (1,1,4), (4,1,4), (2,2,4); 64x128x64 pruned as "smaller than or
// equal to 64x128x64"). The sparse lists take the 2:4 wgmma's K of 32 times 4, halved
// "to afford more smem stages": 64 of the dense K, as for dense.
const Tile k16Bit[] = {{64, 256, 64, false, true},
                       {128, 128, 64, true, true},
                       {128, 256, 64, true, true},
                       {256, 128, 64, true, true},
                       {256, 256, 64, true, true}};

// tf32, dense and 1:2 (level 121: m64n128k8 and m64n256k8 x (2,1,4), (1,1,4), (4,1,4)).
const Tile kTf32[] = {{64, 128, 32, false, true}, {64, 256, 32, false, true},
                      {128, 128, 32, true, true}, {128, 256, 32, true, true},
                      {256, 128, 32, true, true}, {256, 256, 32, true, true}};

// s8, dense and 2:4 (level 111: m64n128k32 and m64n256k32 x (2,1,4), (1,1,4)).
const Tile kInt8[] = {{64, 128, 128, false, true},
                      {64, 256, 128, false, true},
                      {128, 128, 128, true, true},
                      {128, 256, 128, true, true}};

// e4m3 / e5m2 (any pairing), dense and 2:4 (GenerateSM90_TensorOp_fp8_WGMMA_gemm and
// GenerateSM90_SparseTensorOp_fp8_WGMMA_gemm, level 121: m64n128k32 and m64n256k32 x
// (2,1,4), (1,1,4), (4,1,4); the sparse K of 64 x 4 halved). Its own schedule rule:
// "FP8 configs with CTA tile larger than or equal to 256x128x128 limit data types and
// schedules" to cooperative, and ping-pong is stamped out only as
// KernelTmaWarpSpecializedPingpongFP8FastAccum.
const Tile kFp8[] = {{64, 128, 128, false, true},  {64, 256, 128, false, true},
                     {128, 128, 128, true, true},  {128, 256, 128, true, true},
                     {256, 128, 128, true, false}, {256, 256, 128, true, false}};

template <std::size_t N>
std::vector<CutlassSm90Entry> expand(const Tile (&tiles)[N], bool fp8 = false) {
  std::vector<CutlassSm90Entry> out;
  for (const Tile& t : tiles)
    for (const Cluster& c : kClusters)
      for (const char* schedule : {"cooperative", "pingpong"}) {
        if (std::string(schedule) == "cooperative" ? !t.cooperative : !t.pingpong) continue;
        CutlassSm90Entry e;
        e.cta_m = t.m;
        e.cta_n = t.n;
        e.cta_k = t.k;
        e.cluster_m = c.m;
        e.cluster_n = c.n;
        e.schedule = schedule;
        e.fp8_fast_accum_pingpong = fp8;
        out.push_back(e);
      }
  return out;
}

std::vector<CutlassSm90Entry> entries_or_refuse(const MmaKind& kind, bool listed,
                                                std::vector<CutlassSm90Entry> entries) {
  if (listed) return entries;
  throw InputError(
      "mapping.policy cutlass_sm90: CUTLASS's sm90 generator has no GEMM list for " + kind.str() +
      " (f16/bf16, s8 and fp8 dense or 2:4, tf32 dense or 1:2; use mapping.policy chooser)");
}

}  // namespace

std::string CutlassSm90Entry::kernel_schedule() const {
  if (schedule == "cooperative") return "KernelTmaWarpSpecializedCooperative";
  return fp8_fast_accum_pingpong ? "KernelTmaWarpSpecializedPingpongFP8FastAccum"
                                 : "KernelTmaWarpSpecializedPingpong";
}

std::string CutlassSm90Entry::describe() const {
  std::ostringstream os;
  os << cta_m << "x" << cta_n << "x" << cta_k << " cluster " << cluster_m << "x" << cluster_n
     << "x1 " << kernel_schedule();
  return os.str();
}

std::vector<CutlassSm90Entry> cutlass_sm90_entries(const MmaKind& kind) {
  const NmSparsity& sp = kind.sparsity;
  switch (kind.dtype) {
    case Dtype::FP16:
    case Dtype::BF16:
      return entries_or_refuse(kind, sp.dense() || sp == NmSparsity{2, 4}, expand(k16Bit));
    case Dtype::TF32:
      return entries_or_refuse(kind, sp.dense() || sp == NmSparsity{1, 2}, expand(kTf32));
    case Dtype::INT8:
      return entries_or_refuse(kind, sp.dense() || sp == NmSparsity{2, 4}, expand(kInt8));
    case Dtype::FP8_E4M3:
    case Dtype::FP8_E5M2:
      return entries_or_refuse(kind, sp.dense() || sp == NmSparsity{2, 4}, expand(kFp8, true));
  }
  throw InputError("mapping.policy cutlass_sm90: no sm90 list for " + kind.str());
}

}  // namespace stcsim
