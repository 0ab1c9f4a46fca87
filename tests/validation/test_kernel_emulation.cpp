// Replays the validation kernels on the CPU: CTA by CTA in launch order, k-tile by k-tile
// through an emulated shared memory filled at the kernels' swizzled offsets, warp by warp
// with emulated ldmatrix.x4 at the kernels' lane addresses (fragment_addressing.h), the
// functional model's mma.sync / mma.sp on the fragments, and the kernels' epilogue
// staging. The output must equal the functional model's whole-GEMM values
// (models/functional/gemm_values.h) bit for bit, for every compiled tile and kernel. A GPU
// run then only has to confirm that the hardware does what PTX (and so this model) says.
#include <catch2/catch.hpp>
#include <cstring>

#include "models/functional/gemm_values.h"
#include "models/functional/mma_sp.h"
#include "models/functional/mma_sync.h"
#include "models/numerics/accumulation_model.h"
#include "models/numerics/float_format.h"
#include "validation/cuda/fragment_addressing.h"
#include "validation/harness/operands.h"
#include "validation/harness/sparse_pack.h"

using namespace stcsim;
using namespace stcsim::validation;
using functional::WarpFragment;

namespace {

using Bytes = std::vector<std::uint8_t>;

// ldmatrix.x4: lanes 8j..8j+7 give the rows of matrix j; lane t gets row t/4, halves
// 2(t%4), 2(t%4)+1 of each matrix in register j.
WarpFragment ldmatrix_x4(const Bytes& smem, const std::uint32_t (&addr)[32]) {
  WarpFragment f(4);
  for (int t = 0; t < 32; ++t)
    for (int j = 0; j < 4; ++j)
      std::memcpy(&f.at(t, j), &smem[addr[8 * j + t / 4] + 4 * (t % 4)], 4);
  return f;
}

struct Case {
  GemmKernel kind;
  KernelTile tile;
  int m, n, k;  // kernel problem
  bool transposed;
  int out_bytes;
  int swizzle;
};

// Kernel operands as the harness uploads them, and the logical A the kernel multiplies.
struct Operands {
  Fp16Matrix a_logical, b;
  Sp24Operand sp;
  BsrOperand bsr;
};

Operands make_operands(const Case& c) {
  Operands o;
  o.b = random_fp16(c.n, c.k, 21);
  o.a_logical = random_fp16(c.m, c.k, 22);
  if (c.kind == GemmKernel::Sparse24) {
    o.a_logical = prune_24(o.a_logical, c.m, c.k);
    o.sp = pack_sp24(o.a_logical, c.m, c.k, c.tile.cta_m, c.tile.cta_k);
  } else if (c.kind == GemmKernel::Bsr) {
    o.a_logical = prune_blocks(o.a_logical, c.m, c.k, c.tile.cta_m, c.tile.cta_k, 0.5);
    o.bsr = pack_bsr(o.a_logical, c.m, c.k, c.tile.cta_m, c.tile.cta_k);
  }
  return o;
}

// Copies a rows x row_bytes tile (global row stride ld_bytes) to smem at base, swizzled.
void load_tile(Bytes& smem, std::uint32_t base, const std::uint8_t* g, std::size_t ld_bytes,
               int rows, int row_bytes) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < row_bytes / 16; ++c)
      std::memcpy(&smem[base + swizzled_offset(r, c, row_bytes, rows)], g + r * ld_bytes + c * 16,
                  16);
}

Bytes emulate(const Case& c, const Operands& o, const numerics::AccumulationModel& model) {
  const KernelTile& t = c.tile;
  const bool sp = c.kind == GemmKernel::Sparse24;
  const int tiles_m = c.m / t.cta_m, tiles_n = c.n / t.cta_n, k_sub = sp ? 32 : 16;
  const int a_row = stage_a_bytes(c.kind, 1, t.cta_k),
            a_bytes = stage_a_bytes(c.kind, t.cta_m, t.cta_k);
  const int meta_bytes = stage_meta_bytes(c.kind, t.cta_m, t.cta_k), b_row = 2 * t.cta_k;
  const int stage = stage_bytes(c.kind, t.cta_m, t.cta_n, t.cta_k);
  const EpilogueTile e = epilogue_tile(t.cta_m, t.cta_n, c.transposed, c.out_bytes);
  const Fp16Matrix a_dense = o.a_logical;
  Bytes out(std::size_t(c.m) * c.n * c.out_bytes, 0xFF);  // poisoned: every element must be written
  const functional::Shape shape = sp ? functional::Shape::M16N8K32 : functional::Shape::M16N8K16;
  for (int linear = 0; linear < tiles_m * tiles_n; ++linear) {
    const CtaCoord cta = rasterize(linear, tiles_m, tiles_n, c.swizzle);
    Bytes smem(std::size_t(kernel_smem_bytes(c.kind, t.cta_m, t.cta_n, t.cta_k, t.stages, 4)), 0);
    std::vector<WarpFragment> acc(std::size_t(t.warps()) * (t.warp_m / 16) * (t.warp_n / 8),
                                  WarpFragment(4));
    const int ktiles = c.kind == GemmKernel::Bsr ? o.bsr.row_ptr[cta.tm + 1] - o.bsr.row_ptr[cta.tm]
                                                 : c.k / t.cta_k;
    for (int kt = 0; kt < ktiles; ++kt) {
      const std::uint32_t st = std::uint32_t((kt % t.stages) * stage);
      int kcol = kt * t.cta_k;  // B's columns for this k-tile
      if (c.kind == GemmKernel::Dense) {
        load_tile(smem, st,
                  reinterpret_cast<const std::uint8_t*>(
                      &a_dense[std::size_t(cta.tm) * t.cta_m * c.k + kcol]),
                  std::size_t(c.k) * 2, t.cta_m, a_row);
      } else if (sp) {
        load_tile(smem, st,
                  reinterpret_cast<const std::uint8_t*>(
                      &o.sp.values[std::size_t(cta.tm) * t.cta_m * (c.k / 2) + kcol / 2]),
                  std::size_t(c.k), t.cta_m, a_row);
        std::memcpy(&smem[st + a_bytes],
                    reinterpret_cast<const std::uint8_t*>(o.sp.meta.data()) +
                        meta_block_offset(cta.tm, kt, ktiles, t.cta_m, t.cta_k),
                    std::size_t(meta_bytes));
      } else {
        const int blk = o.bsr.row_ptr[cta.tm] + kt;
        kcol = o.bsr.col_idx[blk] * t.cta_k;
        load_tile(smem, st,
                  reinterpret_cast<const std::uint8_t*>(
                      &o.bsr.values[std::size_t(blk) * t.cta_m * t.cta_k]),
                  std::size_t(t.cta_k) * 2, t.cta_m, a_row);
      }
      load_tile(
          smem, st + a_bytes + meta_bytes,
          reinterpret_cast<const std::uint8_t*>(&o.b[std::size_t(cta.tn) * t.cta_n * c.k + kcol]),
          std::size_t(c.k) * 2, t.cta_n, b_row);
      for (int w = 0; w < t.warps(); ++w) {
        const int wm0 = warp_row0(w, t.cta_m, t.warp_m),
                  wn0 = warp_col0(w, t.cta_m, t.warp_m, t.warp_n);
        const int mi = t.warp_m / 16, ni = t.warp_n / 8;
        for (int ks = 0; ks < t.cta_k / k_sub; ++ks) {
          std::uint32_t addr[32];
          std::vector<WarpFragment> af, bf, ef;
          for (int i = 0; i < mi; ++i) {
            for (int l = 0; l < 32; ++l)
              addr[l] =
                  st + swizzled_offset(a_ldm_row(l, wm0, i), a_ldm_chunk(l, ks), a_row, t.cta_m);
            af.push_back(ldmatrix_x4(smem, addr));
            WarpFragment m(1);
            for (int l = 0; l < 32 && sp; ++l)
              std::memcpy(&m.at(l, 0),
                          &smem[st + a_bytes + 4 * meta_word(l, wm0 / 16 + i, ks, t.cta_k / 32)],
                          4);
            ef.push_back(m);
          }
          const std::uint32_t sb = st + a_bytes + meta_bytes;
          for (int j = 0; j < ni; j += sp ? 1 : 2) {
            for (int l = 0; l < 32; ++l)
              addr[l] = sb + (sp ? swizzled_offset(b32_ldm_row(l, wn0, j), b32_ldm_chunk(l, ks),
                                                   b_row, t.cta_n)
                                 : swizzled_offset(b16_ldm_row(l, wn0, j), b16_ldm_chunk(l, ks),
                                                   b_row, t.cta_n));
            const WarpFragment r = ldmatrix_x4(smem, addr);
            if (sp) {
              bf.push_back(r);
              continue;
            }
            WarpFragment b0(2), b1(2);
            for (int l = 0; l < 32; ++l) {
              b0.at(l, 0) = r.at(l, 0), b0.at(l, 1) = r.at(l, 1);
              b1.at(l, 0) = r.at(l, 2), b1.at(l, 1) = r.at(l, 3);
            }
            bf.push_back(b0);
            bf.push_back(b1);
          }
          for (int i = 0; i < mi; ++i)
            for (int j = 0; j < ni; ++j) {
              WarpFragment& d = acc[(std::size_t(w) * mi + i) * ni + j];
              d = sp ? functional::mma_sp(shape, functional::MmaType::F16, af[i], bf[j], d, ef[i],
                                          0, model)
                     : functional::mma_sync(shape, functional::MmaType::F16, af[i], bf[j], d,
                                            model);
            }
        }
      }
    }
    // Epilogue: stage through shared memory, then full 16-byte chunks to global.
    Bytes staged(std::size_t(epilogue_bytes(t.cta_m, t.cta_n, c.out_bytes)), 0);
    for (int w = 0; w < t.warps(); ++w) {
      const int wm0 = warp_row0(w, t.cta_m, t.warp_m),
                wn0 = warp_col0(w, t.cta_m, t.warp_m, t.warp_n);
      const int mi = t.warp_m / 16, ni = t.warp_n / 8;
      for (int i = 0; i < mi; ++i)
        for (int j = 0; j < ni; ++j)
          for (int l = 0; l < 32; ++l)
            for (int r = 0; r < 4; ++r) {
              const std::uint32_t v = acc[(std::size_t(w) * mi + i) * ni + j].at(l, r);
              const int off =
                  epilogue_offset(e, acc_row(l, wm0, i, r), acc_col(l, wn0, j, r), c.transposed);
              const std::uint32_t h = numerics::encode(
                  numerics::FloatFormat::FP16, numerics::decode(numerics::FloatFormat::FP32, v),
                  numerics::Rounding::NearestEven);
              std::memcpy(
                  &staged[off],
                  c.out_bytes == 4 ? static_cast<const void*>(&v) : static_cast<const void*>(&h),
                  std::size_t(c.out_bytes));
            }
    }
    for (int i = 0; i < e.rows * e.chunks_per_row(); ++i) {
      const int row = i / e.chunks_per_row(), chunk = i % e.chunks_per_row();
      std::memcpy(&out[epilogue_global_offset(e, row, chunk, cta.tm, cta.tn, t.cta_m, t.cta_n, c.m,
                                              c.n, c.transposed)],
                  &staged[std::size_t(row) * e.stride() + chunk * 16], 16);
    }
  }
  return out;
}

void check_case(const Case& c) {
  const Operands o = make_operands(c);
  const numerics::AccumulationModel model =
      numerics::accumulation_preset("h100", numerics::FloatFormat::FP16);
  const Bytes got = emulate(c, o, model);
  // gemm_values takes the sparse operand second (its b): the 2:4 kernel's A goes there and
  // the result comes back transposed. Products commute, so the values are the same.
  const bool sparse = c.kind == GemmKernel::Sparse24;
  functional::GemmValuesRequest req;
  req.m = sparse ? c.n : c.m, req.n = sparse ? c.m : c.n, req.k = c.k;
  req.k_per_instruction = sparse ? 32 : 16;
  req.model = model;
  if (sparse) req.sparse_b = sparse::NmPattern{2, 4};
  const std::vector<std::uint32_t> d =
      sparse ? functional::gemm_values(req, widen(o.b), widen(o.a_logical))
             : functional::gemm_values(req, widen(o.a_logical), widen(o.b));
  int bad = 0;
  for (int r = 0; r < c.m; ++r)
    for (int col = 0; col < c.n; ++col) {
      const std::uint32_t want32 =
          sparse ? d[std::size_t(col) * c.m + r] : d[std::size_t(r) * c.n + col];
      const std::size_t at = c.transposed ? std::size_t(col) * c.m + r : std::size_t(r) * c.n + col;
      std::uint32_t gotv = 0, want = want32;
      std::memcpy(&gotv, &got[at * c.out_bytes], std::size_t(c.out_bytes));
      if (c.out_bytes == 2)
        want = numerics::encode(numerics::FloatFormat::FP16,
                                numerics::decode(numerics::FloatFormat::FP32, want32),
                                numerics::Rounding::NearestEven);
      bad += gotv != want;
    }
  INFO(kernel_name(c.kind) << " tile " << c.tile.str() << " problem " << c.m << "x" << c.n << "x"
                           << c.k << (c.transposed ? " D^T" : " D") << " out " << c.out_bytes * 8
                           << " bit");
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("emulated_kernels_equal_the_functional_model_every_tile", "[validation]") {
  for (GemmKernel kind : {GemmKernel::Dense, GemmKernel::Sparse24, GemmKernel::Bsr})
    for (const KernelTile& t : compiled_tiles(kind)) {     // BSR: also its 32x32-block tile
      const int ktiles = kind == GemmKernel::Bsr ? 4 : 2;  // BSR keeps 2 of 4 blocks per row
      check_case(Case{kind, t, 2 * t.cta_m, 3 * t.cta_n, ktiles * t.cta_k,
                      kind != GemmKernel::Dense, 4, 2});
    }
}

TEST_CASE("emulated_kernels_fp16_output_and_other_layouts", "[validation]") {
  const KernelTile t = compiled_tiles().back();  // the smallest tile: quick
  for (GemmKernel kind : {GemmKernel::Dense, GemmKernel::Sparse24, GemmKernel::Bsr})
    for (bool transposed : {false, true}) {
      check_case(Case{kind, t, 3 * t.cta_m, 2 * t.cta_n, 4 * t.cta_k, transposed, 2, 1});
      check_case(Case{kind, t, 3 * t.cta_m, 2 * t.cta_n, 4 * t.cta_k, transposed, 4, 8});
    }
  const KernelTile b = compiled_tiles(GemmKernel::Bsr).back();  // 32x32 blocks
  for (bool transposed : {false, true})
    check_case(Case{GemmKernel::Bsr, b, 3 * b.cta_m, 2 * b.cta_n, 4 * b.cta_k, transposed, 2, 1});
}
