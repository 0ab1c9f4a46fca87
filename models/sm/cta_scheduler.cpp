#include "models/sm/cta_scheduler.h"

namespace stcsim {

CtaScheduler::CtaScheduler(sc_core::sc_module_name name, int num_sms)
    : sc_module(name), wanted_(num_sms, 0), granted_(num_sms), grant_(num_sms) {
  SC_METHOD(arbitrate);
  sensitive << requested_;
  dont_initialize();
}

void CtaScheduler::start(const KernelLaunch* k, std::function<void(std::size_t)> on_dispatch) {
  kernel_ = k;
  next_ = 0;
  limit_ = k ? k->ctas.size() : 0;
  on_dispatch_ = std::move(on_dispatch);
}

void CtaScheduler::request(int sm, int n) {
  wanted_[sm] += n;
  requested_.notify(sc_core::SC_ZERO_TIME);
}

std::vector<CtaTask> CtaScheduler::take_granted(int sm) {
  std::vector<CtaTask> out;
  out.swap(granted_[sm]);
  return out;
}

void CtaScheduler::arbitrate() {
  std::vector<int> asking;
  for (int sm = 0; sm < int(wanted_.size()); ++sm)
    if (wanted_[sm] > 0) asking.push_back(sm);
  bool any = true;
  while (any) {
    any = false;
    for (int sm : asking) {
      if (wanted_[sm] == 0 || exhausted()) continue;
      granted_[sm].push_back(kernel_->ctas[next_++]);
      --wanted_[sm];
      if (on_dispatch_) on_dispatch_(next_ - 1);  // may lower the limit (stop_at)
      any = true;
    }
  }
  for (int sm : asking) {
    wanted_[sm] = 0;
    grant_[sm].notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace stcsim
