// Which accumulation model reproduces a bit capture: every model of a grid (block size,
// extra alignment bits, rounding, normalisation inside a block, where c joins) replayed
// over a sample of each group's records, ranked by the records it matches bit for bit.
// This is how a numerics preset is set from a GPU's capture (docs/numerics.md), or how
// a report says that no model of the family matches, and where.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/numerics/accumulation_model.h"
#include "validation/bitcapture/capture_file.h"

namespace stcsim::validation::bits {

struct SearchGrid {
  std::vector<int> block_sizes{1, 2, 4, 8, 16, 32};
  std::vector<int> extra_bits{0, 1, 2, 3, 4, 5, 6, 8, numerics::kExactAlignmentBits};
  std::vector<numerics::Rounding> roundings{numerics::Rounding::TowardZero,
                                            numerics::Rounding::NearestEven};
  std::vector<bool> normalize{false, true};
  std::vector<bool> c_first{true, false};
  std::vector<bool> align_on_exponents{false, true};
  std::vector<bool> overflow_to_infinity{false, true};
  std::vector<bool> sparse_blocks_by_position{false, true};  // matters for sparse groups only
  // Records replayed per group and operand category (the first ones of each category):
  // the wide wgmma groups cost a full m64 x n256 replay per record and model.
  int records_per_category = 16;
};

struct ModelScore {
  numerics::AccumulationModel model;
  std::int64_t records = 0, exact_records = 0, elements = 0, exact_elements = 0;
};

struct GroupSearch {
  std::string group;
  std::vector<ModelScore> ranked;  // best first: exact records, then exact elements
};

// One model's name as the search writes it: "b16 x2 rz norm=0 c=first".
std::string describe(const numerics::AccumulationModel& m);

// Every model of the grid that validate() accepts, over the capture's groups (only those
// whose name contains `only`, when it is not empty). "exact"-category records are left out:
// every model reproduces them by construction.
std::vector<GroupSearch> search_models(const Capture& c, const SearchGrid& grid,
                                       const std::string& only = "");

// The best `top` models per group, and the models that are best over every group at once.
nlohmann::json to_json(const std::vector<GroupSearch>& r, int top);
void print_search(std::ostream& os, const std::vector<GroupSearch>& r, int top);

}  // namespace stcsim::validation::bits
