// Kernel timing (docs/validation.md, "Timing"): per sample, R launches of the kernel are
// enqueued back to back (captured once as a CUDA graph and replayed; plain stream
// launches when a library refuses capture), so launch latency stays out of the figure:
//   cold   per-launch time with the L2 flushed before every launch:
//          (t[R x (flush, launch)] - t[R x flush]) / R
//   warm   per-launch time of R back-to-back launches, no flush (an untimed launch first)
//   single CUDA events around one launch after a flush: the old method, launch latency
//          included, kept as a cross-check
// The flush reads a buffer of twice the L2 (at least 8 MiB) with 16-byte loads: unlike
// a memset it leaves no dirty lines for the timed kernel to write back. The SM clock and
// board power are sampled densely (every 0.5 ms) around the timed runs; the energy of R
// back-to-back launches comes from NVML's energy counter over a sustained stretch that
// starts and ends on the counter's own steps.
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/harness/device_info.h"

namespace stcsim::validation {

class L2Flush {
 public:
  explicit L2Flush(long long l2_bytes);  // allocates 2 x l2_bytes (at least 8 MiB)
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;
  void enqueue(cudaStream_t s);  // one read pass over the buffer (throws on a launch error)
  long long bytes() const { return bytes_; }

 private:
  void* buf_ = nullptr;
  void* sink_ = nullptr;
  long long bytes_ = 0;
};

struct TimingStats {
  std::vector<double> samples_us;
  double median_us = 0, min_us = 0, max_us = 0, mean_us = 0;
};
TimingStats summarize(std::vector<double> samples_us);
nlohmann::json to_json(const TimingStats& t);

struct TimingSettings {
  int warmup = 5, runs = 30;
  double sample_target_us = 300;  // R: enough launches per sample to reach this
  int max_launches = 64;
  double energy_ms = 100;  // sustained back-to-back replay for the energy figure; 0: none
};

struct KernelTiming {
  TimingStats cold, warm, flush, single;
  int launches_per_sample = 1;
  std::string method;                            // "cuda_graph" or "stream"
  nlohmann::json sm_clock_mhz, power_w, energy;  // null when NVML is absent
};
nlohmann::json to_json(const KernelTiming& t);

// `launch` enqueues one run on the stream it is given (and throws on a launch error).
KernelTiming time_kernel(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                         const TimingSettings& s, L2Flush& flush, const Nvml& nvml);

}  // namespace stcsim::validation
