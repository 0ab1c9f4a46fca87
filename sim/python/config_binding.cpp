// stcsim.Config: a preset or YAML file with `-p`-style overrides, checked in process by
// the code `stcsim run` uses (load_arch, apply_override), so a bad key raises here, with
// the CLI's message, before any simulation starts.
#include <filesystem>

#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "sim/python/bindings.h"
#include "sim/python/config_handle.h"

namespace py = pybind11;

namespace stcsim::python {

namespace {

// A Python value as the text of `-p key=value`. Floats go through repr(), Python's
// shortest round-trip form, which the project's number syntax reads back exactly;
// a bool is checked first because Python's bool is also an int.
std::string override_text(const py::handle& value, const std::string& key) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))
    return py::repr(value).cast<std::string>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  throw py::type_error("Config.set('" + key + "', ...): expected an int, float, bool or str, got " +
                       py::type::of(value).attr("__name__").cast<std::string>());
}

}  // namespace

ConfigHandle ConfigHandle::preset(const std::string& name) {
  preset_text(name);  // throws InputError listing the presets when `name` is not one
  return ConfigHandle(name, load_arch(name));
}

ConfigHandle ConfigHandle::from_yaml(const std::string& path) {
  if (path.empty()) throw InputError("Config.from_yaml: expected a path, got an empty string");
  // Absolute, so the child `stcsim` reads the same file whatever its working folder.
  const std::string abs = std::filesystem::absolute(path).lexically_normal().string();
  return ConfigHandle(abs, load_arch(abs));
}

void ConfigHandle::set(const std::string& assignment) {
  // On a copy: a failed override (an impl whose required keys are missing) must leave
  // this config as it was, and its recorded overrides in step with it.
  Config next = config_;
  apply_override(next, assignment);
  config_ = std::move(next);
  overrides_.push_back(assignment);
}

std::vector<std::string> ConfigHandle::cli_args() const {
  std::vector<std::string> args{"--arch", arch_};
  for (const auto& o : overrides_) {
    args.push_back("-p");
    args.push_back(o);
  }
  return args;
}

void bind_config(py::module_& m) {
  py::class_<ConfigHandle>(m, "Config",
                           "A GPU configuration: a preset or YAML file plus overrides, checked "
                           "as `stcsim run --arch ... -p ...` checks them")
      .def_static("preset", &ConfigHandle::preset, py::arg("name"),
                  "A built-in preset (stcsim.presets() lists them)")
      .def_static("from_yaml", &ConfigHandle::from_yaml, py::arg("path"),
                  "A YAML config file (schema_version 1, optionally `base: <preset>`)")
      .def(
          "set",
          [](ConfigHandle& self, const std::string& key, const py::handle& value) -> ConfigHandle& {
            self.set(key + "=" + override_text(value, key));
            return self;
          },
          py::arg("key"), py::arg("value"), py::return_value_policy::reference_internal,
          "Override `section.key` (as -p section.key=value); raises InputError naming the key "
          "and the nearest valid one. Returns the config, so calls chain")
      .def(
          "copy", [](const ConfigHandle& self) { return self; }, "An independent copy")
      .def(
          "resolved",
          [](const ConfigHandle& self) { return json_to_python(self.config().to_json()); },
          "Every resolved value with its unit and where it came from, as stats.json's `config`")
      .def_property_readonly("name", [](const ConfigHandle& self) { return self.config().name; })
      .def_property_readonly("arch", &ConfigHandle::arch,
                             "The preset name or the absolute path of the YAML file")
      .def_property_readonly("overrides", &ConfigHandle::overrides,
                             "The overrides applied, in order, as `section.key=value`")
      .def("cli_args", &ConfigHandle::cli_args,
           "The `stcsim run` arguments that build this config: --arch and every -p")
      .def("__repr__", [](const ConfigHandle& self) {
        std::string r = "stcsim.Config('" + self.arch() + "'";
        for (const auto& o : self.overrides()) r += ", " + o;
        return r + ")";
      });
}

}  // namespace stcsim::python
