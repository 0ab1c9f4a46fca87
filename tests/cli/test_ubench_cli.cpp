// `stcsim ubench` (models/ubench): the CUDA microbenchmarks run on the model. Each figure
// follows the parameter it measures, never exceeds the unit's peak, and the file has the
// GPU files' schema.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// Figures by "name|metric": the best configuration (highest rate, lowest latency).
std::map<std::string, double> run_ubench(const std::string& args) {
  const std::string out = temp_dir("ubench");
  const ProcResult r = run_stcsim("ubench " + args + " --out " + out + " -q");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  std::ifstream in(out + "/ubench.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  REQUIRE(doc["schema"] == "stcsim-ubench/1");
  REQUIRE(doc["simulated"] == true);
  std::map<std::string, double> best;
  for (const auto& f : doc["results"]) {
    const std::string key = f["name"].get<std::string>() + "|" + f["metric"].get<std::string>();
    const double v = f["value"].get<double>();
    const bool lat = f["metric"] == "latency";
    if (!best.count(key) || (lat ? v < best[key] : v > best[key])) best[key] = v;
  }
  for (const auto& e : doc["errors"]) {
    best["error:" + e["name"].get<std::string>()] = 1;
    for (const auto& f : e["figures"]) best["error figure:" + f.get<std::string>()] = 1;
  }
  std::filesystem::remove_all(out);
  return best;
}

}  // namespace

TEST_CASE("ubench_tensor_core_figures_follow_the_pipe", "[cli][ubench]") {
  const auto a = run_ubench("--arch a100 --only mma_sync_m16n8k16,mma_sp_m16n8k32_ordered");
  // a100: m16n8k16 = 2048 FMA every 8 cycles on each of 4 sub-cores: 2048 flop/clk/SM.
  CHECK(a.at("mma_sync_m16n8k16_f16_f32|throughput") <= 2048.0);
  CHECK(a.at("mma_sync_m16n8k16_f16_f32|throughput") > 0.99 * 2048.0);
  CHECK(a.at("mma_sync_m16n8k16_f16_f32|latency") == Approx(24));
  CHECK(a.at("mma_sp_ordered_m16n8k32_f16_f32|throughput") <= 4096.0);
  CHECK(a.at("mma_sp_ordered_m16n8k32_f16_f32|throughput") > 0.99 * 4096.0);
  // Twice the interval halves the rate; a longer latency shows in the dependent chain.
  const auto slow = run_ubench(
      "--arch a100 --only mma_sync_m16n8k16 -p tensor_core.fp16_ii_cycles=16 -p "
      "tensor_core.fp16_latency_cycles=40");
  CHECK(slow.at("mma_sync_m16n8k16_f16_f32|throughput") ==
        Approx(a.at("mma_sync_m16n8k16_f16_f32|throughput") / 2).epsilon(0.01));
  CHECK(slow.at("mma_sync_m16n8k16_f16_f32|latency") == Approx(40));
}

// The warp-tile pattern (MI x NI accumulators a warp, distinct fragments): on a preset
// without a register operand path (a100) every tile runs at the chains' rate, within peak.
TEST_CASE("ubench_warp_tile_mma_runs_at_the_pipe_rate", "[cli][ubench]") {
  const auto a =
      run_ubench("--arch a100 --only mma_sync_m16n8k16_warp_tile,mma_sp_m16n8k32_warp_tile");
  for (const char* t : {"4x8", "4x4", "2x4"}) {
    INFO(t);
    const double dense =
        a.at(std::string("mma_sync_m16n8k16_f16_f32_warp_tile_") + t + "|throughput");
    const double sparse =
        a.at(std::string("mma_sp_ordered_m16n8k32_f16_f32_warp_tile_") + t + "|throughput");
    CHECK(dense <= 2048.0);
    CHECK(dense > 0.99 * 2048.0);
    CHECK(sparse <= 4096.0);
    CHECK(sparse > 0.99 * 4096.0);
  }
}

// The mainloop anatomy: the multistage kernel on 4096^3 with parts of its loop left out,
// dense and 2:4 (whose figures count the dense GEMM's flops: up to twice the dense peak).
// No variant with mma exceeds the tensor cores' peak; among variants with the same prologue,
// leaving a part out never makes the launch slower; without copies, barriers and fragment loads
// only the mma stream is left, close to the pipe's rate (the a100 has no operand cost).
TEST_CASE("ubench_mainloop_anatomy_parts_cost_time_and_never_beat_peak", "[cli][ubench]") {
  const auto a = run_ubench("--arch a100 --only mainloop_anatomy");
  const double dense_peak = 2048.0 * 108 * 1410e6 * 1e-12;  // a100: flop/clk/SM x SMs x clock
  for (const char* kernel : {"dense", "sp24"}) {
    const bool sparse = std::string(kernel) == "sp24";
    const double peak = sparse ? 2 * dense_peak : dense_peak;
    for (const char* tile : {"256x128x64_64x64_s3", "128x128x64_64x64_s4", "128x64x64_64x32_s4",
                             "64x64x64_32x32_s6"}) {
      INFO(kernel << " " << tile);
      auto f = [&](const char* v) {
        return a.at(std::string("mainloop_") + kernel + "_" + tile + "_" + v + "|throughput");
      };
      for (const char* v : {"full", "no_copy", "no_copy_no_barrier", "mma_only"}) {
        INFO(v);
        CHECK(f(v) > 0);
        CHECK(f(v) <= peak);
      }
      CHECK(f("no_mma") > 0);  // no mma: its figure is the GEMM's flops, not the pipes' work
      CHECK(f("no_copy") <= f("no_copy_no_barrier") * 1.001);
      CHECK(f("no_copy_no_barrier") <= f("mma_only") * 1.001);
      CHECK(f("full") <= f("no_mma") * 1.001);
      // mma.sp's stream: the pipe's rate less waves, prologue and epilogue (0.85-0.95), and
      // for the 2:4 kernel's rolled k-sub loop its back edge and loop top (24 SASS cycles a
      // k-sub, which a lone warp a sub-core cannot hide: 128x128 fits one CTA an SM on the
      // a100, 0.77); for the dense kernel its k-tile loop top after the last mma (23 SASS
      // cycles a k-tile without a barrier; 64x64 fits one CTA an SM on the a100, its 32x32
      // warps 256 pipe cycles a k-tile: 0.81).
      CHECK(f("mma_only") > (sparse ? 0.75 : 0.80) * peak);
      // The K sweep (4096 x 4096 x K): more K never takes less time, and each CTA's fixed
      // cost weighs less the longer its loop, so the rate never falls with K. Zero operands:
      // the same launch (no data dependence in the model).
      for (const char* v : {"mma_only", "full"}) {
        INFO(v);
        const double r1 = f((std::string(v) + "_k1024").c_str());
        const double r2 = f((std::string(v) + "_k2048").c_str());
        const double r4 = f(v);
        CHECK(1024 / r1 < 2048 / r2);
        CHECK(2048 / r2 < 4096 / r4);
        CHECK(r1 <= r2 * 1.001);
        CHECK(r2 <= r4 * 1.001);
        CHECK(f((std::string(v) + "_zeros").c_str()) == r4);
      }
    }
  }
}

// A GPU without mma.sp and with 96 KiB of shared memory a CTA (v100): the anatomy runs the
// dense kernel at the tiles that fit and lists the rest as not run, with why.
TEST_CASE("ubench_mainloop_anatomy_skips_what_the_gpu_cannot_launch", "[cli][ubench]") {
  const auto v = run_ubench("--arch v100 --only mainloop_anatomy");
  CHECK(v.count("mainloop_dense_128x64x64_64x32_s4_full|throughput") == 1);
  CHECK(v.count("mainloop_dense_64x64x64_32x32_s6_no_mma|throughput") == 1);
  CHECK(v.count("mainloop_dense_256x128x64_64x64_s3_full|throughput") == 0);
  CHECK(v.count("error figure:mainloop_dense_256x128x64_64x64_s3_full") == 1);
  CHECK(v.count("error figure:mainloop_sp24_64x64x64_32x32_s6_full") == 1);
}

// A register operand path (111.25 B/clk a sub-core, as the h100 preset had until
// 2026-11-28) sets the warp-tile rates: per row of NI mma.sync the first reads
// accumulators, A and B (1280 B), the others accumulators and B (768 B), each at least
// the pipe's 6 cycles; an mma.sp row's first 1600 B (A with 64 B of metadata, B of k32),
// the others 1024 B against the pipe's 8. The chains, whose operands stay in the same
// registers, keep the pipe's rate. Without it (the preset) the warp tiles run at the
// chains' rate, as the H200's did (h100.yaml [12]).
TEST_CASE("ubench_warp_tile_rates_follow_the_register_operand_path", "[cli][ubench]") {
  const std::string only =
      " --only mma_sync_m16n8k16,mma_sync_m16n8k16_warp_tile,mma_sp_m16n8k32_warp_tile";
  const auto preset = run_ubench("--arch h100" + only);
  CHECK(preset.at("mma_sync_m16n8k16_f16_f32_warp_tile_4x8|throughput") ==
        Approx(4096.0 * 4 / 6).epsilon(0.005));
  CHECK(preset.at("mma_sp_ordered_m16n8k32_f16_f32_warp_tile_4x8|throughput") ==
        Approx(8192.0 * 4 / 8).epsilon(0.005));
  const auto h =
      run_ubench("--arch h100 -p tensor_core.register_operand_bytes_per_cycle=111.25" + only);
  const double p = 111.25;
  auto rate = [p](double flops, int ni, double first, double rest, double ii) {
    const double row = std::max(ii, first / p) + (ni - 1) * std::max(ii, rest / p);
    return flops * ni * 4 / row;  // four sub-cores, one row of NI mma per `row` cycles each
  };
  CHECK(h.at("mma_sync_m16n8k16_f16_f32|throughput") == Approx(4096.0 * 4 / 6).epsilon(0.005));
  CHECK(h.at("mma_sync_m16n8k16_f16_f32_warp_tile_4x8|throughput") ==
        Approx(rate(4096, 8, 1280, 768, 6)).epsilon(0.005));
  CHECK(h.at("mma_sync_m16n8k16_f16_f32_warp_tile_4x4|throughput") ==
        Approx(rate(4096, 4, 1280, 768, 6)).epsilon(0.005));
  CHECK(h.at("mma_sp_ordered_m16n8k32_f16_f32_warp_tile_4x8|throughput") ==
        Approx(rate(8192, 8, 1600, 1024, 8)).epsilon(0.005));
  CHECK(h.at("mma_sp_ordered_m16n8k32_f16_f32_warp_tile_2x4|throughput") ==
        Approx(rate(8192, 4, 1600, 1024, 8)).epsilon(0.005));
}

TEST_CASE("ubench_shared_memory_is_bound_by_its_port", "[cli][ubench]") {
  const auto a = run_ubench("--arch a100 --only ld_shared,ldmatrix_x1,ldmatrix_x4");
  for (const char* f :
       {"ld_shared_v4|throughput", "ldmatrix_x1|throughput", "ldmatrix_x4|throughput"}) {
    INFO(f);
    CHECK(a.at(f) <= 128.0);  // 32 banks x 4 B per clock
    CHECK(a.at(f) > 0.99 * 128.0);
  }
  const auto narrow = run_ubench("--arch a100 --only ldmatrix_x4 -p smem.banks=16");
  CHECK(narrow.at("ldmatrix_x4|throughput") == Approx(64).epsilon(0.01));
}

TEST_CASE("ubench_memory_latency_and_bandwidth_follow_the_preset", "[cli][ubench]") {
  const auto a = run_ubench("--arch a100 --only latency,bandwidth,copy_engines");
  // Per-line L2 latency: the near partition's hit latency, the far one's extra on top
  // (the chase adds the cycle the next load issues in).
  CHECK(a.at("l2_latency_near|latency") == Approx(203 + 1).margin(2));
  CHECK(a.at("l2_latency_far|latency") - a.at("l2_latency_near|latency") == Approx(277).margin(2));
  CHECK(a.at("l1_latency|latency") >= 33);
  CHECK(a.at("dram_latency|latency") > a.at("l2_latency|latency"));
  // Bandwidth: under the DRAM's peak, at least its sustained share; the L2 faster.
  const double dram = a.at("dram_read|bandwidth");
  CHECK(dram <= 1555.0);
  CHECK(dram > 0.8 * 1555.0 * 0.92);
  CHECK(a.at("l2_read|bandwidth") > 2 * dram);
  CHECK(a.at("cp_async_16B_dram|bandwidth") <= 1555.0);
  // The same bytes from L2 on half lines (64 B of each 128 B line) touch twice the lines:
  // never faster than on whole lines.
  for (const char* kib : {"4", "16", "64"}) {
    INFO(kib << " KiB in flight");
    const std::string tail = std::string("_inflight_") + kib + "KiB|throughput";
    CHECK(a.at("cp_async_16B_l2_halfline" + tail) > 0);
    CHECK(a.at("cp_async_16B_l2_halfline" + tail) <= a.at("cp_async_16B_l2" + tail) * 1.001);
  }
  // One SM alone, from L2: bound by its link (64 B/clk on the a100), faster with more
  // bytes in flight, and not slower than with every SM sharing the L2 (within 1%: one SM
  // reads other lines than the grid's median SM, so its near and far slices differ).
  double last = 0;
  for (const char* kib : {"4", "8", "16", "32", "64", "128"}) {
    INFO(kib << " KiB in flight on one SM");
    const double one =
        a.at(std::string("cp_async_16B_l2_one_sm_inflight_") + kib + "KiB|throughput");
    CHECK(one <= 64.0);
    CHECK(one > last);
    last = one;
    if (std::string(kib) != "128")
      CHECK(one >= 0.99 * a.at(std::string("cp_async_16B_l2_inflight_") + kib + "KiB|throughput"));
  }
  // Each group of G bytes takes the L2's round trip plus G over the link (wait_group 0
  // drains the group): so at 128 KiB the link is most of the time.
  CHECK(last > 0.75 * 64.0);
  // The sweep's line (models/common/link_fit.h) gives back the link the preset has, and
  // the L2's round trip (the a100's near and far hits, 203 and 480 cycles) from its
  // intercept.
  CHECK(a.at("cp_async_16B_l2_one_sm_link|throughput") == Approx(64).epsilon(0.02));
  CHECK(a.at("cp_async_16B_l2_one_sm_round_trip|latency") > 203);
  CHECK(a.at("cp_async_16B_l2_one_sm_round_trip|latency") < 480 + 64);
  // A link half as wide: the 128 KiB point under it, and the line finds it.
  const auto narrow =
      run_ubench("--arch a100 --only copy_engines -p sm.l2_link_bytes_per_cycle=32");
  CHECK(narrow.at("cp_async_16B_l2_one_sm_inflight_128KiB|throughput") <= 32.0);
  CHECK(narrow.at("cp_async_16B_l2_one_sm_inflight_128KiB|throughput") > 0.75 * 32.0);
  CHECK(narrow.at("cp_async_16B_l2_one_sm_link|throughput") == Approx(32).epsilon(0.02));
  // No TMA on the a100: the bulk copy is listed as not run, with why.
  CHECK(a.count("error:bulk_copy_16KiB_dram") == 1);
  CHECK(a.count("bulk_copy_16KiB_dram|bandwidth") == 0);
}

TEST_CASE("ubench_wgmma_on_hopper_and_refused_elsewhere", "[cli][ubench]") {
  const auto h = run_ubench("--arch h100 --only wgmma_m64n128k16,wgmma_sp_m64n128k32,copy_engines");
  const double dense = h.at("wgmma_m64n128k16_f16_f32|throughput");
  CHECK(dense > 0);
  CHECK(h.at("wgmma_sp_m64n128k32_f16_f32|throughput") <= 2 * dense * 1.001);
  CHECK(h.at("wgmma_m64n128k16_f16_f32|latency") > 0);
  CHECK(h.at("bulk_copy_16KiB_dram|bandwidth") > 0);
  const auto a = run_ubench("--arch a100 --only wgmma_m64n128k16");
  CHECK(a.count("error:wgmma_m64n128k16") == 1);
  // The entry names the figures it leaves out, which validate matches a GPU's file by.
  CHECK(a.count("error figure:wgmma_m64n128k16_f16_f32") == 1);
}

TEST_CASE("ubench_rejects_unknown_names_and_lists_known_ones", "[cli][ubench]") {
  const ProcResult bad = run_stcsim("ubench --only ldmatrix_x3 --out " + temp_dir("ubench_bad"));
  CHECK(bad.status == 2);
  CHECK(bad.err.find("unknown microbenchmark 'ldmatrix_x3'") != std::string::npos);
  CHECK(bad.err.find("ldmatrix_x4") != std::string::npos);
  const ProcResult list = run_stcsim("ubench --list");
  CHECK(list.status == 0);
  CHECK(list.out.find("latency: l1_latency|latency") != std::string::npos);
}

// Kernels that leave the tensor cores idle run at gpu.max_clock_mhz (h100: the 1980 MHz
// boost, h100.yaml [14]); a GEMM's load holds the SMs at clock_mhz (1755). A DRAM-bound
// read moves the same GB/s at either clock, so fewer bytes a cycle at the higher one.
TEST_CASE("ubench_light_kernels_run_at_the_max_clock", "[cli][ubench]") {
  auto run = [](const std::string& extra) {
    const std::string out = temp_dir("ubench_clock");
    const ProcResult r =
        run_stcsim("ubench --arch h100 --only bandwidth " + extra + " --out " + out + " -q");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    std::ifstream in(out + "/ubench.json");
    return nlohmann::json::parse(in);
  };
  auto figure = [](const nlohmann::json& doc, const std::string& name, const std::string& metric) {
    for (const auto& f : doc["results"])
      if (f["name"] == name && f["metric"] == metric) return f["value"].get<double>();
    FAIL("no figure " << name << " " << metric);
    return 0.0;
  };
  const auto boost = run("");
  const auto gemm = run("-p gpu.max_clock_mhz=0");
  CHECK(boost["device"]["clock_mhz"] == 1980);
  CHECK(gemm["device"]["clock_mhz"] == 1755);
  const double ratio =
      figure(gemm, "dram_read", "throughput") / figure(boost, "dram_read", "throughput");
  CHECK(ratio == Approx(1980.0 / 1755).epsilon(0.03));
  CHECK(figure(gemm, "dram_read", "bandwidth") ==
        Approx(figure(boost, "dram_read", "bandwidth")).epsilon(0.03));
  // Below the GEMM clock it is no light kernels' clock: refused, naming the key.
  const ProcResult bad =
      run_stcsim("ubench --arch h100 --only bandwidth -p gpu.max_clock_mhz=1000 --out " +
                 temp_dir("ubench_clock_bad"));
  CHECK(bad.status == 2);
  CHECK(bad.err.find("gpu.max_clock_mhz (1000 MHz) is below gpu.clock_mhz (1755 MHz)") !=
        std::string::npos);
}

// The CTA-phase benchmark (models/ubench/cta_phases.cpp) on the h200: every CTA's mma_only
// loop runs at no more than the mma.sync stream's rate and within 5% of it where one CTA
// holds the SM (its k-tile loop top, 23 SASS cycles after each k-tile's last mma, costs a
// lone warp a sub-core 2-4%); its prologue moves the tile's stages, its epilogue the f16 tile, each
// no faster than the SM's 64 B/clk link to the L2; a CTA waits at least the preset's launch cycles
// for its slot; co-resident CTAs report a skew, lone ones none.
TEST_CASE("ubench_cta_phases_follow_the_kernels_bytes_and_rates", "[cli][ubench]") {
  const auto h = run_ubench("--arch h200 --only cta_phases,mma_sync_m16n8k16");
  const double mma_rate = h.at("mma_sync_m16n8k16_f16_f32|throughput");  // flop/clk/SM
  struct Case {
    const char* tile;
    int cta_m, cta_n, stages;
    bool alone;  // one CTA an SM (its stages fill the SM's shared memory)
  };
  for (const Case c : {Case{"256x128x64_64x64_s3", 256, 128, 3, true},
                       Case{"128x128x64_64x64_s4", 128, 128, 4, true},
                       Case{"128x64x64_64x32_s4", 128, 64, 4, false},
                       Case{"64x64x64_32x32_s6", 64, 64, 6, false}}) {
    INFO(c.tile);
    auto f = [&](const char* m) {
      return h.at(std::string("cta_phases_dense_") + c.tile + "_mma_only_k1024|" + m);
    };
    const double flops = 2.0 * c.cta_m * c.cta_n * 1024;
    CHECK(f("loop") >= flops / mma_rate * 0.999);
    if (c.alone) CHECK(f("loop") <= flops / mma_rate * 1.05);
    const double stage_bytes = (c.cta_m + c.cta_n) * 64 * 2.0;
    CHECK(f("prologue") >= c.stages * stage_bytes / 64);
    CHECK(f("epilogue") >= c.cta_m * c.cta_n * 2.0 / 64);
    CHECK(f("refill") >= 200);
    const std::string skew =
        std::string("cta_phases_dense_") + c.tile + "_mma_only_k1024|corun_skew";
    CHECK(h.count(skew) == (c.alone ? 0u : 1u));
  }
  CHECK(h.count("cta_phases_sp24_64x64x64_32x32_s6_mma_only_k1024|corun_skew") == 1);
}
