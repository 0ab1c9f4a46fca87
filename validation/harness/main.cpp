// stcsim_validate_gpu: measures the validation kernels (validation/cuda) and the vendor
// baselines on a GPU and writes one measurement file (schema stcsim-measurements/1) for
// `stcsim validate`. docs/validation.md gives the commands and the file's fields.
// Exit status: 0 all checks passed, 1 a kernel gave a wrong result, 2 usage error,
// 77 no GPU ("skipped: no GPU", what the `gpu` ctest label expects).
#include <cuda_runtime_api.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/driver/gemm_list.h"
#include "validation/compare/measurements.h"
#include "validation/cuda/tile_geometry.h"
#include "validation/harness/cuda_check.h"
#include "validation/harness/measure_gemm.h"

namespace {

using namespace stcsim::validation;
using nlohmann::json;

constexpr int kSkipped = 77;

// The fp16 GEMMs issue 7 asks for: two squares and a transformer MLP sweep.
std::vector<GemmSpec> issue7_suite() {
  std::vector<GemmSpec> g{{"square_4096", 4096, 4096, 4096}, {"square_8192", 8192, 8192, 8192}};
  const struct {
    const char* name;
    int n, k;
  } layers[] = {
      {"bert_mlp_up", 3072, 768}, {"bert_mlp_down", 768, 3072}, {"llama7b_mlp_up", 11008, 4096}};
  for (int m : {128, 512, 2048, 8192})
    for (const auto& l : layers)
      g.push_back({std::string(l.name) + ".m" + std::to_string(m), m, l.n, l.k});
  return g;
}

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, format, std::gmtime(&t));
  return buf;
}

std::string slug(const std::string& s) {
  std::string o;
  for (char c : s) o += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '_';
  return o;
}

std::string shell_quote(const std::string& a) {
  if (a.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,") ==
      std::string::npos)
    return a;
  std::string o = "'";
  for (char c : a) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

// 0 with the device count when a GPU is usable, else prints why and returns kSkipped.
int gpu_available() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    std::cout << "skipped: no GPU ("
              << (e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device") << ")\n";
    return kSkipped;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Measure the stcsim validation kernels and vendor baselines on a GPU"};
  std::vector<std::string> gemms;
  std::string trace, suite, kernels = "dense,sp24,bsr,cublas,cublaslt,cusparselt",
                            out = "validation/measurements", label = "run";
  MeasureSettings s;
  int device = 0;
  bool check_gpu = false;
  app.add_option("--gemm", gemms, "a GEMM y[M,N] = x[M,K] W[N,K]^T as MxNxK (repeatable)");
  app.add_option("--trace", trace,
                 "a trace file (format 0: 'stcsim-trace 0', then 'MxNxK [dtype] [name]' lines)");
  app.add_option("--suite", suite, "a built-in list: issue7 (4096^3, 8192^3, MLP sweep)")
      ->check(CLI::IsMember({"issue7"}));
  app.add_option("--kernels", kernels, "comma list of dense,sp24,bsr,cublas,cublaslt,cusparselt")
      ->capture_default_str();
  app.add_option("--tile", s.tile, "our kernels' tile: auto or CMxCNxCK/WMxWN/sS")
      ->capture_default_str();
  app.add_option("--swizzle", s.swizzle, "N-tiles launched together (0: min(8, N-tiles))")
      ->capture_default_str();
  app.add_option("--bsr-density", s.bsr_density, "fraction of blocks kept per block row")
      ->capture_default_str();
  app.add_option("--warmup", s.warmup, "untimed runs first")->capture_default_str();
  app.add_option("--runs", s.runs, "timed runs (median reported; at least 20 for a measurement)")
      ->capture_default_str();
  app.add_option("--samples", s.samples,
                 "rows and columns of y checked against the functional model")
      ->capture_default_str();
  app.add_option("--seed", s.seed, "operand seed")->capture_default_str();
  app.add_option("--device", device, "CUDA device index")->capture_default_str();
  app.add_option("--label", label, "file name prefix")->capture_default_str();
  app.add_option("--out", out, "a .json file, or a directory: DIR/<gpu>/<label>_<UTC time>.json")
      ->capture_default_str();
  app.add_flag("--check-gpu", check_gpu,
               "only report whether a GPU is usable (exit 0, or 77 'skipped: no GPU')");
  CLI11_PARSE(app, argc, argv);

  std::vector<GemmSpec> list;
  try {  // inputs first: a usage error is an error with or without a GPU
    list = suite == "issue7" ? issue7_suite() : std::vector<GemmSpec>{};
    for (const auto& text : gemms) {
      const stcsim::GemmOp op = stcsim::parse_gemm(text, stcsim::Dtype::FP16, "--gemm");
      list.push_back({text, int(op.m), int(op.n), int(op.k)});
    }
    if (!trace.empty())
      for (const auto& op : stcsim::read_gemm_trace(trace, stcsim::Dtype::FP16)) {
        if (op.dtype != stcsim::Dtype::FP16)
          throw stcsim::InputError(trace + ": " + op.name + ": only fp16 is measured");
        list.push_back({op.name, int(op.m), int(op.n), int(op.k)});
      }
    if (list.empty() && !check_gpu)
      throw stcsim::InputError("nothing to measure: give --gemm, --trace or --suite");
    std::stringstream ks(kernels);
    for (std::string k; std::getline(ks, k, ',');) {
      if (!std::set<std::string>{"dense", "sp24", "bsr", "cublas", "cublaslt", "cusparselt"}.count(
              k))
        throw stcsim::InputError("--kernels: unknown kernel '" + k + "'");
      s.kernels.insert(k);
    }
    if (s.runs < 1 || s.warmup < 0 || s.samples < 2)
      throw stcsim::InputError("--runs >= 1, --warmup >= 0, --samples >= 2");
    if (s.tile != "auto") parse_tile(s.tile);
  } catch (const stcsim::InputError& e) {
    std::cerr << "stcsim_validate_gpu: error: " << e.what() << "\n";
    return 2;
  }
  if (const int rc = gpu_available()) return rc;
  if (check_gpu) return 0;
  try {
    CUDA_CHECK(cudaSetDevice(device));
    const DeviceInfo dev = query_device(device);
    Nvml nvml(dev.pci_bus_id);
    L2Flush flush(dev.l2_bytes);
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    MeasureContext ctx{dev, nvml, flush, stream};
    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + shell_quote(argv[i]);

    json doc;
    doc["schema"] = "stcsim-measurements/1";
    doc["synthetic"] = false;
    doc["command"] = command;
    doc["created_utc"] = utc_now("%Y-%m-%dT%H:%M:%SZ");
    doc["device"] = to_json(dev);
    doc["device"]["preset"] = preset_for_device(dev.name);
    doc["device"]["driver_version"] = nvml.driver_version();
    doc["device"]["nvml"] = nvml.status();
    doc["device"]["max_sm_clock_mhz"] = nvml.max_sm_clock_mhz();
    doc["settings"] = {{"warmup", s.warmup},
                       {"runs", s.runs},
                       {"statistic", "median"},
                       {"l2_flush_bytes", flush.bytes()},
                       {"seed", s.seed},
                       {"samples_per_dim", s.samples},
                       {"operands", "fp16 +-(1+m/1024)*2^e, e in [-3,0]: never zero"},
                       {"bsr_density", s.bsr_density}};
    json entries = json::array(), skipped = json::array(), baselines = json::object();
    bool ok = true;
    ClockSampler whole(nvml, 20);
    whole.start();
    for (const GemmSpec& g : list) {
      std::cerr << g.name << " " << g.m << "x" << g.n << "x" << g.k << "\n";
      ok = measure_gemm(g, s, ctx, entries, skipped, baselines) && ok;
    }
    doc["device"]["sm_clock_mhz"] = clock_summary(whole.stop());
    doc["device"]["clock_event_reasons_at_end"] = nvml.clock_event_reasons();
    doc["baselines"] = baselines;
    doc["gemms"] = entries;
    doc["skipped"] = skipped;

    std::string path = out;
    if (std::filesystem::path(out).extension() != ".json")
      path = out + "/" + slug(dev.name) + "/" + label + "_" + utc_now("%Y%m%dT%H%M%SZ") + ".json";
    if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent);
    std::ofstream(path) << doc.dump(1) << "\n";
    std::cout << "Wrote " << path << " (" << entries.size() << " measurements, " << skipped.size()
              << " skipped)" << (ok ? "" : "; SOME CHECKS FAILED") << "\n";
    return ok ? 0 : 1;
  } catch (const stcsim::InputError& e) {
    std::cerr << "stcsim_validate_gpu: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stcsim_validate_gpu: " << e.what() << "\n";
    return 1;
  }
}
