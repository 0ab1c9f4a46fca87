// Hands the CTAs of the running kernel to SMs in launch order. Requests made in the
// same delta cycle are served together in rounds over SM ids, one CTA per SM per
// round (breadth-first, as the hardware's block scheduler fills SMs), so the
// assignment never depends on SystemC's process order.
#pragma once
#include <systemc>
#include <vector>

#include "models/sm/cta_program.h"

namespace stcsim {

class CtaScheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CtaScheduler);
  CtaScheduler(sc_core::sc_module_name name, int num_sms);

  void start(const KernelLaunch* k);
  // Ask for up to `n` CTAs; `grant(sm)` fires when `granted(sm)` holds the answer
  // (fewer than asked, or none, once the kernel's CTAs run out).
  void request(int sm, int n);
  sc_core::sc_event& grant(int sm) { return grant_[sm]; }
  std::vector<CtaTask> take_granted(int sm);
  bool exhausted() const { return kernel_ == nullptr || next_ >= kernel_->ctas.size(); }

 private:
  void arbitrate();
  const KernelLaunch* kernel_ = nullptr;
  std::size_t next_ = 0;
  std::vector<int> wanted_;
  std::vector<std::vector<CtaTask>> granted_;
  std::vector<sc_core::sc_event> grant_;
  sc_core::sc_event requested_;
};

}  // namespace stcsim
