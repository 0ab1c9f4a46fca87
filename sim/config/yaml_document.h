// Loading a YAML input (a preset, a config, a sweep spec) as exactly one document. yaml-cpp's
// Load reads the first document and drops the rest without a word, so a file with a second
// document after `---` silently lost its keys; malformed YAML and duplicate keys are
// refused here too, each with FILE:LINE.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/config/yaml_unique_keys.h"
#include "sim/core/input_error.h"

namespace stcsim {

inline YAML::Node load_yaml_document(const std::string& text, const std::string& file) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  for (std::size_t i = 1; i < docs.size(); ++i)
    if (!docs[i].IsNull())  // an empty document (a trailing `---`) holds nothing to lose
      throw InputError(file + ":" + std::to_string(docs[i].Mark().line + 1) +
                       ": a second YAML document (after `---`): this file holds one document, "
                       "and the keys after it would be ignored");
  YAML::Node root = docs.empty() ? YAML::Node() : docs.front();
  check_unique_keys(root, file);
  return root;
}

}  // namespace stcsim
