#include "workloads/loaders/scalesim_topology.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <vector>

#include "sim/core/input_file.h"
#include "sim/core/number_syntax.h"
#include "sim/core/utf8.h"

namespace stcsim::workloads {

namespace {

constexpr std::int64_t kMaxSize = std::int64_t(1) << 24;  // the simulator's dimension limit

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The fields of a row, trimmed, without the empty one SCALE-Sim's trailing comma leaves.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() > 1 && out.back().empty()) out.pop_back();
  return out;
}

enum class Format { Conv, Gemm };

const char* const kConvHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
    "Filter, Strides[, Stride width]";
const char* const kGemmHeader = "Layer, M, N, K";

}  // namespace

Model load_scalesim_topology(const std::string& path) {
  return parse_scalesim_topology(read_input_file(path, "SCALE-Sim topology"), path);
}

Model parse_scalesim_topology(const std::string& text, const std::string& path) {
  if (const std::size_t bad = invalid_utf8_at(text); bad != std::string::npos)
    throw InputError(path + ": not UTF-8 text (byte " + std::to_string(bad) +
                     "); expected a SCALE-Sim topology CSV");
  Model m;
  m.name = std::filesystem::path(path).stem().string();
  m.source = "SCALE-Sim topology " + path;
  m.description = "layers of a SCALE-Sim topology CSV (shapes only)";
  m.real_weights = false;
  bool have_header = false;
  Format format = Format::Conv;
  std::set<std::string> names;
  std::size_t pos = 0;
  for (int line_no = 1; pos <= text.size(); ++line_no) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no);
    const std::vector<std::string> f = fields(line);
    if (!have_header) {
      have_header = true;
      const std::string second = f.size() > 1 ? lower(f[1]) : "";
      if (second == "m" && f.size() >= 4 && lower(f[2]) == "n" && lower(f[3]) == "k") {
        format = Format::Gemm;
      } else if (second.find("ifmap") != std::string::npos && f.size() >= 8) {
        format = Format::Conv;
      } else {
        throw InputError(where + ": expected a SCALE-Sim topology header, '" + kConvHeader +
                         "' (convolutions) or '" + kGemmHeader + "' (GEMMs), got '" + trim(line) +
                         "'");
      }
      continue;
    }
    const std::size_t want_min = format == Format::Gemm ? 4 : 8,
                      want_max = format == Format::Gemm ? 4 : 9;
    if (f.size() < want_min || f.size() > want_max)
      throw InputError(where + ": expected " +
                       (format == Format::Gemm ? std::string("4 fields (") + kGemmHeader
                                               : std::string("8 or 9 fields (") + kConvHeader) +
                       "), got " + std::to_string(f.size()));
    const std::string& name = f[0];
    if (name.empty()) throw InputError(where + ": column 1 (layer name) is empty");
    if (!names.insert(name).second)
      throw InputError(where + ": layer name '" + name + "' repeats an earlier row's");
    std::vector<std::int64_t> v(f.size(), 0);
    for (std::size_t c = 1; c < f.size(); ++c) {
      const std::string why = decimal_syntax_error(f[c], true);
      const bool in_range = why.empty() && f[c][0] != '-' && f[c][0] != '+' && f[c].size() <= 9 &&
                            std::stoll(f[c]) >= 1 && std::stoll(f[c]) <= kMaxSize;
      if (!in_range)
        throw InputError(where + ": column " + std::to_string(c + 1) + " of layer '" + name +
                         "' must be a whole number from 1 to " + std::to_string(kMaxSize) +
                         ", got '" + f[c] + "'");
      v[c] = std::stoll(f[c]);
    }
    if (format == Format::Gemm) {
      // M rows of K inputs each, N outputs: a Linear layer over M fixed rows.
      Layer l = linear_layer(name, v[3], v[2]);
      l.in_h = v[1];
      l.in_w = 1;
      m.layers.push_back(l);
      continue;
    }
    const std::int64_t h = v[1], w = v[2], r = v[3], s = v[4], ch = v[5], filters = v[6],
                       stride = v[7], stride_w = f.size() == 9 ? v[8] : v[7];
    if (r > h || s > w)
      throw InputError(where + ": layer '" + name + "' has a " + std::to_string(r) + "x" +
                       std::to_string(s) + " filter larger than its " + std::to_string(h) + "x" +
                       std::to_string(w) +
                       " IFMAP (SCALE-Sim has no padding: give the padded IFMAP)");
    if (stride_w != stride)
      throw InputError(where + ": layer '" + name + "' has strides " + std::to_string(stride) +
                       " and " + std::to_string(stride_w) +
                       " per axis; expected one stride for both (stcsim's Conv2d has one)");
    const bool depthwise = name.find("DP") != std::string::npos;
    Layer l = conv2d_layer(name, ch, depthwise ? ch * filters : filters, r, stride, 0, h, w,
                           depthwise ? ch : 1);
    l.kernel_w = s;
    m.layers.push_back(l);
  }
  if (!have_header) throw InputError(path + ": empty; expected a SCALE-Sim topology CSV");
  if (m.layers.empty())
    throw InputError(path + ": a header but no layer rows; expected a SCALE-Sim topology CSV");
  return m;
}

}  // namespace stcsim::workloads
