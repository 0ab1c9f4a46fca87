// rtl_tensor_core_gemm_matches_cpp: a small GEMM through `stcsim run --functional` twice,
// with the tensor core `impl: rtl` (timing measured on the Verilated units, values
// computed by them) and with the C++ pipe (mma_pipeline) set to the analytic unit model
// (models/tensor_core/dot_unit_timing.h) and the golden numerics. Per case (fp16, bf16,
// int8; 2:4 and dense) it requires:
//   - the output .npy (op0_y) identical byte for byte (operands too);
//   - every timing figure of the op and of the total identical: cycles, tensor busy and
//     stall cycles (stall_pipe_cycles), utilisations, mapping, ... (only the functional
//     block's file names and its dot_unit line differ);
//   - the RTL run's values really came from the RTL (functional.dot_unit).
//
//   rtl_gemm_match STCSIM OUTDIR          exit 0 all equal, 1 a difference
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/tensor_core/dot_unit_timing.h"
#include "rtl/model/rtl_tensor_core.h"

using namespace stcsim;

namespace {

const char* kGemm = "64x128x256";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool run(const std::string& cmd) {
  std::cout << "$ " << cmd << "\n" << std::flush;
  return std::system(cmd.c_str()) == 0;
}

// The op's figures without what names files or the source of the values.
nlohmann::json timing_of(nlohmann::json op) {
  op.erase("functional");
  op.erase("wall_seconds");
  return op;
}

bool same(const std::string& what, const nlohmann::json& a, const nlohmann::json& b) {
  if (a == b) return true;
  std::cout << "DIFFERENT " << what << ":\n  rtl: " << a.dump() << "\n  cpp: " << b.dump() << "\n";
  return false;
}

}  // namespace

// libsystemc.so's own main() refers to sc_main (the models are linked for the rtl
// tensor core's defaults); this main() is the one that runs.
extern "C" int sc_main(int, char*[]) { return 0; }

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: rtl_gemm_match STCSIM OUTDIR\n";
    return 2;
  }
  const std::string stcsim = argv[1], out = argv[2];
  const RtlTensorCoreSpec spec;  // impl rtl's defaults, as `-p tensor_core.impl=rtl` gets them
  const int block = RtlTensorCore::block();
  int failures = 0;
  for (const char* dtype : {"fp16", "bf16", "int8"})
    for (const char* sparsity : {"2:4", "dense"}) {
      const MmaKind kind{parse_dtype(dtype), parse_sparsity(sparsity)};
      const int units = kind.sparsity.dense() ? spec.dense_dot_units : spec.sparse_dot_units;
      const DotUnitTiming t = dot_unit_timing(kind, units, block, spec.operand_latency);
      std::cout << "== " << kind.str() << ": analytic ii " << t.ii << ", latency " << t.latency
                << "\n";
      const std::string tag = std::string(dtype) + (kind.sparsity.dense() ? "_dense" : "_sp24");
      const std::string common = stcsim + " run -q --arch a100 --gemm " + kGemm + " --dtype " +
                                 dtype + " --sparsity " + sparsity +
                                 " --no-dense-baseline --functional --seed 3";
      const std::string p = " -p tensor_core.";
      const std::string d = dtype;
      const std::string rtl_dir = out + "/" + tag + "_rtl", cpp_dir = out + "/" + tag + "_cpp";
      // One kind per run (--no-dense-baseline): mma_pipeline has one (ii, latency) per dtype.
      if (!run(common + " --out " + rtl_dir + p + "impl=rtl") ||
          !run(common + " --out " + cpp_dir + p + "impl=mma_pipeline" + p + d +
               "_ii_cycles=" + std::to_string(t.ii) + p + d +
               "_latency_cycles=" + std::to_string(t.latency) + p + "sparse_patterns=2:4" + p +
               "sparse_extra_latency_cycles=0" + p + "operand_b_bytes_per_cycle=0" + p +
               "metadata_bits_per_cycle=0" + p + "numerics=" + RtlTensorCore::preset())) {
        std::cout << "FAILED: stcsim run\n";
        ++failures;
        continue;
      }
      bool ok = true;
      for (const char* f : {"op0_x.npy", "op0_w.npy", "op0_y.npy"}) {
        const std::string a = slurp(rtl_dir + "/" + f), b = slurp(cpp_dir + "/" + f);
        if (a.empty() || a != b) {
          std::cout << "DIFFERENT " << f << " (" << a.size() << " and " << b.size() << " bytes)\n";
          ok = false;
        }
      }
      const auto sr = nlohmann::json::parse(slurp(rtl_dir + "/stats.json"));
      const auto sc = nlohmann::json::parse(slurp(cpp_dir + "/stats.json"));
      ok &= same("op timing", timing_of(sr["ops"][0]), timing_of(sc["ops"][0]));
      ok &= same("total", timing_of(sr["total"]), timing_of(sc["total"]));
      const std::string unit = sr["ops"][0]["functional"].value("dot_unit", "");
      if (unit.find(kind.sparsity.dense() ? "Verilated dense_dot" : "Verilated sp24_dot") != 0) {
        std::cout << "the rtl run's values did not come from the RTL: dot_unit '" << unit << "'\n";
        ok = false;
      }
      std::cout << (ok ? "equal" : "MISMATCH") << ": cycles " << sr["total"]["cycles"]
                << ", tensor busy " << sr["ops"][0]["stall_pipe_cycles"]["busy"]
                << " pipe cycles, y " << slurp(rtl_dir + "/op0_y.npy").size()
                << " bytes; values by " << unit << "\n";
      failures += !ok;
    }
  std::cout << (failures ? "FAILED: " + std::to_string(failures) + " case(s)" : "all 6 cases equal")
            << "\n";
  return failures ? 1 : 0;
}
