#include "validation/bitcapture/model_search.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <stdexcept>

#include "validation/bitcapture/operand_gen.h"
#include "validation/bitcapture/replay.h"

namespace stcsim::validation::bits {

using nlohmann::json;

std::string describe(const numerics::AccumulationModel& m) {
  const std::string bits = m.extra_bits >= numerics::kExactAlignmentBits
                               ? std::string("exact")
                               : "x" + std::to_string(m.extra_bits);
  return "b" + std::to_string(m.block_size) + " " + bits + " " +
         (m.rounding == numerics::Rounding::TowardZero ? "rz" : "rne") +
         " norm=" + (m.normalize_within_block ? "1" : "0") +
         " c=" + (m.c_in_first_block ? "first" : "after") +
         " align=" + (m.align_on_exponents ? "exp" : "lead") +
         (m.overflow_to_infinity ? " ovf=inf" : "") +
         (m.sparse_blocks_by_position ? " sp=positions" : "");
}

namespace {

std::vector<numerics::AccumulationModel> grid_models(const SearchGrid& g) {
  std::vector<numerics::AccumulationModel> out;
  for (int b : g.block_sizes)
    for (int x : g.extra_bits)
      for (auto r : g.roundings)
        for (bool n : g.normalize)
          for (bool c : g.c_first)
            for (bool e : g.align_on_exponents)
              for (bool o : g.overflow_to_infinity)
                for (bool p : g.sparse_blocks_by_position) {
                  numerics::AccumulationModel m;
                  m.block_size = b, m.extra_bits = x, m.rounding = r;
                  m.normalize_within_block = n, m.c_in_first_block = c;
                  m.align_on_exponents = e, m.overflow_to_infinity = o;
                  m.sparse_blocks_by_position = p;
                  m.name = describe(m);
                  try {
                    numerics::validate(m);
                  } catch (const std::invalid_argument&) {
                    continue;  // e.g. normalisation with exact alignment: not representable
                  }
                  out.push_back(m);
                }
  return out;
}

bool better(const ModelScore& a, const ModelScore& b) {
  if (a.exact_records != b.exact_records) return a.exact_records > b.exact_records;
  return a.exact_elements > b.exact_elements;
}

}  // namespace

std::vector<GroupSearch> search_models(const Capture& c, const SearchGrid& grid,
                                       const std::string& only) {
  const auto models = grid_models(grid);
  if (models.empty()) throw std::invalid_argument("model search: the grid holds no valid model");
  std::vector<GroupSearch> out;
  for (const CaptureGroup& g : c.groups) {
    if (!only.empty() && g.spec.name().find(only) == std::string::npos) continue;
    std::vector<int> picked;
    std::vector<int> per_cat(kCategories, 0);
    for (int r = 0; r < g.records; ++r) {
      const std::uint32_t cat = g.record(r)[0];
      if (cat >= std::uint32_t(kCategories))
        throw std::runtime_error(g.spec.name() + " record " + std::to_string(r) + ": category " +
                                 std::to_string(cat) + " out of range");
      if (Category(cat) == Category::Exact || per_cat[cat] >= grid.records_per_category) continue;
      ++per_cat[cat];
      picked.push_back(r);
    }
    GroupSearch gs{g.spec.name(), {}};
    for (const auto& m : models) {
      ModelScore s{m, 0, 0, 0, 0};
      for (int r : picked) {
        const std::uint32_t* rec = g.record(r);
        const auto d = replay(g.spec, rec, m);
        int same = 0;
        for (int i = 0; i < g.spec.cd_words(); ++i) same += d[i] == rec[g.spec.d_offset() + i];
        s.records += 1;
        s.exact_records += same == g.spec.cd_words();
        s.elements += g.spec.cd_words();
        s.exact_elements += same;
      }
      gs.ranked.push_back(s);
    }
    std::stable_sort(gs.ranked.begin(), gs.ranked.end(), better);
    out.push_back(std::move(gs));
  }
  return out;
}

namespace {

json score_json(const ModelScore& s) {
  return {{"model", describe(s.model)},
          {"block_size", s.model.block_size},
          {"extra_bits", s.model.extra_bits},
          {"rounding",
           s.model.rounding == numerics::Rounding::TowardZero ? "toward_zero" : "nearest_even"},
          {"normalize_within_block", s.model.normalize_within_block},
          {"c_in_first_block", s.model.c_in_first_block},
          {"records", s.records},
          {"exact_records", s.exact_records},
          {"elements", s.elements},
          {"exact_elements", s.exact_elements}};
}

// Every model's score summed over the groups, best first.
std::vector<ModelScore> overall(const std::vector<GroupSearch>& r) {
  std::map<std::string, ModelScore> sum;
  for (const auto& g : r)
    for (const auto& s : g.ranked) {
      auto [it, fresh] = sum.try_emplace(describe(s.model), ModelScore{s.model, 0, 0, 0, 0});
      it->second.records += s.records;
      it->second.exact_records += s.exact_records;
      it->second.elements += s.elements;
      it->second.exact_elements += s.exact_elements;
    }
  std::vector<ModelScore> v;
  for (auto& [k, s] : sum) v.push_back(s);
  std::stable_sort(v.begin(), v.end(), better);
  return v;
}

}  // namespace

json to_json(const std::vector<GroupSearch>& r, int top) {
  json groups = json::array();
  for (const auto& g : r) {
    json best = json::array();
    for (int i = 0; i < top && i < int(g.ranked.size()); ++i)
      best.push_back(score_json(g.ranked[i]));
    groups.push_back({{"group", g.group}, {"best", best}});
  }
  json all = json::array();
  const auto o = overall(r);
  for (int i = 0; i < top && i < int(o.size()); ++i) all.push_back(score_json(o[i]));
  return {{"groups", groups}, {"overall", all}};
}

void print_search(std::ostream& os, const std::vector<GroupSearch>& r, int top) {
  const auto line = [&](const ModelScore& s) {
    os << "    " << describe(s.model) << ": " << s.exact_records << "/" << s.records << " records, "
       << s.exact_elements << "/" << s.elements << " elements\n";
  };
  for (const auto& g : r) {
    os << g.group << " (non-exact categories):\n";
    for (int i = 0; i < top && i < int(g.ranked.size()); ++i) line(g.ranked[i]);
  }
  os << "over every group:\n";
  const auto o = overall(r);
  for (int i = 0; i < top && i < int(o.size()); ++i) line(o[i]);
}

}  // namespace stcsim::validation::bits
