// stcsim.presets() and stcsim.components(): what a config can name, from the same
// catalogue `stcsim presets` and `stcsim components` print.
#include <algorithm>

#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"
#include "sim/python/bindings.h"

namespace py = pybind11;

namespace stcsim::python {

namespace {

nlohmann::json param_json(const ParamDecl& d) {
  nlohmann::json j = {{"key", d.key},
                      {"type", to_string(d.type)},
                      {"unit", d.unit},
                      {"description", d.description}};
  // A required parameter has no default: None in Python.
  j["default"] =
      d.default_value ? nlohmann::json(format_value(*d.default_value)) : nlohmann::json();
  if (!d.choices.empty()) j["choices"] = d.choices;
  return j;
}

nlohmann::json components_json(const std::string& kind) {
  const auto& cat = ComponentCatalog::instance();
  const auto kinds = cat.kinds();
  if (!kind.empty() && std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string list;
    for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
    throw InputError("components(kind='" + kind + "'): unknown kind (kinds: " + list + ")");
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& k : kinds) {
    if (!kind.empty() && k != kind) continue;
    for (const auto& impl : cat.impls(k)) {
      const ComponentInfo& info = cat.get(k, impl);
      nlohmann::json c = {{"kind", k},
                          {"impl", impl},
                          {"default", info.is_default},
                          {"description", info.description},
                          {"contract", info.contract},
                          {"params", nlohmann::json::array()}};
      for (const auto& d : info.params) c["params"].push_back(param_json(d));
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

void bind_catalog(py::module_& m) {
  m.def("presets", &preset_names, "The built-in GPU presets' names (`stcsim presets`)");
  m.def(
      "components", [](const std::string& kind) { return json_to_python(components_json(kind)); },
      py::arg("kind") = "",
      "Every registered component (or those of one config section) with its parameters: key, "
      "type, unit, default (None when required), choices, description (`stcsim components`)");
}

}  // namespace stcsim::python
