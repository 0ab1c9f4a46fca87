// A bound on how deeply a JSON text nests, checked on the text before it is parsed:
// nlohmann's parser is iterative, but copies of the parsed value and the readers' own
// walks recurse once per level, so a document nested 200,000 deep overflowed the stack.
#pragma once
#include <cstddef>
#include <string>

namespace stcsim::workloads {

// Real model files nest about 15 levels deep; 256 leaves room and keeps recursion shallow.
inline constexpr int kMaxJsonDepth = 256;

// Throws InputError "FILE: byte OFFSET: ..." at the first bracket past `max_depth`.
// `base` is added to offsets (the JSON header of a safetensors file starts at byte 8).
void check_json_depth(const std::string& text, const std::string& file, std::size_t base = 0,
                      int max_depth = kMaxJsonDepth);

}  // namespace stcsim::workloads
