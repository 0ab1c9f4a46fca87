// The output folder of a sweep (or of one shard):
//   sweep.json           the plan (what every point id means); a resumed run or a merge
//                        refuses a folder whose plan differs from its own
//   points/pNNNNNNNN.json  one finished point each, written atomically
//   results.csv, results.json  the tidy table over the points present
//   .work/               the running children's scratch space, wiped at start
//   .lock                held (flock) while a sweep writes here
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace stcsim::sweep {

class SweepDir {
 public:
  explicit SweepDir(std::string root);
  ~SweepDir();
  SweepDir(const SweepDir&) = delete;
  SweepDir& operator=(const SweepDir&) = delete;

  const std::string& root() const { return root_; }
  std::string points_dir() const { return root_ + "/points"; }
  std::string work_dir() const { return root_ + "/.work"; }
  std::string plan_path() const { return root_ + "/sweep.json"; }

  // Create the folder and take its lock; throws InputError if another sweep holds it.
  void lock();
  // Record `plan` in a new folder, or check it equals the one already there.
  void adopt_plan(const nlohmann::json& plan) const;
  // Finished points present: id -> file path.
  std::map<std::int64_t, std::string> point_files() const;

 private:
  std::string root_;
  int lock_fd_ = -1;
};

// The plan recorded in a sweep folder; throws InputError when there is none.
nlohmann::json read_plan(const std::string& root);

}  // namespace stcsim::sweep
