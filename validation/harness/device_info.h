// What the measurement records about the GPU: the CUDA runtime's view of the device and,
// through NVML (libnvidia-ml.so.1, loaded with dlopen; "absent" when missing), the
// driver version and the SM clock observed while kernels run. Read-only: nothing here
// changes a clock or any setting of the card.
#pragma once
#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace stcsim::validation {

struct DeviceInfo {
  int index = 0;
  std::string name, pci_bus_id, compute_capability;
  int sm_count = 0;
  long long l2_bytes = 0, global_mem_bytes = 0;
  int smem_per_block_optin = 0;
  int runtime_version = 0, driver_api_version = 0;  // e.g. 13000
};
DeviceInfo query_device(int index);  // throws on CUDA errors
nlohmann::json to_json(const DeviceInfo& d);

// NVML, loaded on demand. Every query returns 0 / "" when NVML is absent or fails.
class Nvml {
 public:
  explicit Nvml(const std::string& pci_bus_id);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  bool ok() const { return device_ != nullptr; }
  const std::string& status() const { return status_; }  // "ok" or "absent: why"
  unsigned sm_clock_mhz() const;                         // current
  unsigned max_sm_clock_mhz() const;                     // the board's maximum
  unsigned mem_clock_mhz() const;
  unsigned long long clock_event_reasons() const;  // why clocks are held down (bit mask)
  std::string driver_version() const;

 private:
  void* lib_ = nullptr;
  void* device_ = nullptr;
  std::string status_;
  template <typename F>
  F sym(const char* name) const;
};

// Samples the SM clock every `period_ms` on a thread while alive (between start/stop).
class ClockSampler {
 public:
  explicit ClockSampler(const Nvml& nvml, int period_ms = 2) : nvml_(nvml), period_ms_(period_ms) {}
  ~ClockSampler() { stop(); }
  void start();
  std::vector<unsigned> stop();  // the samples since start()

 private:
  const Nvml& nvml_;
  int period_ms_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::vector<unsigned> samples_;
};

// {"median", "min", "max", "samples"} of clock samples; null when there are none.
nlohmann::json clock_summary(std::vector<unsigned> samples);

}  // namespace stcsim::validation
