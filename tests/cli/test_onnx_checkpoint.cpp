// A user's .onnx checkpoint (issue 16): PaddleOCR's direction classifier, from the same
// fetched package as ppocrv4_rec, is lowered node by node: its convolutions become conv
// ops with their geometry, its classifier a Linear layer of one token per sample, and
// the dynamic input size it was lowered at is said on stderr.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("onnx_checkpoint_lowers_its_convolutions", "[cli][onnx]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  using namespace stcsim::workloads;
  const std::string onnx = package_dir(real_model_info("ppocrv4_rec"), default_cache_dir()) +
                           "/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx";
  const std::string trace = temp_dir("onnx_checkpoint") + "/cls.trace";
  const ProcResult r =
      run_stcsim("trace --model " + onnx + " --out " + trace + " --no-payload --batch 2");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("stcsim: note: ch_ppocr_mobile_v2.0_cls_infer: input 'x'") != std::string::npos);
  CHECK(r.err.find("dynamic height or width: lowered at 224x224") != std::string::npos);
  std::ifstream in(trace);
  std::string line;
  int ops = 0, convs = 0;
  std::string last;
  while (std::getline(in, line))
    if (line.rfind("op ", 0) == 0) {
      ++ops;
      convs += line.find(" conv=") != std::string::npos;
      last = line;
    }
  // Every Conv node (53) and the fully connected classifier: nothing dropped.
  CHECK(ops == 54);
  CHECK(convs == 53);
  CHECK(last.find("op fc_0 m=2 n=2 k=200 ") == 0);  // two samples, one token each
}
