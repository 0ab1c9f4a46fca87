// Wall time and simulated cycles per second of `stcsim run` on the A100 preset.
// SystemC allows one simulation per process, so every iteration runs the built
// `stcsim` in a child process; the time reported is the simulation's own wall time
// (total.wall_seconds in stats.json: elaboration + simulation, without process start).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace {

nlohmann::json run(const std::string& gemm, const std::string& extra) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("stcsim_bench_" + std::to_string(::getpid()));
  const std::string cmd = std::string(STCSIM_BIN) + " run -q --arch a100 --dtype fp16 " + extra +
                          " --gemm " + gemm + " --out " + dir.string();
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("stcsim failed: " + cmd);
  std::ifstream in(dir / "stats.json");
  auto j = nlohmann::json::parse(in);
  std::filesystem::remove_all(dir);
  return j;
}

void BM_Gemm(benchmark::State& state, const std::string& gemm, const std::string& extra) {
  double cycles = 0, wall = 0, simulated = 0;
  for (auto _ : state) {
    const auto j = run(gemm, extra);
    wall += j["total"]["wall_seconds"].get<double>();
    cycles += j["total"]["cycles"].get<double>();
    simulated += j["total"]["seconds"].get<double>();
    state.SetIterationTime(j["total"]["wall_seconds"].get<double>());
  }
  state.counters["sim_cycles"] = cycles / state.iterations();
  state.counters["sim_cycles_per_s"] = cycles / wall;
  state.counters["slowdown_x"] = wall / simulated;  // host seconds per simulated second
}

}  // namespace

BENCHMARK_CAPTURE(BM_Gemm, a100_fp16_4096cubed, std::string("4096x4096x4096"), std::string())
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
// The sparse GEMM alone (no dense twin): target <= 1.2x the dense simulation's wall time.
BENCHMARK_CAPTURE(BM_Gemm, a100_sp24_fp16_4096cubed, std::string("4096x4096x4096"),
                  std::string("--sparsity 2:4 --no-dense-baseline"))
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Gemm, a100_fp16_8192cubed, std::string("8192x8192x8192"), std::string())
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_MAIN();
