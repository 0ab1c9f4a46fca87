#include "validation/harness/timing.h"

#include <algorithm>
#include <numeric>

#include "validation/harness/cuda_check.h"

namespace stcsim::validation {

L2Flush::L2Flush(long long l2_bytes) : bytes_(std::max(2 * l2_bytes, 8LL << 20)) {
  CUDA_CHECK(cudaMalloc(&buf_, std::size_t(bytes_)));
}

L2Flush::~L2Flush() { cudaFree(buf_); }

void L2Flush::enqueue(cudaStream_t s, int iteration) {
  CUDA_CHECK(cudaMemsetAsync(buf_, iteration & 0xFF, std::size_t(bytes_), s));
}

nlohmann::json to_json(const TimingStats& t) {
  return {{"median", t.median_us},
          {"min", t.min_us},
          {"max", t.max_us},
          {"mean", t.mean_us},
          {"runs", t.samples_us.size()},
          {"samples", t.samples_us}};
}

TimingStats time_launches(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                          int warmup, int runs, L2Flush& flush) {
  for (int i = 0; i < warmup; ++i) launch(stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  TimingStats t;
  for (int i = 0; i < runs; ++i) {
    flush.enqueue(stream,
                  i);  // still running when `start` is recorded: the launch is queued in time
    CUDA_CHECK(cudaEventRecord(start, stream));
    launch(stream);
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    t.samples_us.push_back(double(ms) * 1000.0);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::vector<double> s = t.samples_us;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  if (n) {
    t.median_us = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    t.min_us = s.front();
    t.max_us = s.back();
    t.mean_us = std::accumulate(s.begin(), s.end(), 0.0) / double(n);
  }
  return t;
}

}  // namespace stcsim::validation
