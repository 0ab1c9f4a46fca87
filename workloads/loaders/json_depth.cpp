#include "workloads/loaders/json_depth.h"

#include "workloads/loaders/byte_reader.h"

namespace stcsim::workloads {

void check_json_depth(const std::string& text, const std::string& file, std::size_t base,
                      int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw_at(file, base + i, "JSON nests deeper than " + std::to_string(max_depth) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced brackets are the parser's error to report
    }
  }
}

}  // namespace stcsim::workloads
