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
  unsigned power_mw() const;                       // board power, the driver's averaging
  unsigned long long total_energy_mj() const;      // energy since the driver loaded
  std::string driver_version() const;

 private:
  void* lib_ = nullptr;
  void* device_ = nullptr;
  std::string status_;
  template <typename F>
  F sym(const char* name) const;
};

// Samples the SM clock and board power every `period_us` on a thread (between
// start and stop): dense enough that a 10 us kernel timed over many launches gets tens of
// samples.
class ClockSampler {
 public:
  struct Sample {
    unsigned sm_mhz = 0, power_mw = 0;
  };
  explicit ClockSampler(const Nvml& nvml, int period_us = 500)
      : nvml_(nvml), period_us_(period_us) {}
  ~ClockSampler() { stop(); }
  void start();
  std::vector<Sample> stop();  // the samples since start()

 private:
  const Nvml& nvml_;
  int period_us_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::vector<Sample> samples_;
};

}  // namespace stcsim::validation
