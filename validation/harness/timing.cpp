#include "validation/harness/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <tuple>

#include "validation/harness/cuda_check.h"

namespace stcsim::validation {

namespace {

using nlohmann::json;

// A captured sequence of launches, replayed as one graph; or, when capture failed, the
// same sequence enqueued on the stream each time.
class Replay {
 public:
  Replay(const std::function<void(cudaStream_t)>& body, cudaStream_t s) : body_(body), s_(s) {
    cudaGraph_t g = nullptr;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
      (void)cudaGetLastError();
      return;
    }
    bool ok = true;
    try {
      body(s);
    } catch (const std::exception&) {
      ok = false;
    }
    const cudaError_t end = cudaStreamEndCapture(s, &g);
    if (ok && end == cudaSuccess && g && cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess)
      exec_ = nullptr;
    if (g) cudaGraphDestroy(g);
    (void)cudaGetLastError();  // capture errors are not sticky; the stream runs on
  }
  ~Replay() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;
  bool graph() const { return exec_ != nullptr; }
  void enqueue() {
    if (exec_)
      CUDA_CHECK(cudaGraphLaunch(exec_, s_));
    else
      body_(s_);
  }

 private:
  std::function<void(cudaStream_t)> body_;
  cudaStream_t s_;
  cudaGraphExec_t exec_ = nullptr;
};

class Events {
 public:
  Events() {
    CUDA_CHECK(cudaEventCreate(&a_));
    CUDA_CHECK(cudaEventCreate(&b_));
  }
  ~Events() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  // Microseconds between events recorded around what `body` enqueues.
  template <typename F>
  double time(cudaStream_t s, F&& body) {
    CUDA_CHECK(cudaEventRecord(a_, s));
    body();
    CUDA_CHECK(cudaEventRecord(b_, s));
    CUDA_CHECK(cudaEventSynchronize(b_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a_, b_));
    return double(ms) * 1000.0;
  }

 private:
  cudaEvent_t a_, b_;
};

json sample_summary(std::vector<double> v, double scale) {
  if (v.empty()) return nullptr;
  for (double& x : v) x *= scale;
  const TimingStats t = summarize(v);
  return {{"median", t.median_us}, {"min", t.min_us}, {"max", t.max_us}, {"samples", v.size()}};
}

// The SM clock (MHz) and board power (W) summaries of a sampler's readings.
std::pair<json, json> clock_and_power(const std::vector<ClockSampler::Sample>& samples) {
  std::vector<double> mhz, watts;
  for (const auto& p : samples) {
    if (p.sm_mhz) mhz.push_back(p.sm_mhz);
    if (p.power_mw) watts.push_back(p.power_mw);
  }
  return {sample_summary(mhz, 1.0), sample_summary(watts, 1e-3)};
}

}  // namespace

TimingStats summarize(std::vector<double> samples) {
  TimingStats t;
  t.samples_us = samples;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  if (n) {
    t.median_us = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    t.min_us = samples.front();
    t.max_us = samples.back();
    t.mean_us = std::accumulate(samples.begin(), samples.end(), 0.0) / double(n);
  }
  return t;
}

json to_json(const TimingStats& t) {
  return {{"median", t.median_us},
          {"min", t.min_us},
          {"max", t.max_us},
          {"mean", t.mean_us},
          {"runs", t.samples_us.size()},
          {"samples", t.samples_us}};
}

json to_json(const KernelTiming& t) {
  return {{"method", t.method},           {"launches_per_sample", t.launches_per_sample},
          {"cold_us", to_json(t.cold)},   {"warm_us", to_json(t.warm)},
          {"flush_us", to_json(t.flush)}, {"single_launch_event_us", to_json(t.single)},
          {"power_w", t.power_w},         {"energy", t.energy}};
}

KernelTiming time_kernel(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                         const TimingSettings& s, L2Flush& flush, const Nvml& nvml) {
  for (int i = 0; i < s.warmup; ++i) launch(stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Events ev;
  KernelTiming t;
  // Launches per sample, from one flushed single launch.
  flush.enqueue(stream);
  const double one = ev.time(stream, [&] { launch(stream); });
  t.launches_per_sample =
      std::clamp(int(std::ceil(s.sample_target_us / std::max(one, 0.5))), 1, s.max_launches);
  const int r = t.launches_per_sample;

  Replay cold(
      [&](cudaStream_t st) {
        for (int i = 0; i < r; ++i) flush.enqueue(st), launch(st);
      },
      stream);
  Replay flushes(
      [&](cudaStream_t st) {
        for (int i = 0; i < r; ++i) flush.enqueue(st);
      },
      stream);
  Replay warm(
      [&](cudaStream_t st) {
        for (int i = 0; i < r; ++i) launch(st);
      },
      stream);
  t.method = cold.graph() && flushes.graph() && warm.graph() ? "cuda_graph" : "stream";
  CUDA_CHECK(cudaStreamSynchronize(stream));

  ClockSampler sampler(nvml);
  sampler.start();
  std::vector<double> c, w, f, one_s;
  for (int i = 0; i < s.runs; ++i) {
    const double tf = ev.time(stream, [&] { flushes.enqueue(); });
    const double tc = ev.time(stream, [&] { cold.enqueue(); });
    launch(stream);  // warms the L2 for the warm sample
    const double tw = ev.time(stream, [&] { warm.enqueue(); });
    flush.enqueue(stream);
    const double t1 = ev.time(stream, [&] { launch(stream); });
    f.push_back(tf / r);
    c.push_back((tc - tf) / r);
    w.push_back(tw / r);
    one_s.push_back(t1);
  }
  const std::vector<ClockSampler::Sample> samples = sampler.stop();
  t.cold = summarize(c);
  t.warm = summarize(w);
  t.flush = summarize(f);
  t.single = summarize(one_s);
  std::tie(t.sm_clock_mhz, t.power_w) = clock_and_power(samples);

  // Energy: back-to-back warm replays, NVML's energy counter (millijoules since the driver
  // loaded) read between batches. The counter advances in steps (about every 100 ms on an
  // H200, 2026-11-26: a fixed 50 ms window read 0 mJ or twice the real power), so the
  // stretch is measured from one step of the counter to a later one, at least energy_ms
  // apart: whole update periods, not a fraction of one.
  if (s.energy_ms > 0 && nvml.ok()) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    using clock = std::chrono::steady_clock;
    const auto since = [](clock::time_point a) {
      return std::chrono::duration<double, std::milli>(clock::now() - a).count();
    };
    // Over the stretch also: the GPU's busy time (events around each batch: gaps between
    // batches would put idle power into mj_per_launch) and the SM clock and power sampled
    // (a clock that falls under the power limit slows every launch). H200, 2026-11-26:
    // over 2 s stretches launches came 1.22-2.04x slower than timed, by a near constant
    // 0.55-0.75 ms each, which a clock drop alone would not give.
    ClockSampler stretch_sampler(nvml);
    const auto t_begin = clock::now();
    const double give_up_ms = std::max(10 * s.energy_ms, 2000.0);
    unsigned long long e_prev = nvml.total_energy_mj(), e_a = 0, e_b = 0;
    clock::time_point t_a{}, t_b{};
    long long launches = 0, launches_at_a = 0;
    double busy_us = 0;  // within the stretch
    int steps = 0;
    while (since(t_begin) < give_up_ms) {
      const double batch_us = ev.time(stream, [&] {
        for (int i = 0; i < 8; ++i) warm.enqueue();
      });
      launches += 8LL * r;
      if (steps >= 1) busy_us += batch_us;  // ev.time waited for the batch
      const unsigned long long e = nvml.total_energy_mj();
      if (e == e_prev) continue;
      e_prev = e;
      ++steps;
      if (steps == 1) {  // the first step: the stretch starts here
        e_a = e, t_a = clock::now(), launches_at_a = launches;
        stretch_sampler.start();
      } else if (since(t_a) >= s.energy_ms) {
        e_b = e, t_b = clock::now();
        break;
      }
    }
    const auto [stretch_mhz, stretch_w] = clock_and_power(stretch_sampler.stop());
    if (e_b > e_a) {  // set only at a second step
      const double secs = std::chrono::duration<double>(t_b - t_a).count();
      const long long n = launches - launches_at_a;
      t.energy = {{"millijoules", e_b - e_a},
                  {"seconds", secs},
                  {"launches", n},
                  {"average_w", double(e_b - e_a) * 1e-3 / secs},
                  {"mj_per_launch", double(e_b - e_a) / double(n)},
                  {"counter_steps", steps - 1},
                  {"gpu_busy_seconds", busy_us * 1e-6},
                  {"sm_clock_mhz", stretch_mhz},
                  {"power_w", stretch_w},
                  {"of",
                   "back-to-back warm launches, NVML total energy counter, from one "
                   "step of the counter to a later one"}};
    } else {
      t.energy = {{"error", "NVML's energy counter did not step twice in " +
                                std::to_string(int(give_up_ms)) + " ms"}};
    }
  }
  return t;
}

}  // namespace stcsim::validation
