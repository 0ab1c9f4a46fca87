// Loading a YAML input (a preset, a config, a sweep spec) as exactly one document. yaml-cpp's
// Load reads the first document and drops the rest without a word, so a file with a second
// document after `---` silently lost its keys; malformed YAML and duplicate keys are
// refused here too, each with FILE:LINE.
//
// yaml-cpp's LoadAll is not used to find the second document: on some malformed inputs
// (the CI fuzzer found one) it never returns. A document marker is recognised by text
// instead, which YAML allows: `---` or `...` at the start of a line, followed by nothing, a
// space or a tab, is a marker wherever it appears (the spec forbids it inside scalars).
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

#include "sim/config/yaml_unique_keys.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace yaml_detail {

// The 1-based line where a second document with content begins, or 0 if there is none.
inline int second_document_line(const std::string& text) {
  bool content = false;  // the current document has content (a leading `---` opens the first)
  bool ended = false;    // the current document was closed by `---` or `...` after content
  int open_line = 0;     // where the document after `ended` began
  int line = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string l = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    const bool marker = (l.compare(0, 3, "---") == 0 || l.compare(0, 3, "...") == 0) &&
                        (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
    std::string rest = marker ? l.substr(3) : l;  // what the line holds besides a marker
    const std::size_t first = rest.find_first_not_of(" \t\r");
    const bool has_content = first != std::string::npos && rest[first] != '#';
    if (marker && content && !ended) {
      ended = true;
      open_line = line;
    }
    if (has_content) {
      if (ended) return open_line;
      content = true;
    }
  }
  return 0;
}

}  // namespace yaml_detail

inline YAML::Node load_yaml_document(const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (const int line = yaml_detail::second_document_line(text))
    throw InputError(file + ":" + std::to_string(line) +
                     ": a second YAML document (after `---`): this file holds one document, "
                     "and the keys after it would be ignored");
  check_unique_keys(root, file);
  return root;
}

}  // namespace stcsim
