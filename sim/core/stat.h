// Stats registered by reference (gem5's ADD_STAT, SST's documented statistics): each
// stat is declared once, in the file that produces it, with its name, unit, description
// and how it totals over a run. The nested JSON, the totals and the `stcsim stats`
// listing are all written from the declarations; there is no hand-kept list.
//
// Adding a stat is one declaration at namespace scope beside the code that computes it
// (it registers itself at static-init time, like a kernel). A kernel's own counter, with
// no member in OpResult, is a slot its report() sets:
//
//   const OpStat kTmaWait{{"warp_specialized.tma_wait_cycles", "cycles",
//                          "cycles a CTA waited on its TMA loads", StatTotal::kNone,
//                          "kernel warp_specialized_gemm"},
//                         stat_slot<OpResult>()};
//   ...
//   r.stats.set(kTmaWait.info(), wait_cycles);  // in report()
//
// A member of the record is named by field(&OpResult::x) (counter() for an array element,
// computed() for a value derived when written, formula() for a member both the producer
// and the total recompute); a sum, max or cycle-weighted total needs a double member or a
// counter. A dotted name nests ("utilization.tensor" -> {"utilization": {"tensor": ..}}).
// Then add a row for the stat to the README's stats glossary: a test checks the glossary
// against `stcsim stats`, and that stats.json writes no undeclared stat.
//
// The library holding a declaration must be linked whole (stcsim_link_models) or
// otherwise referenced, or the linker drops the registration.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace stcsim {

// How a stat's total over a run's records is formed.
enum class StatTotal {
  kSum,           // summed over the records
  kMax,           // the largest
  kWeightedMean,  // mean weighted by the weight the total is formed with (an op's cycles)
  kRecomputed,    // recomputed from the total's other stats by the stat's formula
  kLabel,         // names the record; the total carries its own name
  kSeparate,      // formed by its producer over a subset of records (said in the description)
  kNone,          // a fact of one record (its shape, mapping, ...): absent from the total
};
const char* to_string(StatTotal t);

using StatValue = std::variant<double, std::int64_t, std::string>;
nlohmann::json to_json(const StatValue& v);

struct StatInfo {
  std::string name;  // dotted path in the JSON record
  std::string unit;  // "-" for labels and dimensionless counts of choice
  std::string description;
  StatTotal total = StatTotal::kNone;
  std::string producer;  // who computes it, e.g. "gpu", "kernel csr_spmm"
};

// Values of stats the record has no member for, set by their producer.
class StatSlots {
 public:
  void set(const StatInfo& stat, StatValue v);
  const StatValue* find(const StatInfo& stat) const;

 private:
  std::vector<std::pair<const StatInfo*, StatValue>> values_;
};

// How a stat reads (and, for totals, updates) its value in a record of type R. Built
// by field(), counter(), computed() or formula() below; an access without `get` is a
// slot: the producer sets the value in the record's StatSlots member `stats`, and it is
// written only when set.
template <class R>
struct StatAccess {
  std::function<StatValue(const R&)> get;
  std::function<double(const R&)> number;  // a number a total reads ...
  std::function<double&(R&)> ref;          // ... and accumulates into
  std::function<void(R&)> recompute;       // a member's formula (kRecomputed)
  std::function<bool(const R&)> shown;     // written for this record? (empty: always)
};

namespace stat_detail {
template <class T>
StatValue as_value(const T& v) {
  if constexpr (std::is_floating_point_v<T>)
    return double(v);
  else if constexpr (std::is_integral_v<T>)
    return std::int64_t(v);
  else
    return std::string(v);
}
}  // namespace stat_detail

// A member of the record; a double member can be totalled.
template <class R, class T>
StatAccess<R> field(T R::*member) {
  StatAccess<R> a;
  a.get = [member](const R& r) { return stat_detail::as_value(r.*member); };
  if constexpr (std::is_same_v<T, double>) {
    a.number = [member](const R& r) { return r.*member; };
    a.ref = [member](R& r) -> double& { return r.*member; };
  }
  return a;
}

// A number reached through the record (an array element, a member's member): `f` is a
// generic lambda `[](auto& r) -> auto& { return r.x.y; }`, used on const and mutable
// records alike.
template <class R, class F>
StatAccess<R> counter(F f) {
  StatAccess<R> a;
  a.get = [f](const R& r) { return StatValue(double(f(r))); };
  a.number = [f](const R& r) { return double(f(r)); };
  a.ref = [f](R& r) -> double& { return f(r); };
  return a;
}

// A value computed from the record when it is written; on a total (kRecomputed) the same
// formula reads the total's stats.
template <class R, class F>
StatAccess<R> computed(F f) {
  StatAccess<R> a;
  a.get = [f](const R& r) { return stat_detail::as_value(f(r)); };
  return a;
}

// A member holding a formula of other stats: the producer and the total both apply it
// (StatRegistry::recompute), so the formula is written once.
template <class R, class T, class F>
StatAccess<R> formula(T R::*member, F f) {
  StatAccess<R> a;
  a.get = [member](const R& r) { return stat_detail::as_value(r.*member); };
  a.recompute = [member, f](R& r) { r.*member = f(static_cast<const R&>(r)); };
  return a;
}

// A value the producer sets with `r.stats.set(stat.info(), v)`.
template <class R>
StatAccess<R> stat_slot() {
  return {};
}

template <class R>
class Stat;

// Every declared stat of records of type R, in registration order.
template <class R>
class StatRegistry {
 public:
  static std::vector<const Stat<R>*>& all() {
    static std::vector<const Stat<R>*> stats;
    return stats;
  }

  // Apply every member formula to `r` (formulas read only stats that are not formulas,
  // so their order does not matter).
  static void recompute(R& r) {
    for (const Stat<R>* s : all())
      if (s->access().recompute) s->access().recompute(r);
  }

  // The record as nested JSON; a total leaves out the stats with StatTotal::kNone.
  static nlohmann::json to_json(const R& r, bool is_total) {
    nlohmann::json j = nlohmann::json::object();
    for (const Stat<R>* s : all()) {
      if (is_total && s->info().total == StatTotal::kNone) continue;
      const auto& a = s->access();
      if (a.shown && !a.shown(r)) continue;
      nlohmann::json* at = &j;
      const std::string& name = s->info().name;
      std::size_t begin = 0;
      for (std::size_t dot; (dot = name.find('.', begin)) != std::string::npos; begin = dot + 1)
        at = &(*at)[name.substr(begin, dot - begin)];
      (*at)[name.substr(begin)] = stcsim::to_json(a.get(r));
    }
    return j;
  }

  // Total over `records` into `t`, which comes with its label set: sums, maxima and
  // means weighted by `weight`, each accumulated in record order, then the formulas.
  // Stats formed separately (kSeparate) are left to their producer.
  static void total(const std::vector<R>& records, double R::*weight, R& t) {
    double w = 0;
    for (const R& r : records) {
      w += r.*weight;
      for (const Stat<R>* s : all()) {
        const auto& a = s->access();
        switch (s->info().total) {
          case StatTotal::kSum:
            a.ref(t) += a.number(r);
            break;
          case StatTotal::kMax:
            a.ref(t) = std::max(a.ref(t), a.number(r));
            break;
          case StatTotal::kWeightedMean:
            a.ref(t) += a.number(r) * (r.*weight);
            break;
          default:
            break;
        }
      }
    }
    if (w > 0)
      for (const Stat<R>* s : all())
        if (s->info().total == StatTotal::kWeightedMean) s->access().ref(t) /= w;
    recompute(t);
  }
};

template <class R>
class Stat {
 public:
  // Registers itself: declare it at namespace scope, so it outlives every use.
  // Throws std::logic_error (at start-up, so the program stops) for a declaration whose
  // total cannot be formed from its access.
  Stat(StatInfo info, StatAccess<R> access, std::function<bool(const R&)> shown = {})
      : info_(std::move(info)), access_(std::move(access)) {
    if (shown) access_.shown = std::move(shown);
    if (!access_.get) {  // a slot: read from the record's StatSlots, written when set
      access_.get = [this](const R& r) { return *r.stats.find(info_); };
      access_.shown = [this, also = access_.shown](const R& r) {
        return r.stats.find(info_) != nullptr && (!also || also(r));
      };
    }
    const StatTotal t = info_.total;
    if ((t == StatTotal::kSum || t == StatTotal::kMax || t == StatTotal::kWeightedMean) &&
        !access_.ref)
      throw std::logic_error("stat " + info_.name + ": a " + to_string(t) +
                             " total needs a number it can accumulate");
    StatRegistry<R>::all().push_back(this);
  }
  Stat(const Stat&) = delete;
  Stat& operator=(const Stat&) = delete;

  const StatInfo& info() const { return info_; }
  const StatAccess<R>& access() const { return access_; }

 private:
  StatInfo info_;
  StatAccess<R> access_;
};

}  // namespace stcsim
