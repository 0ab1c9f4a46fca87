#include "sim/core/stat.h"

namespace stcsim {

const char* to_string(StatTotal t) {
  switch (t) {
    case StatTotal::kSum:
      return "sum";
    case StatTotal::kMax:
      return "max";
    case StatTotal::kWeightedMean:
      return "cycle-weighted mean";
    case StatTotal::kRecomputed:
      return "recomputed";
    case StatTotal::kLabel:
      return "label";
    case StatTotal::kSeparate:
      return "separate";
    case StatTotal::kNone:
      return "per op only";
  }
  return "?";
}

nlohmann::json to_json(const StatValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

void StatSlots::set(const StatInfo& stat, StatValue v) {
  for (auto& [s, value] : values_)
    if (s == &stat) {
      value = std::move(v);
      return;
    }
  values_.emplace_back(&stat, std::move(v));
}

const StatValue* StatSlots::find(const StatInfo& stat) const {
  for (const auto& [s, value] : values_)
    if (s == &stat) return &value;
  return nullptr;
}

}  // namespace stcsim
