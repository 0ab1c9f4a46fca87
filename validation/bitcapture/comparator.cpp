#include "validation/bitcapture/comparator.h"

#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "models/numerics/accumulation_model.h"
#include "validation/bitcapture/operand_gen.h"
#include "validation/bitcapture/replay.h"

namespace stcsim::validation::bits {

using nlohmann::json;

void Tally::add(const Tally& o) {
  records += o.records;
  exact_records += o.exact_records;
  elements += o.elements;
  exact_elements += o.exact_elements;
}

namespace {

// The first differing element of a record (row-major order of the logical D), with its
// operands, for the report.
Mismatch describe(const GroupSpec& g, const std::uint32_t* record,
                  const std::vector<std::uint32_t>& model_d) {
  const auto captured = unpack_accumulator(g, record + g.d_offset());
  const auto model = unpack_accumulator(g, model_d.data());
  Mismatch mm;
  mm.group = g.name();
  mm.category = to_string(Category(record[0]));
  int first = -1;
  for (int i = 0; i < g.cd_words(); ++i)
    if (captured[i] != model[i]) {
      if (first < 0) first = i;
      ++mm.elements;
    }
  mm.row = first / g.n;
  mm.col = first % g.n;
  const LogicalOperands ops = unpack_operands(g, record);
  for (int k = 0; k < g.k(); ++k) {
    mm.a_row.push_back(ops.a[std::size_t(mm.row) * g.k() + k]);
    mm.b_col.push_back(ops.b[std::size_t(k) * g.n + mm.col]);
  }
  mm.c = ops.c[first];
  mm.captured = captured[first];
  mm.model = model[first];
  return mm;
}

std::string hex(std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*x", digits, v);
  return buf;
}

std::string hex_list(const std::vector<std::uint32_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + hex(v[i], 4);
  return s;
}

json tally_json(const Tally& t) {
  return {{"records", t.records},
          {"exact_records", t.exact_records},
          {"elements", t.elements},
          {"exact_elements", t.exact_elements}};
}

std::string percent(std::int64_t part, std::int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buf;
}

}  // namespace

std::vector<PresetResult> compare_capture(const Capture& c, const std::vector<std::string>& presets,
                                          int max_mismatches) {
  std::vector<PresetResult> out;
  for (const std::string& preset : presets) {
    PresetResult pr{preset, {}, {}, {}};
    for (const CaptureGroup& g : c.groups) {
      const auto model =
          numerics::accumulation_preset(preset, functional::float_format(g.spec.type));
      GroupResult gr{g.spec.name(), {}, std::vector<Tally>(kCategories)};
      int shown = 0;
      for (int r = 0; r < g.records; ++r) {
        const std::uint32_t* rec = g.record(r);
        if (rec[0] >= std::uint32_t(kCategories))
          throw std::runtime_error(g.spec.name() + " record " + std::to_string(r) + ": category " +
                                   std::to_string(rec[0]) + " out of range");
        const auto d = replay(g.spec, rec, model);
        Tally t;
        t.records = 1;
        t.elements = g.spec.cd_words();
        for (int i = 0; i < g.spec.cd_words(); ++i)
          t.exact_elements += d[i] == rec[g.spec.d_offset() + i];
        t.exact_records = t.exact_elements == t.elements;
        gr.all.add(t);
        gr.by_category[rec[0]].add(t);
        if (!t.exact_records && shown < max_mismatches) {
          pr.first.push_back(describe(g.spec, rec, d));
          pr.first.back().record = r;
          ++shown;
        }
      }
      pr.all.add(gr.all);
      pr.groups.push_back(std::move(gr));
    }
    out.push_back(std::move(pr));
  }
  return out;
}

json to_json(const std::vector<PresetResult>& results) {
  json out = json::array();
  for (const PresetResult& p : results) {
    json groups = json::array();
    for (const GroupResult& g : p.groups) {
      json cats = json::object();
      for (int i = 0; i < kCategories; ++i)
        cats[to_string(Category(i))] = tally_json(g.by_category[i]);
      groups.push_back({{"group", g.group}, {"all", tally_json(g.all)}, {"by_category", cats}});
    }
    json mm = json::array();
    for (const Mismatch& m : p.first)
      mm.push_back({{"group", m.group},
                    {"record", m.record},
                    {"category", m.category},
                    {"row", m.row},
                    {"col", m.col},
                    {"differing_elements", m.elements},
                    {"a_row", hex_list(m.a_row)},
                    {"b_col", hex_list(m.b_col)},
                    {"c", hex(m.c, 8)},
                    {"captured", hex(m.captured, 8)},
                    {"model", hex(m.model, 8)}});
    out.push_back({{"preset", p.preset},
                   {"all", tally_json(p.all)},
                   {"groups", groups},
                   {"first_mismatches", mm}});
  }
  return out;
}

void print_report(std::ostream& os, const std::vector<PresetResult>& results) {
  for (const PresetResult& p : results) {
    os << "preset " << p.preset << ": " << p.all.exact_records << "/" << p.all.records
       << " records exact (" << percent(p.all.exact_records, p.all.records) << "), "
       << p.all.exact_elements << "/" << p.all.elements << " elements ("
       << percent(p.all.exact_elements, p.all.elements) << ")\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-26s %11s", "group", "all");
    os << line;
    for (int i = 0; i < kCategories; ++i) {
      std::snprintf(line, sizeof line, " %12s", to_string(Category(i)));
      os << line;
    }
    os << "\n";
    for (const GroupResult& g : p.groups) {
      auto cell = [](const Tally& t) {
        return std::to_string(t.exact_records) + "/" + std::to_string(t.records);
      };
      std::snprintf(line, sizeof line, "  %-26s %11s", g.group.c_str(), cell(g.all).c_str());
      os << line;
      for (const Tally& t : g.by_category) {
        std::snprintf(line, sizeof line, " %12s", cell(t).c_str());
        os << line;
      }
      os << "\n";
    }
    for (const Mismatch& m : p.first)
      os << "  mismatch " << m.group << " record " << m.record << " (" << m.category << "), "
         << m.elements << " elements differ; first D[" << m.row << "][" << m.col << "]: captured "
         << hex(m.captured, 8) << ", model " << hex(m.model, 8) << "; c " << hex(m.c, 8)
         << ", a row " << hex_list(m.a_row) << ", b col " << hex_list(m.b_col) << "\n";
  }
}

}  // namespace stcsim::validation::bits
