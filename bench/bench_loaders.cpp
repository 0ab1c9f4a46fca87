// Wall time of loading hostile-but-valid model files (issue 20): a TF.js graph model whose
// nodes form one chain stored in reverse file order, the worst case for a topological
// sort done by passes over the file (one pass per node, O(n^2)). Written to a temporary
// folder once per size; each iteration parses and sorts it.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "workloads/loaders/tfjs.h"

namespace {

std::string reverse_chain_model(std::int64_t nodes) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("stcsim_bench_tfjs_" + std::to_string(::getpid()) + "_" + std::to_string(nodes));
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / "model.json");
  out << R"({"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [)";
  for (std::int64_t i = 0; i < nodes; ++i) {  // node i reads node i + 1
    out << (i ? "," : "") << R"({"name": "n)" << i << R"(", "op": "Identity", "input": [)";
    if (i + 1 < nodes) out << "\"n" << i + 1 << "\"";
    out << "]}";
  }
  out << "]}}";
  return (dir / "model.json").string();
}

void BM_TfjsReverseChain(benchmark::State& state) {
  const std::string path = reverse_chain_model(state.range(0));
  for (auto _ : state) {
    const auto m = stcsim::workloads::load_tfjs(path);
    benchmark::DoNotOptimize(m.ops.data());
  }
  state.SetComplexityN(state.range(0));
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

}  // namespace

BENCHMARK(BM_TfjsReverseChain)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 16)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

BENCHMARK_MAIN();
