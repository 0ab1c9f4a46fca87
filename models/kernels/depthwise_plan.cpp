#include "models/kernels/depthwise_plan.h"

#include <algorithm>

namespace stcsim {

std::int64_t DepthwiseShape::input_row(std::int64_t p, std::int64_t r) const {
  const std::int64_t h = p * conv.stride - conv.padding + r * conv.dilation;
  return h >= 0 && h < conv.in_h ? h : -1;
}

int DepthwiseShape::sweeps(std::int64_t b) const {
  const std::int64_t first = first_output(b, 0);
  if (first >= outputs) return 0;
  return int((outputs - first + total_threads() - 1) / total_threads());
}

std::string depthwise_unsupported(const GemmOp& op) {
  if (!op.conv.present())
    return "the depthwise convolution kernel needs the op's convolution shape (a Conv2d layer "
           "lowered from a model, or conv= on a trace op)";
  if (!op.sparsity.dense() || op.block_sparse())
    return "the depthwise convolution kernel runs dense weights only";
  if (op.k % op.conv.taps())
    return "the depthwise convolution kernel needs K = Cin / groups x R x S";
  return "";
}

bool is_depthwise(const GemmOp& op) {
  return depthwise_unsupported(op).empty() && op.k == op.conv.taps();
}

DepthwiseShape depthwise_shape(const GemmOp& op, int num_sms) {
  DepthwiseShape s;
  const ConvShape& c = op.conv;
  s.conv = c;
  s.in_per_group = op.k / c.taps();
  s.multiplier = op.n;
  s.in_channels = op.batch * s.in_per_group;
  s.out_channels = op.batch * s.multiplier;
  s.outputs = c.images * c.out_h * c.out_w * s.out_channels;
  s.column_taps.assign(std::size_t(c.out_w), 0);
  for (std::int64_t q = 0; q < c.out_w; ++q)
    for (std::int64_t t = 0; t < c.kernel_w; ++t) {
      const std::int64_t x = q * c.stride - c.padding + t * c.dilation;
      if (x >= 0 && x < c.in_w) s.column_taps[std::size_t(q)] += 1;
    }
  s.compile_time_filter =
      c.kernel_h == 3 && c.kernel_w == 3 && s.multiplier == 1 && s.in_per_group == 1;
  const std::int64_t needed = (s.outputs + kDepthwiseThreadsPerCta - 1) / kDepthwiseThreadsPerCta;
  const std::int64_t grid =
      s.compile_time_filter ? num_sms : std::int64_t(num_sms) * kDepthwiseCtasPerSm;
  s.ctas = std::max<std::int64_t>(1, std::min(grid, needed));
  return s;
}

DepthwisePassRow depthwise_pass_row(const DepthwiseShape& s, std::int64_t first, std::int64_t last,
                                    std::int64_t r, int eb) {
  DepthwisePassRow out;
  const ConvShape& c = s.conv;
  const std::int64_t cout = s.out_channels;
  const std::int64_t pos0 = first / cout, pos1 = (last - 1) / cout;  // output positions
  // Input channels the range's outputs read: all of them unless it is one position's slice.
  std::int64_t ic0 = 0, ic1 = s.in_channels;
  if (pos0 == pos1) {
    ic0 = (first % cout) / s.multiplier * s.in_per_group;
    ic1 = ((last - 1) % cout) / s.multiplier * s.in_per_group + s.in_per_group;
  }
  for (std::int64_t pos = pos0; pos <= pos1;) {
    // The run of positions [pos, row_end] that share an output row.
    const std::int64_t row = pos / c.out_w, q0 = pos % c.out_w;
    const std::int64_t q1 = std::min(c.out_w - 1, q0 + (pos1 - pos));
    const std::int64_t image = row / c.out_h, p = row % c.out_h;
    const std::int64_t h = s.input_row(p, r);
    if (h >= 0) {
      for (std::int64_t q = q0; q <= q1; ++q) {
        const std::int64_t o_lo = std::max(first, (row * c.out_w + q) * cout),
                           o_hi = std::min(last, (row * c.out_w + q + 1) * cout);
        out.taps +=
            double(s.column_taps[std::size_t(q)]) * double(o_hi - o_lo) * double(s.in_per_group);
      }
      const std::int64_t w0 = std::max<std::int64_t>(0, q0 * c.stride - c.padding);
      const std::int64_t w1 = std::min<std::int64_t>(
          c.in_w - 1, q1 * c.stride - c.padding + (c.kernel_w - 1) * c.dilation);
      const std::uint64_t row_base = std::uint64_t((image * c.in_h + h) * c.in_w);
      if (ic0 == 0 && ic1 == s.in_channels) {
        out.input_runs.push_back({(row_base + std::uint64_t(w0)) * s.in_channels * eb,
                                  std::uint64_t(w1 - w0 + 1) * s.in_channels * eb});
      } else {
        for (std::int64_t w = w0; w <= w1; ++w)
          out.input_runs.push_back(
              {((row_base + std::uint64_t(w)) * s.in_channels + std::uint64_t(ic0)) * eb,
               std::uint64_t(ic1 - ic0) * eb});
      }
    }
    pos += q1 - q0 + 1;
  }
  return out;
}

double depthwise_cycles_per_tap(int lanes, Dtype d) {
  const double widen = input_bytes(d) < 4 ? 2.0 : 0.0;
  const double issue = 2.0 + 1.0 + 1.0 + widen;
  const double fma_pipe = 32.0 / std::max(1, lanes);
  return std::max(issue, fma_pipe);
}

double depthwise_compulsory_bytes(const GemmOp& op) {
  const ConvShape& c = op.conv;
  const double cin = double(op.batch) * double(op.k / c.taps());
  const double cout = double(op.batch) * double(op.n);
  const double eb = input_bytes(op.dtype);
  return eb * double(c.images * c.in_h * c.in_w) * cin + eb * cout * double(op.k) +
         double(output_bytes(op.dtype)) * double(c.images * c.out_h * c.out_w) * cout;
}

}  // namespace stcsim
