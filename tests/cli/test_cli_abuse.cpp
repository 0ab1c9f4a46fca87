// Command-line abuse (issue 20): every case a new or hostile user tried that once
// crashed, hung, allocated without bound, read outside a model's folder or was accepted
// silently. Each must exit 2 with a message on stderr naming the offending input, and
// leave no partial output behind.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;
namespace fs = std::filesystem;

namespace {

struct AbuseCase {
  std::string args;                  // after `stcsim`
  std::vector<std::string> message;  // each must appear on stderr
};

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The fixture files the cases name: a folder of hostile inputs.
std::string make_inputs() {
  const std::string d = temp_dir("abuse");
  const std::string head = "schema_version: 1\nbase: a100\n";
  write(d + "/dup_key.yaml", head + "l2:\n  ways: 16\n  ways: 8\n");
  write(d + "/dup_section.yaml", head + "l2:\n  ways: 16\ndram:\n  channels: 8\nl2:\n  ways: 8\n");
  write(d + "/base_file.yaml", "schema_version: 1\nbase: other.yaml\n");
  write(d + "/bad_name.yaml", head + "name: \"caf\\xE9\"\n");
  write(d + "/bad_utf8.yaml", head + "name: caf\xE9\n");
  write(d + "/octal.yaml", head + "gpu:\n  num_sms: 010\n");
  write(d + "/two_docs.yaml", head + "---\nl2:\n  ways: 8\n");
  write(d + "/trailing_doc_end.yaml", head + "l2:\n  ways: 8\n---\n");
  write(d + "/two_docs_sweep.yaml",
        "schema_version: 1\nbase: a100\nworkloads: [64x64x64]\nvary:\n  l2.ways: [8]\n---\n"
        "vary:\n  l2.ways: [16]\n");
  std::string many = "stcsim-trace 0\n";
  for (int i = 0; i < 20000; ++i) many += "8x64x64\n";
  write(d + "/many_ops.trace", many);
  write(d + "/deep.yaml", head + std::string(5000, '[') + std::string(5000, ']') + "\n");
  write(d + "/range_float.yaml",
        "schema_version: 1\nbase: a100\nworkloads: [64x64x64]\nvary:\n  l2.ways: {from: 1, to: 2, "
        "step: 1e-300}\n");
  write(d + "/range_int.yaml",
        "schema_version: 1\nbase: a100\nworkloads: [64x64x64]\nvary:\n"
        "  l2.ways: {from: -9223372036854775808, to: 9223372036854775807, step: 1}\n");
  write(d + "/dup_sweep.yaml",
        "schema_version: 1\nbase: a100\nworkloads: [64x64x64]\nworkloads: [8x8x8]\nvary:\n  "
        "l2.ways: [8]\n");
  // Traces: a directory as payload, a payload from /dev/zero, one leaving the folder,
  // a 4096x4096-block map in a few bytes, a name that is not UTF-8.
  const std::string t1 = "stcsim-trace 1\nmodel m\nsynthetic true\ndtype fp16\nops 1\n";
  fs::create_directories(d + "/payload_dir.bin");
  write(d + "/payload_dir.trace", t1 + "payload payload_dir.bin 8\nop a m=8 n=8 k=8\n");
  write(d + "/payload_zero.trace", t1 + "payload ../../../../../dev/zero 8\nop a m=8 n=8 k=8\n");
  write(d + "/payload_abs.trace", t1 + "payload /dev/zero 8\nop a m=8 n=8 k=8\n");
  write(d + "/bad_op.trace", "stcsim-trace 0\n64x64x64 fp16 caf\xE9\n");
  write(d + "/bad_op1.trace", t1 + "op caf\xE9 m=8 n=8 k=8\n");
  write(d + "/size_lie.trace", t1 + "payload size_lie.bin 100\nop a m=8 n=8 k=8\n");
  write(d + "/size_lie.bin", std::string(8, '\0'));
  // TF.js: a shard path leading out of the model's folder; JSON nested 200,000 deep; a
  // number beyond a double.
  fs::create_directories(d + "/tfjs");
  write(
      d + "/tfjs/escape.json",
      R"([{"paths": ["../../../../../../dev/zero"], "weights": [{"name": "w", "shape": [2, 2], "dtype": "float32"}]}])");
  write(d + "/tfjs/deep.json", std::string(200000, '[') + std::string(200000, ']'));
  write(d + "/tfjs/huge.json", R"([{"paths": [], "weights": [{"name": "w", "shape": [1e999]}]}])");
  fs::create_directories(d + "/model_dir.npy");
  return d;
}

}  // namespace

TEST_CASE("cli_abuse_each_case_exits_2_naming_the_input", "[cli][abuse]") {
  const std::string d = make_inputs();
  const std::string g = " --gemm 64x64x64 -q";
  const AbuseCase cases[] = {
      // Numeric options: NaN, Inf, negative, empty, subnormal, octal, junk.
      {"run --unstructured nan" + g, {"--unstructured", "nan"}},
      {"run --unstructured inf" + g, {"--unstructured", "inf"}},
      {"run --unstructured 1.5" + g, {"--unstructured", "1.5"}},
      {"run --block 32x32@1e-320" + g, {"--block", "1e-320"}},
      {"run --block 32x32@nan" + g, {"--block", "nan"}},
      {"run --model bert_base --batch -5 -q", {"--batch", "-5"}},
      {"run --model bert_base --batch 0 -q", {"--batch", "0"}},
      {"run --model bert_base --seq abc -q", {"--seq", "abc"}},
      {"trace --model bert_base --batch 0 --out " + d + "/t.trace", {"--batch", "0"}},
      {"trace --model bert_base --seq -5 --out " + d + "/t.trace", {"--seq", "-5"}},
      {"validate --measurements " + d + " --max-mape nan", {"--max-mape", "nan"}},
      {"validate --measurements " + d + " --max-mape -5", {"--max-mape", "-5"}},
      {"run --seed -1" + g, {"--seed", "-1"}},
      {"run --seed 0x10" + g, {"--seed", "0x10"}},
      {"run --block-seed 1e3" + g, {"--block-seed", "1e3"}},
      {"run --block 32x32@0.5 --block-min-per-row -1" + g, {"--block-min-per-row", "-1"}},
      {"run --block 32x32@0.5 --block-min-per-row one" + g, {"--block-min-per-row", "one"}},
      {"run --max-memory -1" + g, {"--max-memory", "-1"}},
      {"run --max-memory 8Q" + g, {"--max-memory", "8Q"}},
      {"run -p gpu.num_sms=010" + g, {"gpu.num_sms", "010", "leading zeros"}},
      {"run -p l2.capacity_kib=010" + g, {"l2.capacity_kib", "010", "leading zeros"}},
      {"run -p gpu.num_sms=0x10" + g, {"gpu.num_sms", "0x10"}},
      {"run -p dram.bandwidth_gbps=inf" + g, {"dram.bandwidth_gbps", "inf"}},
      {"run -p dram.bandwidth_gbps=nan" + g, {"dram.bandwidth_gbps", "nan"}},
      {"run -p dram.bandwidth_gbps=1e999" + g, {"dram.bandwidth_gbps", "1e999"}},
      {"run -p dram.bandwidth_gbps=" + g, {"dram.bandwidth_gbps"}},
      {"run -p l2.line_bytes=96" + g, {"line_bytes (96)", "powers of two"}},
      // Empty and unwritable outputs.
      {"run --out ''" + g, {"--out", "empty"}},
      {"run --vcd ''" + g, {"--vcd", "empty"}},
      {"run --vcd " + d + "/no/such/dir/w.vcd" + g, {"--vcd", "no/such/dir", "does not exist"}},
      {"run --out /proc/stcsim-out" + g, {"--out", "/proc/stcsim-out"}},
      // Admission: shapes whose CTAs (or maps) would not fit the memory limit.
      {"run --gemm 16777216x16777216x16777216 -q", {"16777216x16777216x16777216", "--max-memory"}},
      {"run --gemm 1048576x1048576x64 --max-memory 1G -q", {"1048576x1048576x64", "estimated"}},
      // Refused by the CTA estimate before the map is built: the message names the op and the
      // limit.
      {"run --gemm 16777216x16777216x64 --unstructured 0.5 -q",
       {"16777216x16777216x64", "--max-memory"}},
      {"run --gemm 10000000x10000000x10000000 -q", {"10000000x10000000x10000000"}},
      // Configs: duplicate keys and sections, base naming a file, invalid UTF-8, depth.
      {"run --arch " + d + "/dup_key.yaml" + g,
       {"dup_key.yaml:5", "'ways' is given twice", "line 4"}},
      {"run --arch " + d + "/dup_section.yaml" + g,
       {"dup_section.yaml:7", "'l2' is given twice", "line 3"}},
      {"run --arch " + d + "/base_file.yaml" + g, {"base_file.yaml:2", "other.yaml", "not a file"}},
      {"run --arch " + d + "/bad_utf8.yaml" + g, {"bad_utf8.yaml:3", "UTF-8"}},
      {"run --arch " + d + "/octal.yaml" + g, {"octal.yaml:4", "010", "leading zeros"}},
      {"run --arch " + d + "/deep.yaml" + g, {"deep.yaml"}},
      // A second YAML document: its keys would be dropped (yaml-cpp reads the first only).
      {"run --arch " + d + "/two_docs.yaml" + g, {"two_docs.yaml:3", "second YAML document"}},
      {"sweep " + d + "/two_docs_sweep.yaml --dry-run --out " + d + "/sw4",
       {"two_docs_sweep.yaml:6", "second YAML document"}},
      {"run --arch " + d + g, {d, "directory"}},
      {"run --arch /dev/zero" + g, {"/dev/zero", "not a regular file"}},
      // Sweep specs: ranges past the value cap or int64, duplicate keys.
      {"sweep " + d + "/range_float.yaml --dry-run --out " + d + "/sw1",
       {"range_float.yaml", "100000"}},
      {"sweep " + d + "/range_int.yaml --dry-run --out " + d + "/sw2",
       {"range_int.yaml", "100000"}},
      {"sweep " + d + "/dup_sweep.yaml --dry-run --out " + d + "/sw3",
       {"dup_sweep.yaml:4", "'workloads' is given twice"}},
      // Traces: payload a directory, a device, outside the folder; sizes that lie; names.
      {"run --trace " + d + "/payload_dir.trace -q", {"payload_dir.trace:6", "directory"}},
      {"run --trace " + d + "/payload_zero.trace -q",
       {"payload_zero.trace:6", "dev/zero", "outside"}},
      {"run --trace " + d + "/payload_abs.trace -q",
       {"payload_abs.trace:6", "/dev/zero", "absolute"}},
      {"run --trace " + d + "/size_lie.trace -q",
       {"size_lie.bin", "payload is 8 bytes", "says 100"}},
      {"run --trace " + d + "/bad_op.trace -q", {"bad_op.trace:2", "UTF-8"}},
      {"run --trace " + d + "/bad_op1.trace -q", {"bad_op1.trace:6", "UTF-8"}},
      {"run --trace " + d + " -q", {d, "directory"}},
      {"run --trace /dev/zero -q", {"/dev/zero", "not a regular file"}},
      // Many tiny ops: each holds ~24 KiB of results until the run ends.
      {"run --trace " + d + "/many_ops.trace --max-memory 64M -q",
       {"20000 ops at ~24 KiB each", "--max-memory"}},
      // Models: a directory, a shard leading out of the folder, depth, numbers.
      {"run --model " + d + "/model_dir.npy -q", {"model_dir.npy", "directory"}},
      {"run --model " + d + "/tfjs/escape.json -q",
       {"escape.json", "../../../../../../dev/zero", "outside"}},
      {"run --model " + d + "/tfjs/deep.json -q", {"deep.json", "nests deeper than 256"}},
      {"run --model " + d + "/tfjs/huge.json -q", {"huge.json"}},
  };
  for (const auto& c : cases) {
    const auto r = run_stcsim(c.args);
    INFO("stcsim " << c.args << "\nexit " << r.status << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    for (const auto& m : c.message) CHECK_THAT(r.err, Catch::Contains(m));
  }
}

TEST_CASE("cli_abuse_outputs_checked_before_the_run", "[cli][abuse]") {
  // A read-only --out is refused before simulating (the run is large enough that
  // simulating first would take minutes), and nothing is left in it. Root writes into a
  // folder whose mode says read-only, so as root the read-only folder is /proc/self,
  // which no one can create files in.
  if (::geteuid() == 0) {
    const auto r = run_stcsim("run --gemm 8192x8192x8192 -q --out /proc/self");
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("/proc/self") && Catch::Contains("not writable"));
    return;
  }
  const std::string d = temp_dir("readonly");
  ::chmod(d.c_str(), 0555);
  const auto r = run_stcsim("run --gemm 8192x8192x8192 -q --out " + d);
  ::chmod(d.c_str(), 0755);
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains(d) && Catch::Contains("not writable"));
  CHECK(fs::is_empty(d));
}

// --vcd names a file (SystemC adds .vcd when it is missing): a folder of that name is
// refused before the run, not by SystemC's uncaught error after it.
TEST_CASE("cli_abuse_vcd_onto_a_folder_is_refused", "[cli][abuse]") {
  const std::string d = temp_dir("vcd_folder");
  fs::create_directories(d + "/wave.vcd");
  for (const std::string& arg : {d + "/wave.vcd", d + "/wave"}) {
    const auto r = run_stcsim("run --gemm 64x64x64 -q --vcd " + arg + " --out " + d + "/o");
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--vcd") && Catch::Contains("is a directory"));
  }
  fs::remove_all(d);
}

// A trailing `---` ends the one document and starts an empty one: nothing is lost, the
// preset loads (a second document with keys is refused above).
TEST_CASE("cli_abuse_trailing_document_end_is_accepted", "[cli][abuse]") {
  const std::string d = make_inputs();
  const auto r =
      run_stcsim("run --arch " + d + "/trailing_doc_end.yaml --gemm 64x64x64 -q --out " + d + "/o");
  INFO(r.err);
  CHECK(r.status == 0);
  fs::remove_all(d);
}

// A measurement the simulator refuses (a dtype it does not know): validate stops with the
// child run's error, naming the measurement file and the entry it came from.
TEST_CASE("cli_abuse_validate_names_the_measurement_a_failed_run_came_from", "[cli][abuse]") {
  const std::string d = temp_dir("validate_child");
  fs::create_directories(d + "/m");
  write(d + "/m/bad_dtype.json",
        R"({"schema": "stcsim-measurements/1", "device": {"name": "NVIDIA H100 80GB HBM3"},)"
        R"( "gemms": [{"name": "odd", "kernel": "cublas", "m": 256, "n": 256, "k": 256,)"
        R"( "dtype": "fp17", "time_us": {"median": 10}}]})");
  const auto r = run_stcsim("validate --measurements " + d + "/m --out " + d + "/o");
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("bad_dtype.json: gemm 'odd'") &&
                        Catch::Contains("unknown dtype 'fp17'"));
  fs::remove_all(d);
}
