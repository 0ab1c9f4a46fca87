// Hands the CTAs of the running kernel to SMs in launch order. Requests made in the
// same delta cycle are served together in rounds over SM ids, one CTA per SM per
// round (breadth-first, as the hardware's block scheduler fills SMs), so the
// assignment never depends on SystemC's process order.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <systemc>
#include <vector>

#include "models/sm/cta_program.h"

namespace stcsim {

class CtaScheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CtaScheduler);
  CtaScheduler(sc_core::sc_module_name name, int num_sms);

  // `on_dispatch(index)` is called as each CTA is handed out (steady-state mode watches
  // the dispatch times); empty: nothing is called.
  void start(const KernelLaunch* k, std::function<void(std::size_t)> on_dispatch = {});
  // Hand out only CTAs [0, n) of the running kernel (a steady-state cut; never below
  // what was handed out already).
  void stop_at(std::size_t n) { limit_ = std::max(n, next_); }
  // Ask for up to `n` CTAs; `grant(sm)` fires when `granted(sm)` holds the answer
  // (fewer than asked, or none, once the kernel's CTAs run out).
  void request(int sm, int n);
  sc_core::sc_event& grant(int sm) { return grant_[sm]; }
  std::vector<CtaTask> take_granted(int sm);
  bool exhausted() const { return kernel_ == nullptr || next_ >= limit_; }

 private:
  void arbitrate();
  const KernelLaunch* kernel_ = nullptr;
  std::size_t next_ = 0;
  std::size_t limit_ = 0;  // the kernel's CTA count unless cut
  std::function<void(std::size_t)> on_dispatch_;
  std::vector<int> wanted_;
  std::vector<std::vector<CtaTask>> granted_;
  std::vector<sc_core::sc_event> grant_;
  sc_core::sc_event requested_;
};

}  // namespace stcsim
