#include "models/ubench/microbenchmark.h"

#include <algorithm>
#include <map>

#include "models/common/median.h"

namespace stcsim {

double UbenchResult::median() const { return samples.empty() ? 0 : median_of(samples); }

nlohmann::json UbenchResult::to_json() const {
  return {{"name", name},       {"metric", metric}, {"unit", unit}, {"value", median()},
          {"samples", samples}, {"params", params}, {"what", what}};
}

namespace {
std::map<std::string, std::unique_ptr<IMicrobenchmark>>& table() {
  static std::map<std::string, std::unique_ptr<IMicrobenchmark>> t;
  return t;
}
}  // namespace

void UbenchRegistry::add(std::unique_ptr<IMicrobenchmark> b) {
  const std::string n = b->name();
  table()[n] = std::move(b);
}

std::vector<const IMicrobenchmark*> UbenchRegistry::all() {
  std::vector<const IMicrobenchmark*> out;
  for (const auto& [_, b] : table()) out.push_back(b.get());
  return out;
}

const IMicrobenchmark* UbenchRegistry::find(const std::string& name) {
  const auto it = table().find(name);
  return it == table().end() ? nullptr : it->second.get();
}

}  // namespace stcsim
