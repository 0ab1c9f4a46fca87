// The parts of the `_stcsim` extension module, each binding one concern of the
// simulator's SystemC-free library code (sim/python/module.cpp puts them together).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // std::vector, std::optional <-> list, None

#include <nlohmann/json.hpp>

namespace stcsim::python {

void bind_config(pybind11::module_& m);
void bind_catalog(pybind11::module_& m);
void bind_workloads(pybind11::module_& m);

// A JSON value as the Python objects json.loads gives (dict, list, str, int, float,
// bool, None), so stats and configs read the same from the extension and from files.
pybind11::object json_to_python(const nlohmann::json& j);

}  // namespace stcsim::python
