#include "validation/bitcapture/plan.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "validation/bitcapture/operand_gen.h"
#include "validation/bitcapture/replay.h"

namespace stcsim::validation::bits {

Capture plan_capture(std::uint64_t seed, double scale, const std::string& only) {
  using functional::MmaType;
  struct Planned {
    GroupSpec spec;
    int records;
  };
  std::vector<Planned> plan;
  for (MmaType t : {MmaType::F16, MmaType::BF16}) {
    plan.push_back({{Instr::MmaSync, t, 8}, 768});
    plan.push_back({{Instr::MmaSp, t, 8}, 768});
  }
  for (Instr i : {Instr::Wgmma, Instr::WgmmaSp})
    for (auto [n, records] : {std::pair{8, 256}, {64, 18}, {256, 6}})
      plan.push_back({{i, MmaType::F16, n}, records});
  // bf16 wgmma (what PyTorch's bf16 matmuls run on Hopper) at fewer records: the
  // accumulation does not depend on N beyond the k-chunks both N cover, and the file
  // must stay under the GPU machine's 16 MiB per returned file.
  for (Instr i : {Instr::Wgmma, Instr::WgmmaSp})
    for (auto [n, records] : {std::pair{8, 128}, {64, 6}})
      plan.push_back({{i, MmaType::BF16, n}, records});

  Capture c;
  c.header = {{"synthetic", false},
              {"seed", seed},
              {"scale", scale},
              {"generator", "validation/bitcapture/plan.cpp (operand categories: operand_gen.h)"}};
  std::mt19937_64 rng(seed);
  for (const Planned& p : plan) {
    if (!only.empty() && ("," + only + ",").find("," + p.spec.name() + ",") == std::string::npos)
      continue;
    CaptureGroup g{p.spec, std::max(kCategories, int(std::lround(p.records * scale))), {}};
    g.words.assign(std::size_t(g.records) * p.spec.record_words(), 0);
    for (int r = 0; r < g.records; ++r) {
      const Category cat = Category(r % kCategories);
      g.record(r)[0] = std::uint32_t(cat);
      pack_operands(p.spec, make_operands(p.spec, cat, rng), g.record(r));
    }
    c.groups.push_back(std::move(g));
  }
  return c;
}

void fill_by_model(Capture& c, const std::string& preset) {
  c.header["synthetic"] = true;
  c.header["d_from_model"] = preset;
  for (CaptureGroup& g : c.groups) {
    const auto model = numerics::accumulation_preset(preset, functional::float_format(g.spec.type));
    for (int r = 0; r < g.records; ++r) {
      const auto d = replay(g.spec, g.record(r), model);
      std::copy(d.begin(), d.end(), g.record(r) + g.spec.d_offset());
    }
  }
}

}  // namespace stcsim::validation::bits
