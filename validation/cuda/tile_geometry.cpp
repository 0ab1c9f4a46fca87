#include "validation/cuda/tile_geometry.h"

#include <sstream>

#include "sim/core/input_error.h"

namespace stcsim::validation {

std::string KernelTile::str() const {
  std::ostringstream os;
  os << cta_m << "x" << cta_n << "x" << cta_k << "/" << warp_m << "x" << warp_n << " s" << stages;
  return os.str();
}

std::vector<KernelTile> compiled_tiles() {
  std::vector<KernelTile> t;
#define STCSIM_TILE_ENTRY(cm, cn, ck, wm, wn, s) t.push_back(KernelTile{cm, cn, ck, wm, wn, s});
  STCSIM_VALIDATION_TILES(STCSIM_TILE_ENTRY)
#undef STCSIM_TILE_ENTRY
  return t;
}

std::vector<KernelTile> compiled_tiles(GemmKernel k) {
  std::vector<KernelTile> t = compiled_tiles();
  if (k == GemmKernel::Bsr) {
#define STCSIM_TILE_ENTRY(cm, cn, ck, wm, wn, s) t.push_back(KernelTile{cm, cn, ck, wm, wn, s});
    STCSIM_BSR_ONLY_TILES(STCSIM_TILE_ENTRY)
#undef STCSIM_TILE_ENTRY
  }
  return t;
}

KernelTile parse_tile(const std::string& text) {
  std::string list;
  for (const auto& c : compiled_tiles()) {
    const std::string name = std::to_string(c.cta_m) + "x" + std::to_string(c.cta_n) + "x" +
                             std::to_string(c.cta_k) + "/" + std::to_string(c.warp_m) + "x" +
                             std::to_string(c.warp_n) + "/s" + std::to_string(c.stages);
    if (name == text) return c;
    list += " " + name;
  }
  throw InputError("--tile '" + text + "': not a compiled kernel tile; compiled:" + list);
}

const char* kernel_name(GemmKernel k) {
  switch (k) {
    case GemmKernel::Dense:
      return "stcsim_dense";
    case GemmKernel::Sparse24:
      return "stcsim_sp24";
    case GemmKernel::Bsr:
      return "stcsim_bsr";
  }
  return "?";
}

}  // namespace stcsim::validation
