#include "models/sm/sm.h"

#include <algorithm>
#include <stdexcept>

#include "models/sm/cta_scheduler.h"

namespace stcsim {

Sm::Sm(sc_core::sc_module_name name, int id, const SmSpec& spec, const ITensorCore& tc_proto,
       const ISharedMemory& smem_proto, const ITma& tma_proto, MemorySystem& mem,
       CtaScheduler& sched)
    : sc_module(name), id_(id), spec_(spec), mem_(mem), sched_(sched) {
  for (int i = 0; i < spec.sub_cores; ++i) pipes_.push_back(tc_proto.clone_empty());
  smem_ = smem_proto.clone_empty();
  tma_ = tma_proto.clone_empty();
  cuda_.resize(std::size_t(spec.sub_cores));
  issue_.resize(std::size_t(spec.sub_cores));
  if (spec.l1_kib > 0) l1_ = std::make_unique<SectoredL2>(l1_tag_spec(spec));
  SC_THREAD(run);
}

Cycle Sm::cuda_core_busy_cycles() const {
  Cycle b = 0;
  for (const auto& t : cuda_) b += t.busy_cycles();
  return b;
}

void Sm::launch(const KernelLaunch* k, Cycle op_start) {
  kernel_ = k;
  op_start_ = op_start;
  launch_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Sm::run() {
  while (true) {
    wait(launch_ev_);
    run_kernel();
    done.notify(sc_core::SC_ZERO_TIME);
  }
}

void Sm::run_kernel() {
  SmContext ctx{spec_,     *smem_,           *tma_,      pipes_,        cuda_,    issue_, l1_.get(),
                counters_, last_write_done_, to_submit_, request_pool_, op_start_};
  slots_.clear();
  slots_.resize(std::size_t(kernel_->ctas_per_sm));
  bool more = true;
  int active_traced = 0;
  while (true) {
    const Cycle now = now_cycles();
    const int free =
        int(std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.cta; }));
    if (more && free > 0) {
      sched_.request(id_, free);
      wait(sched_.grant(id_));
      auto got = sched_.take_granted(id_);
      if (int(got.size()) < free) more = false;
      std::size_t i = 0;
      for (const auto& t : got) {
        while (slots_[i].cta) ++i;
        slots_[i].started = now_cycles();
        slots_[i].cta = kernel_->start_cta(t, int(i), ctx);
      }
    }
    for (auto& s : slots_)
      if (s.cta && s.cta->advance(now)) {
        if (const CtaPhaseRecord* ph = s.cta->phases(); ph && phase_log) {
          phase_log->push_back(*ph);
          phase_log->back().sm = id_;
        }
        counters_.ctas += 1;
        counters_.cta_cycles += now - s.started;
        s.cta.reset();
      }
    if (!to_submit_.empty()) {
      mem_.submit(id_, to_submit_);
      to_submit_.clear();
      wait(mem_.grant(id_));
      continue;  // results are in: advance again at the same cycle
    }
    int active = 0;
    Cycle next = kPending;
    for (const auto& s : slots_)
      if (s.cta) {
        ++active;
        next = std::min(next, s.cta->wake());
      }
    if (trace_signals && active != active_traced) active_ctas.write(active_traced = active);
    if (active == 0) {
      if (!more) break;
      continue;
    }
    if (next == kPending) throw std::logic_error("SM slot waits on a grant that never comes");
    // A slot ready this cycle was served above, so time must move on.
    wait_until(std::max(ceil_cycle(next), now + 1));
  }
  if (trace_signals) active_ctas.write(0);
}

}  // namespace stcsim
