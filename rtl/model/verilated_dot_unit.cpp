#include "rtl/model/verilated_dot_unit.h"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "Vdense_dot.h"
#include "Vsp24_dot.h"
#include "rtl/model/verilator_ports.h"
#include "verilated.h"

namespace stcsim::rtl {

// The two units share the handshake and the C/D ports; sp24_dot adds the metadata
// nibbles and their error flag, and its A port carries the kept values only.
struct VerilatedDotUnit::Port {
  virtual ~Port() = default;
  virtual void offer(DotFormat f, bool first, bool last, const std::uint32_t* a,
                     const std::uint8_t* nibbles, const std::uint32_t* b, std::uint32_t c) = 0;
  virtual void idle() = 0;
  // Evaluates with the clock low (the inputs as set) and returns in_ready.
  virtual bool settle() = 0;
  virtual bool out_valid() const = 0;
  virtual std::uint32_t out_d() const = 0;
  virtual bool meta_err() const = 0;
  // A cycle is settle() (clock low, inputs as set: the outputs are this cycle's), then
  // step() (the rising edge that ends it).
  virtual void step() = 0;
};

namespace {

// Cycles after the last beat within which the result must appear (the unit has 2 stages).
constexpr int kMaxDrain = 8;

template <class V>
class Model : public VerilatedDotUnit::Port {
  static constexpr bool kSparse = std::is_same_v<V, Vsp24_dot>;

 public:
  explicit Model(int block) : block_(block), top_(std::make_unique<V>(&ctx_)) {
    // The generated parameters and the preset's block size must agree: in_b is BLOCK
    // 16-bit values.
    if (int(sizeof(top_->in_b)) * 8 != block * 16)
      throw std::logic_error("rtl: Verilated in_b is " + std::to_string(sizeof(top_->in_b) * 8) +
                             " bits, expected 16 x block " + std::to_string(block) +
                             " (stc_params.svh and STCSIM_RTL_PRESET disagree)");
    top_->clk = 0;
    top_->rst_n = 0;
    top_->in_valid = 0;
    top_->out_ready = 1;  // the pipe never back-pressures the unit
    for (int i = 0; i < 2; ++i) {
      settle();
      step();
    }
    top_->rst_n = 1;
  }
  ~Model() override { top_->final(); }

  void offer(DotFormat f, bool first, bool last, const std::uint32_t* a,
             const std::uint8_t* nibbles, const std::uint32_t* b, std::uint32_t c) override {
    V& t = *top_;
    t.in_valid = 1;
    t.in_first = first;
    t.in_last = last;
    t.in_bf16 = f == DotFormat::BF16;
    t.in_int8 = f == DotFormat::S8;
    t.in_c = c;
    for (int j = 0; j < block_; ++j) put(t.in_b, 16 * j, 16, b[j]);
    if constexpr (kSparse) {
      for (int i = 0; i < block_ / 2; ++i) put(t.in_a, 16 * i, 16, a[i]);
      for (int g = 0; g < block_ / 4; ++g) put(t.in_meta, 4 * g, 4, nibbles[g]);
    } else {
      (void)nibbles;
      for (int i = 0; i < block_; ++i) put(t.in_a, 16 * i, 16, a[i]);
    }
  }
  void idle() override { top_->in_valid = 0; }
  bool settle() override {
    top_->clk = 0;
    top_->eval();
    return top_->in_ready;
  }
  bool out_valid() const override { return top_->out_valid; }
  std::uint32_t out_d() const override { return top_->out_d; }
  bool meta_err() const override {
    if constexpr (kSparse) return top_->out_meta_err;
    return false;
  }
  void step() override {
    top_->clk = 1;
    top_->eval();
  }

 private:
  int block_;
  VerilatedContext ctx_;
  std::unique_ptr<V> top_;
};

}  // namespace

VerilatedDotUnit::VerilatedDotUnit(bool sparse, int block) : sparse_(sparse), block_(block) {
  if (block <= 0 || block % 4 != 0)
    throw std::logic_error("rtl: block " + std::to_string(block) + " is not whole 2:4 groups");
  if (sparse)
    port_ = std::make_unique<Model<Vsp24_dot>>(block);
  else
    port_ = std::make_unique<Model<Vdense_dot>>(block);
}

VerilatedDotUnit::~VerilatedDotUnit() = default;

UnitCycles VerilatedDotUnit::time_back_to_back(int dots, int beats, DotFormat f) {
  // Operands are fixed (1.0, or 1 for s8, metadata {0,1}): the unit's timing depends on
  // the handshake only, never on the values.
  const std::uint32_t one = f == DotFormat::S8 ? 1u : f == DotFormat::BF16 ? 0x3F80u : 0x3C00u;
  const std::vector<std::uint32_t> a(std::size_t(block_), one), b(std::size_t(block_), one);
  const std::vector<std::uint8_t> nib(std::size_t(block_ / 4), 0x4);
  UnitCycles u;
  const int total = dots * beats;
  int sent = 0, last_accept = -1;
  for (int t = 0; u.results < dots; ++t) {
    if (t > total + 64) throw std::logic_error("rtl: the dot unit gave no result (pipeline hung)");
    if (sent < total)
      port_->offer(f, sent % beats == 0, sent % beats == beats - 1, a.data(), nib.data(), b.data(),
                   0);
    else
      port_->idle();
    const bool ready = port_->settle();
    if (port_->out_valid()) {  // the value set at the previous edge: on the output in cycle t
      ++u.results;
      u.first_to_last_result = t;
    }
    if (sent < total && ready) {
      last_accept = t;
      ++sent;
      ++u.beats_accepted;
    }
    port_->step();
  }
  port_->idle();
  u.input_busy = last_accept + 1;  // the first beat is offered, and accepted, in cycle 0
  return u;
}

std::uint32_t VerilatedDotUnit::dot(DotFormat f, const std::uint32_t* a,
                                    const std::uint8_t* nibbles, const std::uint32_t* b, int k,
                                    std::uint32_t c) {
  if (k <= 0 || k % block_ != 0)
    throw std::logic_error("rtl: dot product of K " + std::to_string(k) +
                           " is not whole beats of " + std::to_string(block_));
  const int beats = k / block_;
  const int a_per_beat = sparse_ ? block_ / 2 : block_;
  for (int bt = 0; bt < beats; ++bt) {
    port_->offer(f, bt == 0, bt == beats - 1, a + bt * a_per_beat,
                 nibbles ? nibbles + bt * (block_ / 4) : nullptr, b + bt * block_, c);
    if (!port_->settle()) throw std::logic_error("rtl: the dot unit stalled with its output ready");
    port_->step();
  }
  port_->idle();
  for (int t = 0; t <= kMaxDrain; ++t) {
    port_->settle();
    if (port_->out_valid()) {
      const std::uint32_t d = port_->out_d();
      const bool err = port_->meta_err();
      port_->step();  // takes the result off the output
      if (err) throw std::logic_error("rtl: sp24_dot flagged unordered metadata");
      return d;
    }
    port_->step();
  }
  throw std::logic_error("rtl: the dot unit gave no result (pipeline hung)");
}

}  // namespace stcsim::rtl
