// A full disk while `stcsim run` writes its results (issue 20): the run fails with exit 2
// and a message naming the file, the previous run's stats.json and .npy files are left
// byte for byte, and no temporary file is left beside them. Two ways to fill the disk: a
// file-size limit (RLIMIT_FSIZE with SIGXFSZ ignored, so write(2) fails with EFBIG as it
// fails with ENOSPC on a full disk; works for any user) and, where the test may mount
// one, a real 256 KiB tmpfs filled to the last byte.
#include <sys/mount.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;
namespace fs = std::filesystem;

namespace {

// A functional run writes op0_{x,w,y}.npy (16 KiB each at 64^3) and stats.json (~20 KiB).
const char* kRun = " run --gemm 64x64x64 --functional -q --out ";
// At 16^3 the .npy files are 1.1 KiB each: under a 4 KiB file-size limit they are written
// and only stats.json fails, the case where a run's files must not end up mixed.
const char* kSmallRun = " run --gemm 16x16x16 --functional -q --out ";

std::map<std::string, std::string> files_in(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    files[e.path().filename().string()] = ss.str();
  }
  return files;
}

void first_run(const std::string& out, const char* run = kRun) {
  const auto r = run_stcsim(std::string(run) + out + " --seed 1");
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
}

// The earlier results in `out` survive a run that `prefix` makes fail for lack of space.
void check_failed_run_keeps_results(const std::string& out, const std::string& prefix,
                                    const char* run = kRun, const char* failing = "op0_x.npy") {
  const auto before = files_in(out);
  REQUIRE(before.count("stats.json") == 1);
  REQUIRE(before.count("op0_y.npy") == 1);

  const auto r = run_command(prefix + STCSIM_BIN + run + out + " --seed 2");
  INFO("stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains(out + "/" + failing) && Catch::Contains("write failed"));
  const auto after = files_in(out);  // the same names (no temporaries) and the same bytes
  CHECK(after == before);
}

}  // namespace

TEST_CASE("full_disk_by_file_size_limit_keeps_previous_results", "[cli][abuse]") {
  const std::string out = temp_dir("fsize");
  first_run(out);
  // 4 KiB: stats.json's first write of a new run already goes past it.
  check_failed_run_keeps_results(out, "bash -c 'trap \"\" XFSZ; ulimit -f 4; exec \"$0\" \"$@\"' ");
  fs::remove_all(out);
}

TEST_CASE("full_disk_at_the_last_file_keeps_the_whole_previous_set", "[cli][abuse]") {
  // The new .npy files fit, stats.json does not: none of the new files may replace an old
  // one (a new op0_y.npy beside the old stats.json would describe no run).
  const std::string out = temp_dir("fsize_set");
  first_run(out, kSmallRun);
  check_failed_run_keeps_results(out, "bash -c 'trap \"\" XFSZ; ulimit -f 4; exec \"$0\" \"$@\"' ",
                                 kSmallRun, "stats.json");
  fs::remove_all(out);
}

TEST_CASE("full_disk_on_a_tiny_tmpfs_keeps_previous_results", "[cli][abuse]") {
  const std::string mnt = temp_dir("tmpfs");
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=256k") != 0) {
    WARN("SKIPPED: cannot mount a tmpfs here (needs CAP_SYS_ADMIN)");
    return;
  }
  const std::string out = mnt + "/out";
  fs::create_directories(out);
  first_run(out);
  {  // fill what is left, to the last byte
    std::ofstream fill(mnt + "/fill", std::ios::binary);
    const std::string block(4096, 'x');
    for (int i = 0; i < 1024 && fill; ++i) fill << block << std::flush;
    for (int i = 0; i < 4096 && fill; ++i) fill << 'x' << std::flush;
  }
  check_failed_run_keeps_results(out, "");
  ::umount(mnt.c_str());
  fs::remove_all(mnt);
}
