#include "models/kernels/conv_activation.h"

#include <algorithm>

namespace stcsim {

namespace {

// Floor and ceiling of a / b for b > 0 and any sign of a.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

// Output pixels [m0, m0 + count) under filter tap `tap`, one output row at a time: for
// each stretch whose window row h lies inside the input, f(image, h, w, n) with the first
// input column w its in-bounds outputs read and their number n (columns w, w + stride,
// ...); taps in the padding are skipped.
template <class F>
void for_each_window_row(const ConvShape& c, std::int64_t tap, std::int64_t m0, std::int64_t count,
                         F&& f) {
  const std::int64_t dh = (tap / c.kernel_w) * c.dilation - c.padding;
  const std::int64_t dw = (tap % c.kernel_w) * c.dilation - c.padding;
  // Output columns q whose window column q x stride + dw lies inside the input.
  const std::int64_t q_lo = std::max<std::int64_t>(0, ceil_div(-dw, c.stride));
  const std::int64_t q_hi = floor_div(c.in_w - 1 - dw, c.stride);
  for (std::int64_t m = m0; m < m0 + count;) {
    const std::int64_t q = m % c.out_w, row = m / c.out_w;
    const std::int64_t p = row % c.out_h, image = row / c.out_h;
    const std::int64_t n = std::min(c.out_w - q, m0 + count - m);
    const std::int64_t h = p * c.stride + dh;
    const std::int64_t lo = std::max(q, q_lo), hi = std::min(q + n - 1, q_hi);
    if (h >= 0 && h < c.in_h && lo <= hi) f(image, h, lo * c.stride + dw, hi - lo + 1);
    m += n;
  }
}

}  // namespace

ConvActivation conv_activation(const GemmOp& op) {
  ConvActivation a;
  if (!op.conv.present() || op.conv.taps() <= 0 || op.k % op.conv.taps()) return a;
  a.conv = op.conv;
  a.group_channels = op.k / op.conv.taps();
  a.channels = a.group_channels * op.batch;
  a.element_bytes = input_bytes(op.dtype);
  return a;
}

std::int64_t conv_chw_spans(const ConvActivation& a, std::uint64_t base, std::int64_t k,
                            std::int64_t m0, std::int64_t count,
                            std::vector<std::pair<std::uint64_t, std::uint64_t>>& out) {
  const ConvShape& c = a.conv;
  const std::int64_t eb = a.element_bytes, ch = k % a.group_channels;
  std::int64_t elements = 0;
  for_each_window_row(c, k / a.group_channels, m0, count,
                      [&](std::int64_t image, std::int64_t h, std::int64_t w, std::int64_t n) {
                        // Channel plane `ch` of this image (every group's channels: `base`
                        // is the group's first plane).
                        const std::uint64_t row0 =
                            base +
                            std::uint64_t(((image * a.channels + ch) * c.in_h + h) * c.in_w) * eb;
                        out.emplace_back(row0 + std::uint64_t(w) * eb,
                                         row0 + std::uint64_t(w + (n - 1) * c.stride + 1) * eb);
                        elements += n;
                      });
  return elements;
}

void conv_activation_runs(const ConvActivation& a, std::uint64_t base, std::int64_t m0,
                          std::int64_t rows, std::int64_t k0, std::int64_t kb,
                          std::vector<RowRun>& out) {
  const ConvShape& c = a.conv;
  const std::int64_t eb = a.element_bytes;
  const std::uint64_t pixel_bytes = std::uint64_t(a.channels * eb);
  const std::size_t first = out.size();
  for (std::int64_t k = k0; k < k0 + kb;) {
    // One tap (r, s) and the slice of its channels this k-tile holds.
    const std::int64_t tap = k / a.group_channels, ch = k % a.group_channels;
    const std::int64_t len = std::min(k0 + kb, (tap + 1) * a.group_channels) - k;
    for_each_window_row(
        c, tap, m0, rows, [&](std::int64_t image, std::int64_t h, std::int64_t w, std::int64_t n) {
          out.push_back(RowRun{
              base + std::uint64_t((image * c.in_h + h) * c.in_w + w) * pixel_bytes +
                  std::uint64_t(ch * eb),
              std::uint32_t(len * eb), std::uint32_t(n), std::uint64_t(c.stride) * pixel_bytes});
        });
    k += len;
  }
  // Merge runs that continue one another (same width and stride, the next starting one
  // stride after the last row of the previous).
  std::size_t kept = first;
  for (std::size_t i = first; i < out.size(); ++i) {
    if (kept > first) {
      RowRun& prev = out[kept - 1];
      const RowRun& next = out[i];
      if (prev.bytes == next.bytes && prev.stride == next.stride &&
          next.addr == prev.addr + std::uint64_t(prev.rows) * prev.stride) {
        prev.rows += next.rows;
        continue;
      }
    }
    out[kept++] = out[i];
  }
  out.resize(kept);
}

}  // namespace stcsim
