// Streams dot-product vectors through a C++-mode Verilated dot unit (sp24_dot or
// dense_dot, the same valid/ready handshake) back to back, with random input bubbles
// (~6%) and output back-pressure (~12%): one rng() draw per cycle, so a seed fixes the
// whole schedule. Returns one result per vector, in order.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include "tests/rtl/dot_vectors.h"

namespace stcsim::rtl_tb {

// drive(top, vec, beat) sets the beat's data ports; read(top) -> DotResult;
// step() clocks one cycle with the inputs as set.
template <class Top, class Step, class Drive, class Read>
std::vector<DotResult> stream_dots(Top& t, Step step, Drive drive, Read read,
                                   const std::vector<DotVec>& vecs, std::mt19937_64& rng) {
  std::vector<DotResult> out;
  out.reserve(vecs.size());
  size_t vi = 0;
  int beat = 0;
  std::uint64_t idle = 0;
  while (out.size() < vecs.size()) {
    const std::uint64_t r = rng();
    const bool offer = vi < vecs.size() && (r & 15) != 0;
    t.in_valid = offer;
    if (offer) {
      t.in_first = beat == 0;
      t.in_last = beat == vecs[vi].beats - 1;
      t.in_bf16 = vecs[vi].bf16;
      t.in_int8 = vecs[vi].int8;
      t.in_c = vecs[vi].c;
      drive(t, vecs[vi], beat);
    }
    t.out_ready = ((r >> 8) & 7) != 0;
    t.clk = 0;
    t.eval();
    const bool accepted = offer && t.in_ready;
    if (t.out_valid && t.out_ready) {
      out.push_back(read(t));
      idle = 0;
    } else if (++idle > 1000) {
      std::cerr << "no output for 1000 cycles (pipeline hung)\n";
      std::exit(1);
    }
    step();
    if (accepted && ++beat == vecs[vi].beats) {
      beat = 0;
      ++vi;
    }
  }
  return out;
}

}  // namespace stcsim::rtl_tb
