#include "sim/core/registry.h"

#include <algorithm>

namespace stcsim {

ComponentCatalog& ComponentCatalog::instance() {
  static ComponentCatalog c;
  return c;
}

void ComponentCatalog::add(ComponentInfo info) { infos_.push_back(std::move(info)); }

std::vector<std::string> ComponentCatalog::kinds() const {
  std::vector<std::string> out;
  for (const auto& i : infos_)
    if (std::find(out.begin(), out.end(), i.kind) == out.end()) out.push_back(i.kind);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> ComponentCatalog::impls(const std::string& kind) const {
  std::vector<std::string> out;
  for (const auto& i : infos_)
    if (i.kind == kind) out.push_back(i.impl);
  std::sort(out.begin(), out.end());
  return out;
}

static std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

const ComponentInfo& ComponentCatalog::get(const std::string& kind, const std::string& impl) const {
  for (const auto& i : infos_)
    if (i.kind == kind && i.impl == impl) return i;
  auto names = impls(kind);
  if (names.empty())
    throw InputError("unknown component kind '" + kind + "' (kinds: " + join(kinds()) + ")");
  throw InputError("unknown " + kind + " implementation '" + impl + "' (registered: " +
                   join(names) + "; nearest: " + nearest_name(impl, names) + ")");
}

const ComponentInfo& ComponentCatalog::default_impl(const std::string& kind) const {
  const ComponentInfo* first = nullptr;
  for (const auto& i : infos_) {
    if (i.kind != kind) continue;
    if (i.is_default) return i;
    if (!first) first = &i;
  }
  if (!first)
    throw InputError("unknown component kind '" + kind + "' (kinds: " + join(kinds()) + ")");
  return *first;
}

}  // namespace stcsim
