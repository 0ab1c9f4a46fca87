// stcsim_bitcapture: runs the planned instructions (plan.h) on the GPU and writes one
// stcsim-bitcapture/1 file (capture_file.h) for stcsim_bitcompare to replay offline.
//   stcsim_bitcapture --out FILE [--seed N] [--scale S] [--only GROUPS] [--timeout S]
//                     [--subset FILE [--subset-records R]] | --check-gpu
// --subset also writes the part of the capture small enough to commit: R (8) records of
// each operand category per group, at most 1 MiB a group (capture_file.h, subset_capture).
// Each group runs in its own child process (validation/harness/isolation.h): a fault costs
// that group, which is then left out of the file and named in the header's errors[].
// The file is rewritten atomically after every group, so a killed run keeps the groups
// finished before. wgmma groups need compute capability 9.0 (sm_90a) and are listed as
// "unsupported" elsewhere.
// Exit status: 0, 1 (a group failed), 2 usage, 77 no GPU.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "validation/bitcapture/capture_kernels.h"
#include "validation/bitcapture/plan.h"
#include "validation/harness/device_probe.h"
#include "validation/harness/isolation.h"
#include "validation/harness/result_writer.h"

using namespace stcsim::validation::bits;
using nlohmann::json;
using stcsim::validation::probe_device;
using stcsim::validation::run_isolated;
using stcsim::validation::utc_now;
using stcsim::validation::write_file_atomic;

int main(int argc, char** argv) {
  std::string out, only, subset;
  int subset_records = 8;
  bool check_gpu = false;
  double timeout = 60, scale = 1;
  unsigned long long seed = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const bool more = i + 1 < argc;
      if (a == "--out" && more)
        out = argv[++i];
      else if (a == "--only" && more)
        only = argv[++i];
      else if (a == "--seed" && more)
        seed = std::stoull(argv[++i]);
      else if (a == "--scale" && more)
        scale = std::stod(argv[++i]);
      else if (a == "--timeout" && more)
        timeout = std::stod(argv[++i]);
      else if (a == "--check-gpu")
        check_gpu = true;
      else if (a == "--subset" && more)
        subset = argv[++i];
      else if (a == "--subset-records" && more)
        subset_records = std::stoi(argv[++i]);
      else {
        std::cerr << "usage: stcsim_bitcapture --out FILE [--seed N] [--scale S] [--only GROUPS] "
                     "[--timeout S] [--subset FILE [--subset-records R]] | --check-gpu\n";
        return 2;
      }
    }
  } catch (const std::exception& e) {  // a number that does not parse
    std::cerr << "stcsim_bitcapture: bad argument: " << e.what() << "\n";
    return 2;
  }
  if (subset_records < 1) {
    std::cerr << "stcsim_bitcapture: --subset-records must be >= 1\n";
    return 2;
  }
  if (out.empty() && !check_gpu) {
    std::cerr << "stcsim_bitcapture: --out FILE is required\n";
    return 2;
  }
  const std::string scratch =
      (std::filesystem::temp_directory_path() / ("stcsim_bitcapture_" + std::to_string(::getpid())))
          .string();
  std::filesystem::create_directories(scratch);
  const std::string progress = scratch + "/progress";
  json dev;
  const int probed = probe_device(scratch, timeout, dev);
  if (probed != 0 || check_gpu) {
    std::filesystem::remove_all(scratch);
    return probed;
  }
  const bool sm90 = dev["compute_capability"] == "9.0";

  Capture planned = plan_capture(seed, scale, only);
  Capture done;
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  done.header = planned.header;
  done.header["command"] = command;
  done.header["created_utc"] = utc_now();
  done.header["device"] = dev;
  done.header["errors"] = json::array();
  int failed = 0;
  for (CaptureGroup& g : planned.groups) {
    if (g.spec.warpgroup() && !sm90) {
      done.header["errors"].push_back(
          {{"name", g.spec.name()}, {"why", "unsupported: needs sm_90a"}});
      continue;
    }
    const std::string part = scratch + "/part.bin";
    std::filesystem::remove(part);
    std::cerr << "bitcapture " << g.spec.name() << " (" << g.records << " records)\n";
    const auto o = run_isolated(
        [&] {
          run_capture_group(g.spec, g.words, g.records);
          std::ofstream p(part + ".tmp", std::ios::binary);
          p.write(reinterpret_cast<const char*>(g.words.data()),
                  std::streamsize(g.words.size() * 4));
          p.close();
          std::filesystem::rename(part + ".tmp", part);
          return 0;
        },
        progress, timeout);
    std::ifstream p(part, std::ios::binary);
    if (o.exited && o.status == 0 && p) {
      p.read(reinterpret_cast<char*>(g.words.data()), std::streamsize(g.words.size() * 4));
      done.groups.push_back(std::move(g));
    } else {
      ++failed;
      done.header["errors"].push_back({{"name", g.spec.name()}, {"why", "fault: " + o.describe()}});
    }
    done.header["finished_utc"] = utc_now();
    write_capture(out, done);
    if (!subset.empty()) write_capture(subset, subset_capture(done, subset_records, 1 << 20));
  }
  done.header["finished_utc"] = utc_now();
  write_capture(out, done);  // also when every group was left out
  if (!subset.empty()) write_capture(subset, subset_capture(done, subset_records, 1 << 20));
  std::filesystem::remove_all(scratch);
  std::cout << "Wrote " << out << " (" << done.groups.size() << " groups, " << failed
            << " failed)\n";
  return failed ? 1 : 0;
}
