// SCALE-Sim topology CSV files as a workload source: the layer lists architects already
// keep for SCALE-Sim (v2) become a shapes-only Model.
//
// Two formats, told apart by the header (the first non-blank line):
//   convolution:  Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width,
//                 Channels, Num Filter, Strides[, Stride width],
//   GEMM (mnk):   Layer, M, N, K,
// Rows end with a trailing comma, as SCALE-Sim writes them (optional here). As in
// SCALE-Sim, a convolution has no padding (the IFMAP is the padded input), its output is
// floor((H - R) / stride) + 1, and a layer whose name contains "DP" is depthwise (each of
// its Channels convolved with its own Num Filter filters: groups = Channels). A GEMM row
// is a Linear layer of K inputs and N outputs over M fixed rows (scaled by --batch).
//
// Every error is an InputError naming the file and line, the column and what was
// expected: a missing or unknown header, a row with too few or too many fields, a field
// that is not a positive whole number, a filter larger than the IFMAP, strides that
// differ per axis (one stride per layer), a blank or repeated layer name.
#pragma once
#include <string>

#include "workloads/layer.h"

namespace stcsim::workloads {

Model load_scalesim_topology(const std::string& path);
// The same from the file's text; `path` names it in errors and gives the model its name.
Model parse_scalesim_topology(const std::string& text, const std::string& path);

}  // namespace stcsim::workloads
