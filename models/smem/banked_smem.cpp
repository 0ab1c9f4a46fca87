#include "models/smem/banked_smem.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> BankedSmemSpec::params() {
  const BankedSmemSpec d;  // defaults: the struct's initialisers (banked_smem.h)
  return {
      int_param("banks", "banks", d.banks, 1, 256, "number of shared-memory banks per SM"),
      int_param("bank_bytes", "bytes", d.bank_bytes, 1, 64, "width of one bank per cycle"),
      int_param("latency_cycles", "cycles", d.latency, 0, 1000,
                "cycles from the last wavefront of an ldmatrix to its registers"),
      float_param("matrix_read_bytes_per_cycle", "bytes/cycle", d.matrix_read_bytes_per_cycle, 0,
                  1e6,
                  "width of the tensor cores' own path for descriptor-based operand reads (wgmma); "
                  "0: they share the banks' port"),
      float_param("fill_write_bytes_per_cycle", "bytes/cycle", d.fill_write_bytes_per_cycle, 0, 1e6,
                  "bytes an asynchronous copy (cp.async, TMA) writes into the banks per "
                  "port cycle as its data arrives from the L2 (0: the port's width)")};
}

BankedSmemSpec BankedSmemSpec::from(const ParamSet& p) {
  return {int(p.get_int("banks")), int(p.get_int("bank_bytes")), int(p.get_int("latency_cycles")),
          p.get_float("matrix_read_bytes_per_cycle"), p.get_float("fill_write_bytes_per_cycle")};
}

int BankedSmem::wavefronts(const std::vector<std::uint32_t>& addrs, int bytes_per_thread) const {
  // Distinct words per bank; two threads reading the same word share it (broadcast).
  std::map<int, std::set<std::uint32_t>> words;
  for (auto a : addrs)
    for (int b = 0; b < bytes_per_thread; b += spec_.bank_bytes) {
      const std::uint32_t word = (a + b) / spec_.bank_bytes;
      words[int(word % spec_.banks)].insert(word);
    }
  std::size_t worst = 0;
  for (const auto& [_, w] : words) worst = std::max(worst, w.size());
  // A phase moves at most banks*bank_bytes bytes even when conflict-free.
  return std::max<int>(1, int(worst));
}

static Registrar<ISharedMemory> reg_banked{
    ComponentInfo{"smem", "banked",
                  "serves warp access phases at one distinct word per bank per cycle, first "
                  "come first served",
                  "banked shared memory with ldmatrix-style phases", BankedSmemSpec::params(),
                  true},
    [](const ParamSet& p, const BuildContext&) {
      return std::make_unique<BankedSmem>(BankedSmemSpec::from(p));
    }};

}  // namespace stcsim
