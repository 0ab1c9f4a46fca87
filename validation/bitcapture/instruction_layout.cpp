#include "validation/bitcapture/instruction_layout.h"

#include <stdexcept>

#include "models/functional/fragment_layout.h"
#include "models/functional/mma_sp.h"
#include "validation/bitcapture/wgmma_smem.h"

namespace stcsim::validation::bits {

using functional::MmaType;
using functional::Shape;
using functional::WarpFragment;

const char* to_string(Instr i) {
  switch (i) {
    case Instr::MmaSync:
      return "mma_sync";
    case Instr::MmaSp:
      return "mma_sp";
    case Instr::Wgmma:
      return "wgmma";
    case Instr::WgmmaSp:
      return "wgmma_sp";
  }
  return "?";
}

std::string GroupSpec::name() const {
  return std::string(to_string(instr)) + "_m" + std::to_string(m()) + "n" + std::to_string(n) +
         "k" + std::to_string(k()) + "_" + functional::to_string(type);
}

std::string GroupSpec::ptx() const {
  const std::string t = functional::to_string(type);
  const std::string shape =
      "m" + std::to_string(m()) + "n" + std::to_string(n) + "k" + std::to_string(k());
  switch (instr) {
    case Instr::MmaSync:
      return "mma.sync.aligned." + shape + ".row.col.f32." + t + "." + t + ".f32";
    case Instr::MmaSp:
      return "mma.sp::ordered_metadata.sync.aligned." + shape + ".row.col.f32." + t + "." + t +
             ".f32 (selector 0)";
    case Instr::Wgmma:
      return "wgmma.mma_async.sync.aligned." + shape + ".f32." + t + "." + t +
             " (A registers, B K-major no swizzle, scale-d 1)";
    case Instr::WgmmaSp:
      return "wgmma.mma_async.sp.sync.aligned." + shape + ".f32." + t + "." + t +
             " (A registers, selector 0, B K-major no swizzle, scale-d 1)";
  }
  return "?";
}

int GroupSpec::b_words() const {
  if (warpgroup()) return k() * n / 2;
  return 32 * functional::b_regs(sparse() ? Shape::M16N8K32 : Shape::M16N8K16, type);
}

GroupSpec parse_group(const std::string& instruction, const std::string& dtype, int n) {
  GroupSpec g;
  if (instruction == "mma_sync")
    g.instr = Instr::MmaSync;
  else if (instruction == "mma_sp")
    g.instr = Instr::MmaSp;
  else if (instruction == "wgmma")
    g.instr = Instr::Wgmma;
  else if (instruction == "wgmma_sp")
    g.instr = Instr::WgmmaSp;
  else
    throw std::runtime_error("unknown instruction '" + instruction + "'");
  if (dtype == "f16")
    g.type = MmaType::F16;
  else if (dtype == "bf16")
    g.type = MmaType::BF16;
  else
    throw std::runtime_error("unknown dtype '" + dtype + "' (f16, bf16)");
  const bool n_ok = g.warpgroup() ? (n >= 8 && n <= 256 && n % 8 == 0) : n == 8;
  if (!n_ok) throw std::runtime_error(instruction + " with n " + std::to_string(n));
  g.n = n;
  return g;
}

namespace {

// The warp-level shape whose A fragment (and metadata) each warp of the instruction holds.
Shape warp_shape(const GroupSpec& g) { return g.sparse() ? Shape::M16N8K32 : Shape::M16N8K16; }

// Rows r0..r0+15 of a row-major matrix with `cols` columns.
std::vector<std::uint32_t> rows16(const std::vector<std::uint32_t>& m, int r0, int cols) {
  return {m.begin() + std::size_t(r0) * cols, m.begin() + std::size_t(r0 + 16) * cols};
}

// Columns c0..c0+7 of rows r0..r0+15 of a row-major matrix with `cols` columns.
std::vector<std::uint32_t> block16x8(const std::vector<std::uint32_t>& m, int r0, int c0,
                                     int cols) {
  std::vector<std::uint32_t> out;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 8; ++c) out.push_back(m[std::size_t(r0 + r) * cols + c0 + c]);
  return out;
}

// Words of thread `lane` of warp `w` from a warp fragment, at `per_thread` words a thread.
void put_fragment(const WarpFragment& f, int w, int per_thread, int first, std::uint32_t* words) {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < f.per_lane; ++i)
      words[std::size_t(w * 32 + lane) * per_thread + first + i] = f.at(lane, i);
}
WarpFragment get_fragment(const std::uint32_t* words, int w, int per_thread, int first, int regs) {
  WarpFragment f(regs);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < regs; ++i)
      f.at(lane, i) = words[std::size_t(w * 32 + lane) * per_thread + first + i];
  return f;
}

}  // namespace

void pack_accumulator(const GroupSpec& g, const std::vector<std::uint32_t>& d,
                      std::uint32_t* words) {
  const int per_thread = g.cd_words() / g.threads();
  for (int w = 0; w < g.m() / 16; ++w)
    for (int j = 0; j < g.n / 8; ++j)
      put_fragment(functional::cd_to_fragment(block16x8(d, 16 * w, 8 * j, g.n)), w, per_thread,
                   4 * j, words);
}

std::vector<std::uint32_t> unpack_accumulator(const GroupSpec& g, const std::uint32_t* words) {
  const int per_thread = g.cd_words() / g.threads();
  std::vector<std::uint32_t> d(std::size_t(g.m()) * g.n);
  for (int w = 0; w < g.m() / 16; ++w)
    for (int j = 0; j < g.n / 8; ++j) {
      const auto block = functional::cd_from_fragment(get_fragment(words, w, per_thread, 4 * j, 4));
      for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) d[std::size_t(16 * w + r) * g.n + 8 * j + c] = block[r * 8 + c];
    }
  return d;
}

void pack_operands(const GroupSpec& g, const LogicalOperands& ops, std::uint32_t* record) {
  const Shape ws = warp_shape(g);
  for (int w = 0; w < g.m() / 16; ++w) {
    const auto a = rows16(ops.a, 16 * w, g.k());
    if (g.sparse()) {
      const auto f = functional::sparse_a_to_fragments(ws, g.type, a, 0);
      put_fragment(f.a, w, 4, 0, record + g.a_offset());
      put_fragment(f.e, w, 1, 0, record + g.e_offset());
    } else {
      put_fragment(functional::a_to_fragment(ws, g.type, a), w, 4, 0, record + g.a_offset());
    }
  }
  std::uint32_t* b = record + g.b_offset();
  if (g.warpgroup()) {
    for (int i = 0; i < g.b_words(); ++i) b[i] = 0;
    for (int k = 0; k < g.k(); ++k)
      for (int n = 0; n < g.n; ++n) {
        const int h = wgmma_b_half_index(k, n, g.k());
        b[h / 2] |= (ops.b[std::size_t(k) * g.n + n] & 0xFFFFu) << (16 * (h % 2));
      }
  } else {
    const WarpFragment f = functional::b_to_fragment(ws, g.type, ops.b);
    for (std::size_t i = 0; i < f.regs.size(); ++i) b[i] = f.regs[i];
  }
  pack_accumulator(g, ops.c, record + g.c_offset());
}

LogicalOperands unpack_operands(const GroupSpec& g, const std::uint32_t* record) {
  const Shape ws = warp_shape(g);
  LogicalOperands ops;
  for (int w = 0; w < g.m() / 16; ++w) {
    const WarpFragment a = get_fragment(record + g.a_offset(), w, 4, 0, 4);
    if (!g.sparse()) {
      const auto rows = functional::a_from_fragment(ws, g.type, a);
      ops.a.insert(ops.a.end(), rows.begin(), rows.end());
      continue;
    }
    const sparse::CompressedNm kept = functional::kept_a_from_fragments(
        ws, g.type, a, get_fragment(record + g.e_offset(), w, 1, 0, 1), 0);
    const auto rows = sparse::uncompress(kept);
    ops.a.insert(ops.a.end(), rows.begin(), rows.end());
    // The warps' 16-row slices stacked into the group's m rows.
    if (w == 0) {
      ops.a_kept = kept;
    } else {
      ops.a_kept.rows += kept.rows;
      ops.a_kept.values.insert(ops.a_kept.values.end(), kept.values.begin(), kept.values.end());
      ops.a_kept.indices.insert(ops.a_kept.indices.end(), kept.indices.begin(), kept.indices.end());
    }
  }
  const std::uint32_t* b = record + g.b_offset();
  if (g.warpgroup()) {
    ops.b.resize(std::size_t(g.k()) * g.n);
    for (int k = 0; k < g.k(); ++k)
      for (int n = 0; n < g.n; ++n) {
        const int h = wgmma_b_half_index(k, n, g.k());
        ops.b[std::size_t(k) * g.n + n] = (b[h / 2] >> (16 * (h % 2))) & 0xFFFFu;
      }
  } else {
    WarpFragment f(g.b_words() / 32);
    f.regs.assign(b, b + g.b_words());
    ops.b = functional::b_from_fragment(ws, g.type, f);
  }
  ops.c = unpack_accumulator(g, record + g.c_offset());
  return ops;
}

}  // namespace stcsim::validation::bits
