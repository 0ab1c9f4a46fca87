#include "sim/python/bindings.h"

namespace stcsim::python {

// Through the text and Python's own json module: numbers come back exactly as they
// read in stats.json (nlohmann writes the shortest round-trip form of a double), and
// there is one conversion to trust instead of a hand-written walk of every JSON type.
pybind11::object json_to_python(const nlohmann::json& j) {
  return pybind11::module_::import("json").attr("loads")(
      j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace stcsim::python
