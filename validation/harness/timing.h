// Kernel timing as docs/validation.md specifies it: CUDA events around each launch,
// warm-up launches first, the L2 flushed before every timed launch (a memset of twice
// the L2's size, enqueued before the start event so it is not timed), the median over
// the runs reported.
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

namespace stcsim::validation {

class L2Flush {
 public:
  explicit L2Flush(long long l2_bytes);  // allocates 2 x l2_bytes (at least 8 MiB)
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;
  void enqueue(cudaStream_t s, int iteration);  // overwrite the buffer (a different byte each time)
  long long bytes() const { return bytes_; }

 private:
  void* buf_ = nullptr;
  long long bytes_ = 0;
};

struct TimingStats {
  std::vector<double> samples_us;
  double median_us = 0, min_us = 0, max_us = 0, mean_us = 0;
};
nlohmann::json to_json(const TimingStats& t);

// `launch` enqueues one run on the stream (and throws on a launch error).
TimingStats time_launches(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                          int warmup, int runs, L2Flush& flush);

}  // namespace stcsim::validation
