#include "models/functional/mma_sync.h"

#include <string>

#include "models/functional/fragment_layout.h"
#include "models/functional/mma_reference.h"
#include "sim/core/input_error.h"

namespace stcsim::functional {

WarpFragment mma_sync(Shape s, MmaType t, const WarpFragment& a, const WarpFragment& b,
                      const WarpFragment& c, const numerics::AccumulationModel& model) {
  if (!dense_supported(s, t))
    throw InputError(std::string("no dense mma.sync ") + to_string(s) + " for " + to_string(t));
  const int k = k_of(s);
  return cd_to_fragment(mma_reference(t, 16, 8, k, a_from_fragment(s, t, a),
                                      b_from_fragment(s, t, b), cd_from_fragment(c), model));
}

}  // namespace stcsim::functional
