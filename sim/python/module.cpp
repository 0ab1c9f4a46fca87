// `_stcsim`: the compiled half of the Python package `stcsim` (sim/python/stcsim).
#include <pybind11/pybind11.h>

#include "sim/core/input_error.h"
#include "sim/python/bindings.h"

PYBIND11_MODULE(_stcsim, m) {
  m.doc() = "stcsim's library code in process: configs, presets, components, lowering";
  // A config, flag or workload the CLI would refuse with exit status 2 raises this,
  // with the CLI's message (file, line, key and the nearest valid key).
  pybind11::register_exception<stcsim::InputError>(m, "InputError", PyExc_ValueError);
  m.attr("cli_path") = STCSIM_CLI_PATH;  // the `stcsim` built beside this module
  stcsim::python::bind_config(m);
  stcsim::python::bind_catalog(m);
  stcsim::python::bind_workloads(m);
}
