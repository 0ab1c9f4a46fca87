// Component registry. One interface per kind of component; implementations register
// themselves by name at static-initialisation time (no hand-kept list), each with its
// declared parameters. The config picks an implementation per kind with `impl:`.
//
// Static registration needs the object files kept at link time: executables link the
// model library as a whole archive (see models/CMakeLists.txt).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/input_error.h"
#include "sim/core/nearest.h"
#include "sim/core/param.h"

namespace stcsim {

// What a factory may need beyond its own section: figures owned by another section.
struct BuildContext {
  // The clock one simulated cycle lasts: gpu.measured_clock_mhz when set, else
  // gpu.clock_mhz. It converts ns and GB/s into cycles.
  double core_clock_mhz = 1000.0;
  // gpu.clock_mhz, the preset's clock (the power model's voltage curve ends there), and
  // gpu.measured_clock_mhz (0: none, the power controller settles the clock itself).
  double preset_clock_mhz = 0;  // 0: core_clock_mhz
  double measured_clock_mhz = 0;
};

struct ComponentInfo {
  std::string kind;      // config section, e.g. "l2"
  std::string impl;      // implementation name, e.g. "sectored_lru"
  std::string contract;  // one line: what an implementation of this kind must do
  std::string description;
  std::vector<ParamDecl> params;
  bool is_default = false;  // used when the config section gives no `impl:`
};

// Every registered implementation of every kind, for listing and config validation.
class ComponentCatalog {
 public:
  static ComponentCatalog& instance();
  void add(ComponentInfo info);
  std::vector<std::string> kinds() const;
  std::vector<std::string> impls(const std::string& kind) const;
  // Throws InputError listing the registered names when kind or impl is unknown.
  const ComponentInfo& get(const std::string& kind, const std::string& impl) const;
  const ComponentInfo& default_impl(const std::string& kind) const;
  const std::vector<ComponentInfo>& all() const { return infos_; }

 private:
  std::vector<ComponentInfo> infos_;
};

template <class Interface>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(const ParamSet&, const BuildContext&)>;

  static void add(const std::string& impl, Factory f) { factories()[impl] = std::move(f); }

  static std::unique_ptr<Interface> create(const std::string& impl, const ParamSet& params,
                                           const BuildContext& ctx = {}) {
    auto& fs = factories();
    auto it = fs.find(impl);
    if (it == fs.end()) {
      std::vector<std::string> names;
      for (auto& [n, _] : fs) names.push_back(n);
      std::string list;
      for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw InputError("unknown implementation '" + impl + "' (registered: " + list + ")");
    }
    return it->second(params, ctx);
  }

  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (auto& [n, _] : factories()) out.push_back(n);
    return out;
  }

 private:
  static std::map<std::string, Factory>& factories() {
    static std::map<std::string, Factory> m;
    return m;
  }
};

// Declares an implementation: `static Registrar<IL2Cache> reg{info, factory};`
template <class Interface>
struct Registrar {
  Registrar(ComponentInfo info, typename Registry<Interface>::Factory f) {
    Registry<Interface>::add(info.impl, std::move(f));
    ComponentCatalog::instance().add(std::move(info));
  }
};

// Declares a section whose parameters are read by an assembly (gpu, sm) rather than a
// swappable implementation: it is listed and validated like any other component.
struct CatalogEntry {
  explicit CatalogEntry(ComponentInfo info) { ComponentCatalog::instance().add(std::move(info)); }
};

}  // namespace stcsim
