// What the L2 holds when a GEMM of a sequence starts (`stcsim run --l2`).
//
//   flush  (default) as the validation harness measures: before every GEMM the memory
//          system finishes the traffic it accepted (the previous GEMM's write-backs), the
//          L2 and the SMs' L1s are emptied and the GEMM's buffers are placed at the
//          addresses it gets when run alone, all before its timing starts. Dirty lines
//          are dropped: their write-back is the flush's work, charged to no GEMM (the
//          harness's flush-by-reading evicts them before the timed launch, and a kernel's
//          time ends when its last store reaches the L2). A GEMM's cycles then do not
//          depend on what ran before it.
//   warm   state carries over: a GEMM meets the lines, dirty ones included, and the
//          write-backs still draining that the previous GEMMs left, at fresh addresses
//          (a layer reading the activations the previous one wrote). Runs that compare
//          sparse GEMMs with their dense twins still empty the L2 (only) before each GEMM,
//          so that both of a pair meet the same cache.
//   repeat as a benchmark loop times one call over and over (torch.utils.benchmark, back-to-
//          back launches without a flush, the harness's timing.warm_us): each GEMM starts
//          from a flush, runs once untimed, and the timed run follows at the same
//          addresses, meeting the lines (its previous run's dirty output among them) and
//          the write-backs still draining that the untimed run left (not its L1 lines:
//          every launch starts with the L1s invalidated). Twice the simulation; steady
//          mode cuts only the timed run; analytic mode simulates nothing, so its estimate
//          is the same under every policy.
#pragma once
#include <optional>
#include <string>

namespace stcsim {

enum class L2Policy { kFlush, kWarm, kRepeat };

inline const char* to_string(L2Policy p) {
  switch (p) {
    case L2Policy::kFlush:
      return "flush";
    case L2Policy::kWarm:
      return "warm";
    case L2Policy::kRepeat:
      return "repeat";
  }
  return "flush";
}

// The policy a name (`--l2`, a sweep's `l2:`) gives, or none; kL2PolicyNames lists them.
inline constexpr const char* kL2PolicyNames = "flush, warm or repeat";
inline std::optional<L2Policy> l2_policy_named(const std::string& name) {
  for (L2Policy p : {L2Policy::kFlush, L2Policy::kWarm, L2Policy::kRepeat})
    if (name == to_string(p)) return p;
  return std::nullopt;
}

}  // namespace stcsim
