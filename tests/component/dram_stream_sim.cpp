// One simulation: `streams` requesters (one per SM link) read disjoint sequential
// data through the memory system, each keeping one 16 KiB request in flight, and the
// achieved DRAM bandwidth is printed as JSON. Used by test_dram_stream.
//   dram_stream_sim ARCH TOTAL_MIB [section.key=value ...]
#include <iostream>
#include <systemc>

#include "models/memory/memory_system.h"
#include "sim/config/config.h"
#include "sim/core/registry.h"

using namespace stcsim;

struct Streamer : sc_core::sc_module {
  SC_HAS_PROCESS(Streamer);
  Streamer(sc_core::sc_module_name n, MemorySystem& mem, int id, std::uint64_t base,
           std::uint64_t bytes)
      : sc_module(n), mem_(mem), id_(id), base_(base), bytes_(bytes) {
    SC_THREAD(run);
  }
  // Keep `kWindow` requests in flight, like a multistage cp.async pipeline.
  static constexpr int kWindow = 4;
  void run() {
    const std::uint64_t chunk = 16384;
    MemRequest ring[kWindow];
    std::uint64_t next = 0;
    int issued = 0, retired = 0;
    const int total = int(bytes_ / chunk);
    while (retired < total) {
      std::vector<MemRequest*> batch;
      while (issued < total && issued - retired < kWindow) {
        MemRequest& r = ring[issued++ % kWindow];
        r = MemRequest{};
        r.runs.push_back(RowRun{base_ + next, std::uint32_t(chunk), 1, chunk});
        next += chunk;
        batch.push_back(&r);
      }
      if (!batch.empty()) {
        mem_.submit(id_, batch);
        wait(mem_.grant(id_));
      }
      const Cycle done = ring[retired % kWindow].done;
      wait_until(done);
      finished = std::max(finished, done);
      ++retired;
    }
  }
  MemorySystem& mem_;
  int id_;
  std::uint64_t base_, bytes_;
  Cycle finished = 0;
};

int sc_main(int argc, char* argv[]) {
  if (argc < 3) {
    std::cerr << "usage: dram_stream_sim ARCH TOTAL_MIB [section.key=value ...]\n";
    return 2;
  }
  Config cfg = load_arch(argv[1]);
  for (int i = 3; i < argc; ++i) apply_override(cfg, argv[i]);
  const double clock = cfg.section("gpu").params.get_float("clock_mhz");
  const int sms = int(cfg.section("gpu").params.get_int("num_sms"));
  const BuildContext ctx{clock};
  const auto& l2 = cfg.section("l2");
  const auto& dram = cfg.section("dram");
  MemorySystem mem("mem", sms, cfg.section("sm").params.get_float("l2_link_bytes_per_cycle"),
                   Registry<IL2Cache>::create(l2.impl, l2.params, ctx),
                   Registry<IDram>::create(dram.impl, dram.params, ctx));
  const std::uint64_t total = std::uint64_t(std::stoll(argv[2])) << 20;
  const std::uint64_t per = total / sms / 16384 * 16384;
  std::vector<std::unique_ptr<Streamer>> s;
  for (int i = 0; i < sms; ++i)
    s.push_back(std::make_unique<Streamer>(("s" + std::to_string(i)).c_str(), mem, i,
                                           (std::uint64_t(1) << 34) + i * per, per));
  sc_core::sc_start();
  Cycle end = 0;
  for (auto& x : s) end = std::max(end, x->finished);
  const double bytes = double(per) * sms;
  std::cout << "{\"bytes\": " << bytes << ", \"cycles\": " << end
            << ", \"achieved_bytes_per_cycle\": " << bytes / end
            << ", \"sustained_bytes_per_cycle\": " << mem.dram().sustained_bytes_per_cycle()
            << ", \"peak_bytes_per_cycle\": " << mem.dram().peak_bytes_per_cycle()
            << ", \"dram_read_bytes\": " << mem.counters().dram_read_bytes << "}\n";
  return 0;
}
