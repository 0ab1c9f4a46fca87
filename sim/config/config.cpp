#include "sim/config/config.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sim/config/yaml_document.h"
#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/core/nearest.h"
#include "sim/core/registry.h"
#include "sim/core/utf8.h"

namespace stcsim {

const std::map<std::string, std::string>& embedded_presets();  // generated at build time

std::vector<std::string> preset_names() {
  std::vector<std::string> out;
  for (const auto& [name, _] : embedded_presets()) out.push_back(name);
  return out;
}

const std::string& preset_text(const std::string& name) {
  const auto& m = embedded_presets();
  auto it = m.find(name);
  if (it == m.end()) {
    std::string all;
    for (const auto& [n, _] : m) all += (all.empty() ? "" : ", ") + n;
    throw InputError("unknown preset '" + name + "' (presets: " + all +
                     "; or give a path to a .yaml file)");
  }
  return it->second;
}

namespace {

const std::vector<std::string> kMetaKeys = {"schema_version", "name", "description", "sources",
                                            "base"};

std::string at(const std::string& file, const YAML::Node& n) {
  const auto m = n.Mark();
  return m.line >= 0 ? file + ":" + std::to_string(m.line + 1) : file;
}

int line_of(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

// A text field that ends up in stats.json: a single scalar, valid UTF-8.
std::string text_value(const std::string& file, const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) throw InputError(at(file, n) + ": '" + key + "' must be a single text");
  const std::string& s = n.Scalar();
  if (const std::size_t bad = invalid_utf8_at(s); bad != std::string::npos)
    throw InputError(at(file, n) + ": '" + key + "' is not valid UTF-8 (byte " +
                     std::to_string(bad) + " of the value)");
  return s;
}

std::vector<std::string> all_section_keys(const std::string& section, const std::string& impl) {
  std::vector<std::string> keys{"impl"};
  for (const auto& d : ComponentCatalog::instance().get(section, impl).params)
    keys.push_back(d.key);
  return keys;
}

const ParamDecl* find_decl(const ComponentInfo& info, const std::string& key) {
  for (const auto& d : info.params)
    if (d.key == key) return &d;
  return nullptr;
}

[[noreturn]] void unknown_key(const std::string& where, const std::string& section,
                              const std::string& impl, const std::string& key) {
  auto keys = all_section_keys(section, impl);
  throw InputError(where + ": unknown key '" + section + "." + key + "' for " + section + " '" +
                   impl + "'; nearest valid key: '" + section + "." + nearest_name(key, keys) +
                   "'");
}

void set_value(SectionConfig& sec, const std::string& section, const std::string& key,
               const std::string& text, const ValueSource& src) {
  const auto& info = ComponentCatalog::instance().get(section, sec.impl);
  const std::string where = src.describe() + ": " + section + "." + key;
  const ParamDecl* d = find_decl(info, key);
  if (!d) unknown_key(src.describe(), section, sec.impl, key);
  sec.params.set(key, parse_param_value(*d, text, where));
  sec.sources[key] = src;
}

void set_impl(SectionConfig& sec, const std::string& section, const std::string& impl,
              const ValueSource& src) {
  try {
    ComponentCatalog::instance().get(section, impl);
  } catch (const InputError& e) {
    throw InputError(src.describe() + ": " + section + ".impl: " + e.what());
  }
  if (sec.impl != impl) {
    // Keys of the previous implementation may not exist in the new one.
    sec.params = ParamSet{};
    sec.sources.clear();
  }
  sec.impl = impl;
  sec.impl_source = src;
}

void read_section(Config& cfg, const std::string& file, const std::string& section,
                  const YAML::Node& node) {
  if (!node.IsMap())
    throw InputError(at(file, node) + ": section '" + section +
                     "' must be a mapping of key: value");
  SectionConfig& sec = cfg.sections[section];
  if (sec.impl.empty()) sec.impl = ComponentCatalog::instance().default_impl(section).impl;
  if (auto impl = node["impl"]) {
    if (!impl.IsScalar())
      throw InputError(at(file, impl) + ": " + section + ".impl must be a name");
    set_impl(sec, section, impl.Scalar(), {file, line_of(impl)});
  }
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    if (key == "impl") continue;
    const ValueSource src{file, line_of(kv.first)};
    if (!kv.second.IsScalar()) {
      const auto& info = ComponentCatalog::instance().get(section, sec.impl);
      if (!find_decl(info, key)) unknown_key(src.describe(), section, sec.impl, key);
      throw InputError(src.describe() + ": " + section + "." + key + ": expected a single " +
                       to_string(find_decl(info, key)->type) + " value, got a " +
                       (kv.second.IsSequence() ? "list" : "mapping"));
    }
    set_value(sec, section, key, kv.second.Scalar(), src);
  }
}

Config parse(const std::string& text, const std::string& file, int depth);

Config parse_node(const YAML::Node& root, const std::string& file, int depth) {
  if (!root.IsMap()) throw InputError(file + ": expected a YAML mapping at the top level");
  Config cfg;
  if (auto base = root["base"]) {
    if (depth > 4) throw InputError(at(file, base) + ": 'base' nests too deeply");
    if (!base.IsScalar()) throw InputError(at(file, base) + ": 'base' must be a preset name");
    // base names a built-in preset, never a file: say so at the line, not "unknown preset".
    try {
      cfg = parse(preset_text(base.Scalar()), "presets/" + base.Scalar() + ".yaml", depth + 1);
    } catch (const InputError& e) {
      if (embedded_presets().count(base.Scalar())) throw;
      throw InputError(at(file, base) + ": base: " + e.what() +
                       " (base names a built-in preset, not a file)");
    }
  }
  cfg.file = file;
  auto ver = root["schema_version"];
  if (!ver)
    throw InputError(file + ": missing 'schema_version' (this stcsim reads schema_version: " +
                     std::to_string(kSchemaVersion) + ")");
  if (!ver.IsScalar() || ver.Scalar() != std::to_string(kSchemaVersion))
    throw InputError(at(file, ver) + ": schema_version " + (ver.IsScalar() ? ver.Scalar() : "?") +
                     " is not supported (this stcsim reads schema_version: " +
                     std::to_string(kSchemaVersion) + ")");
  const auto kinds = ComponentCatalog::instance().kinds();
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    if (key == "schema_version" || key == "base") continue;
    if (key == "name") {
      cfg.name = text_value(file, kv.second, "name");
      continue;
    }
    if (key == "description") {
      cfg.description = text_value(file, kv.second, "description");
      continue;
    }
    if (key == "sources") {
      if (!kv.second.IsSequence())
        throw InputError(at(file, kv.second) + ": 'sources' must be a list of strings");
      cfg.sources.clear();
      for (const auto& s : kv.second) cfg.sources.push_back(text_value(file, s, "sources"));
      continue;
    }
    if (std::find(kinds.begin(), kinds.end(), key) == kinds.end()) {
      auto all = kinds;
      all.insert(all.end(), kMetaKeys.begin(), kMetaKeys.end());
      throw InputError(at(file, kv.first) + ": unknown top-level key '" + key +
                       "'; nearest valid key: '" + nearest_name(key, all) + "'");
    }
    read_section(cfg, file, key, kv.second);
  }
  return cfg;
}

Config parse(const std::string& text, const std::string& file, int depth) {
  const YAML::Node root = load_yaml_document(text, file);
  return parse_node(root, file, depth);
}

}  // namespace

const SectionConfig& Config::section(const std::string& kind) const {
  auto it = sections.find(kind);
  if (it == sections.end()) throw std::logic_error("config has no section " + kind);
  return it->second;
}

nlohmann::json Config::to_json() const {
  nlohmann::json j;
  j["schema_version"] = schema_version;
  j["name"] = name;
  j["file"] = file;
  j["sources"] = sources;
  for (const auto& [kind, sec] : sections) {
    const auto& info = ComponentCatalog::instance().get(kind, sec.impl);
    nlohmann::json s;
    s["impl"] = sec.impl;
    for (const auto& d : info.params) {
      nlohmann::json v;
      std::visit([&](const auto& x) { v["value"] = x; }, sec.params.values().at(d.key));
      v["unit"] = d.unit;
      auto src = sec.sources.find(d.key);
      v["from"] = src == sec.sources.end() ? "(default)" : src->second.describe();
      s["params"][d.key] = v;
    }
    j["hardware"][kind] = s;
  }
  return j;
}

void resolve_defaults(Config& cfg) {
  auto& cat = ComponentCatalog::instance();
  for (const auto& kind : cat.kinds()) {
    SectionConfig& sec = cfg.sections[kind];
    if (sec.impl.empty()) sec.impl = cat.default_impl(kind).impl;
    const auto& info = cat.get(kind, sec.impl);
    for (const auto& d : info.params)
      if (!sec.params.has(d.key) && d.default_value) sec.params.set(d.key, *d.default_value);
    check_required(info.params, sec.params, kind, cfg.file);
  }
}

Config load_config_text(const std::string& text, const std::string& display_name) {
  Config cfg = parse(text, display_name, 0);
  resolve_defaults(cfg);
  return cfg;
}

Config load_arch(const std::string& arch) {
  auto ends_with = [&arch](const std::string& suffix) {
    return arch.size() >= suffix.size() &&
           arch.compare(arch.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  const bool is_path =
      arch.find('/') != std::string::npos || ends_with(".yaml") || ends_with(".yml");
  if (!is_path) return load_config_text(preset_text(arch), "presets/" + arch + ".yaml");
  return load_config_text(read_input_file(arch, "config file"), arch);
}

void apply_override(Config& cfg, const std::string& assignment) {
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq)
    throw InputError("-p " + assignment +
                     ": expected section.key=value, e.g. -p l2.capacity_kib=20480");
  const std::string section = assignment.substr(0, dot);
  const std::string key = assignment.substr(dot + 1, eq - dot - 1);
  const std::string value = assignment.substr(eq + 1);
  const auto kinds = ComponentCatalog::instance().kinds();
  if (std::find(kinds.begin(), kinds.end(), section) == kinds.end())
    throw InputError("-p " + assignment + ": unknown section '" + section + "'; nearest valid: '" +
                     nearest_name(section, kinds) + "'");
  SectionConfig& sec = cfg.sections[section];
  const ValueSource src{"-p", 0};
  if (key == "impl") {
    set_impl(sec, section, value, src);
  } else {
    set_value(sec, section, key, value, src);
  }
  resolve_defaults(cfg);
}

}  // namespace stcsim
