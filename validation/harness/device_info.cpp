#include "validation/harness/device_info.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>

#include "validation/harness/cuda_check.h"

namespace stcsim::validation {

namespace {
// The few NVML declarations used (nvml.h is not part of the CUDA toolkit here).
using nvmlReturn = int;  // NVML_SUCCESS = 0
constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;
}  // namespace

DeviceInfo query_device(int index) {
  DeviceInfo d;
  d.index = index;
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  d.name = p.name;
  d.compute_capability = std::to_string(p.major) + "." + std::to_string(p.minor);
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.global_mem_bytes = (long long)p.totalGlobalMem;
  d.smem_per_block_optin = int(p.sharedMemPerBlockOptin);
  char bus[64] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, index));
  d.pci_bus_id = bus;
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_api_version));
  return d;
}

nlohmann::json to_json(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_bus_id", d.pci_bus_id},
          {"compute_capability", d.compute_capability},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"global_mem_bytes", d.global_mem_bytes},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"cuda_runtime_version", d.runtime_version},
          {"cuda_driver_api_version", d.driver_api_version}};
}

template <typename F>
F Nvml::sym(const char* name) const {
  return lib_ ? reinterpret_cast<F>(::dlsym(lib_, name)) : nullptr;
}

Nvml::Nvml(const std::string& pci_bus_id) {
  lib_ = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    status_ = std::string("absent: ") + ::dlerror();
    return;
  }
  auto init = sym<nvmlReturn (*)()>("nvmlInit_v2");
  auto by_bus = sym<nvmlReturn (*)(const char*, void**)>("nvmlDeviceGetHandleByPciBusId_v2");
  if (!init || !by_bus || init() != 0) {
    status_ = "absent: nvmlInit_v2 failed";
    return;
  }
  if (by_bus(pci_bus_id.c_str(), &device_) != 0) {
    // Fall back to the only device, if there is just one.
    auto count = sym<nvmlReturn (*)(unsigned*)>("nvmlDeviceGetCount_v2");
    auto by_index = sym<nvmlReturn (*)(unsigned, void**)>("nvmlDeviceGetHandleByIndex_v2");
    unsigned n = 0;
    if (!count || !by_index || count(&n) != 0 || n != 1 || by_index(0, &device_) != 0) {
      device_ = nullptr;
      status_ = "absent: no NVML device at " + pci_bus_id;
      return;
    }
  }
  status_ = "ok";
}

Nvml::~Nvml() {
  if (device_)
    if (auto shutdown = sym<nvmlReturn (*)()>("nvmlShutdown")) shutdown();
  if (lib_) ::dlclose(lib_);
}

unsigned Nvml::sm_clock_mhz() const {
  auto f = sym<nvmlReturn (*)(void*, int, unsigned*)>("nvmlDeviceGetClockInfo");
  unsigned v = 0;
  return device_ && f && f(device_, kNvmlClockSm, &v) == 0 ? v : 0;
}

unsigned Nvml::max_sm_clock_mhz() const {
  auto f = sym<nvmlReturn (*)(void*, int, unsigned*)>("nvmlDeviceGetMaxClockInfo");
  unsigned v = 0;
  return device_ && f && f(device_, kNvmlClockSm, &v) == 0 ? v : 0;
}

unsigned Nvml::mem_clock_mhz() const {
  auto f = sym<nvmlReturn (*)(void*, int, unsigned*)>("nvmlDeviceGetClockInfo");
  unsigned v = 0;
  return device_ && f && f(device_, kNvmlClockMem, &v) == 0 ? v : 0;
}

unsigned long long Nvml::clock_event_reasons() const {
  auto f =
      sym<nvmlReturn (*)(void*, unsigned long long*)>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!f)
    f = sym<nvmlReturn (*)(void*, unsigned long long*)>(
        "nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long v = 0;
  return device_ && f && f(device_, &v) == 0 ? v : 0;
}

unsigned Nvml::power_mw() const {
  auto f = sym<nvmlReturn (*)(void*, unsigned*)>("nvmlDeviceGetPowerUsage");
  unsigned v = 0;
  return device_ && f && f(device_, &v) == 0 ? v : 0;
}

unsigned long long Nvml::total_energy_mj() const {
  auto f = sym<nvmlReturn (*)(void*, unsigned long long*)>("nvmlDeviceGetTotalEnergyConsumption");
  unsigned long long v = 0;
  return device_ && f && f(device_, &v) == 0 ? v : 0;
}

std::string Nvml::driver_version() const {
  auto f = sym<nvmlReturn (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
  char buf[96] = {};
  return device_ && f && f(buf, sizeof buf) == 0 ? std::string(buf) : std::string();
}

void ClockSampler::start() {
  stop();
  samples_.clear();
  if (!nvml_.ok()) return;
  running_ = true;
  thread_ = std::thread([this] {
    while (running_) {
      samples_.push_back({nvml_.sm_clock_mhz(), nvml_.power_mw()});
      std::this_thread::sleep_for(std::chrono::microseconds(period_us_));
    }
  });
}

std::vector<ClockSampler::Sample> ClockSampler::stop() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
  return samples_;
}

}  // namespace stcsim::validation
