// `stcsim presets` and `stcsim components`: what a config can name.
#include <algorithm>
#include <iostream>

#include "models/kernels/i_kernel.h"
#include "sim/cli/commands.h"
#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

Command add_presets_command(CLI::App& app) {
  app.add_subcommand("presets", "List the built-in GPU presets");
  return [] {
    for (const auto& name : preset_names()) {
      const Config c = load_arch(name);
      std::cout << name << "\t" << c.description << "\n";
      for (const auto& s : c.sources) std::cout << "\tsource: " << s << "\n";
    }
    return 0;
  };
}

Command add_components_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "components",
      "List every registered component with its parameters, units, defaults and descriptions");
  auto kind = std::make_shared<std::string>();
  sub->add_option("--kind", *kind, "only this kind (a config section, or `kernel`)");
  return [kind] {
    const auto& cat = ComponentCatalog::instance();
    auto kinds = cat.kinds();
    kinds.push_back("kernel");
    if (!kind->empty() && std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
      std::string list;
      for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
      throw InputError("components --kind: unknown kind '" + *kind + "' (kinds: " + list + ")");
    }
    if (kind->empty() || *kind == "kernel")
      for (const IKernel* kn : KernelRegistry::all()) {
        std::cout << "kernel / " << kn->name() << "\n  " << kn->description()
                  << "\n  contract: plans its launches and CTA programs for one GEMM "
                     "(models/kernels/i_kernel.h)"
                  << "\n  chosen by: mapping.kernel=" << kn->name();
        if (kn->auto_priority() > 0)
          std::cout << ", or by mapping.kernel=auto (priority " << kn->auto_priority() << ")";
        std::cout << "\n";
        for (const auto& d : kn->params())
          std::cout << "    reads mapping." << d.key << "  [" << d.unit << "] " << d.description
                    << "\n";
        std::cout << "\n";
      }
    for (const auto& k : cat.kinds()) {
      if (!kind->empty() && k != *kind) continue;
      for (const auto& name : cat.impls(k)) {
        const auto& info = cat.get(k, name);
        std::cout << k << " / " << name << (info.is_default ? "  (default)" : "") << "\n  "
                  << info.description << "\n  contract: " << info.contract << "\n";
        for (const auto& d : info.params) {
          std::cout << "    " << k << "." << d.key << "  [" << to_string(d.type) << ", " << d.unit
                    << "] ";
          std::cout << (d.default_value ? "default " + format_value(*d.default_value) : "required");
          if (!d.choices.empty()) {
            std::cout << " (";
            for (std::size_t i = 0; i < d.choices.size(); ++i)
              std::cout << (i ? "|" : "") << d.choices[i];
            std::cout << ")";
          }
          std::cout << "\n        " << d.description << "\n";
        }
        std::cout << "\n";
      }
    }
    return 0;
  };
}

}  // namespace stcsim
