#include "sim/sweep/sweep_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/sweep/point_record.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;

SweepDir::SweepDir(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

SweepDir::~SweepDir() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing releases the flock
}

void SweepDir::lock() {
  std::error_code ec;
  // A folder that is not a sweep's keeps what it holds: the sweep's results.csv, report/
  // and summary.md would overwrite a user's files of those names.
  if (fs::is_directory(root_, ec) && !fs::exists(plan_path(), ec))
    for (const auto& e : fs::directory_iterator(root_, ec)) {
      const std::string name = e.path().filename().string();
      // What a sweep writes before its sweep.json: its folders, the traces of its model
      // workloads, a screened sweep's first pass.
      if (name != "points" && name != ".lock" && name != ".work" && name != "workloads" &&
          name != "screen")
        throw InputError(root_ + ": not a sweep folder (no sweep.json) and not empty (it holds " +
                         name + "); use another --out");
    }
  fs::create_directories(points_dir(), ec);
  if (ec) throw InputError(root_ + ": cannot create the sweep folder: " + ec.message());
  lock_fd_ = ::open((root_ + "/.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw InputError(root_ + "/.lock: cannot open");
  // flock dies with the process, so a killed sweep never leaves a stale lock.
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0)
    throw InputError(
        root_ +
        ": another stcsim sweep is writing to this folder; wait for it or use another --out");
  fs::remove_all(work_dir(), ec);
  fs::create_directories(work_dir(), ec);
  if (ec) throw InputError(work_dir() + ": cannot create: " + ec.message());
}

nlohmann::json read_plan(const std::string& root) {
  std::ifstream in(root + "/sweep.json");
  if (!in) throw InputError(root + ": not a sweep folder (no sweep.json)");
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InputError(root + "/sweep.json: malformed: " + e.what());
  }
}

void SweepDir::adopt_plan(const nlohmann::json& plan) const {
  if (!fs::exists(plan_path())) {
    write_atomically(plan_path(), plan.dump(1) + "\n");
    return;
  }
  if (read_plan(root_) != plan)
    throw InputError(
        root_ +
        " holds results of a different sweep (its sweep.json differs from this "
        "spec: values, workloads, base or trace contents changed); use another --out, or "
        "delete the folder to start over");
}

std::map<std::int64_t, std::string> SweepDir::point_files() const {
  std::map<std::int64_t, std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(points_dir(), ec))
    if (auto id = point_id_of(e.path().filename().string())) out[*id] = e.path().string();
  return out;
}

}  // namespace stcsim::sweep
