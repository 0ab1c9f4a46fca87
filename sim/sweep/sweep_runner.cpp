#include "sim/sweep/sweep_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/sweep/child_command.h"
#include "sim/sweep/child_process.h"
#include "sim/sweep/key_stats.h"
#include "sim/sweep/point_record.h"
#include "sim/sweep/progress_line.h"
#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_dir.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

volatile sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

// SIGINT/SIGTERM stop the sweep cleanly: children are ended and the points they were
// running stay absent (not recorded as failures), so a rerun does them.
class StopSignalScope {
 public:
  StopSignalScope() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

std::string read_tail(const std::string& path, std::size_t max_chars) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  if (s.size() > max_chars) s = "..." + s.substr(s.size() - max_chars);
  return s;
}

// One point in flight: its workloads run one after another in this slot.
struct Slot {
  Point point;
  PointRecord record;
  std::size_t workload = 0;
  pid_t pid = -1;
  std::string work;  // scratch folder of the current workload run
  std::vector<std::string> argv;
  Clock::time_point started;
  bool timed_out = false;
};

class Runner {
 public:
  Runner(const SweepPlan& plan, const RunOptions& opt, SweepDir& dir)
      : plan_(plan), opt_(opt), dir_(dir), exe_(opt.exe.empty() ? self_executable() : opt.exe) {}

  RunSummary run() {
    const auto t0 = Clock::now();
    RunSummary sum;
    std::int64_t failed_before = 0;
    const auto existing = dir_.point_files();
    for (std::int64_t id = opt_.shard.index; id < plan_.count(); id += opt_.shard.count) {
      if (!opt_.only.empty() && !opt_.only.count(id)) continue;
      ++sum.selected;
      auto it = existing.find(id);
      if (it != existing.end()) {
        const bool ok = read_point(it->second).ok();
        if (ok || !opt_.retry_failed) {
          ++sum.skipped;
          failed_before += ok ? 0 : 1;
          continue;
        }
      }
      todo_.push_back(id);
    }
    ProgressLine progress(std::cerr, isatty(2), sum.selected, sum.skipped, failed_before);
    {
      ChildSignalScope chld;
      StopSignalScope stop;
      while ((!todo_.empty() && !g_stop) || !slots_.empty()) {
        while (!g_stop && !todo_.empty() && int(slots_.size()) < opt_.jobs) start_point();
        if (opt_.progress) progress.update(done_, failed_, int(slots_.size()));
        wait_for_child_event(200);
        if (g_stop) stop_children();
        reap();
        enforce_timeouts();
      }
    }
    if (opt_.progress) progress.finish(done_, failed_);
    sum.ran = done_;
    sum.failed = failed_before + failed_;
    sum.interrupted = g_stop != 0;
    write_tables(dir_.root(), plan_.to_json(), dir_.point_files());
    sum.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return sum;
  }

 private:
  void start_point() {
    Slot s;
    s.point = plan_.point(todo_.front());
    todo_.pop_front();
    s.record.id = s.point.id;
    s.record.values = s.point.values;
    slots_.push_back(std::move(s));
    start_workload(slots_.back());
  }

  void start_workload(Slot& s) {
    const WorkloadSpec& w = plan_.spec().workloads[s.workload];
    s.work =
        dir_.work_dir() + "/" + point_file_name(s.point.id) + ".w" + std::to_string(s.workload);
    std::error_code ec;
    fs::remove_all(s.work, ec);
    fs::create_directories(s.work, ec);
    s.argv = child_argv(plan_, s.point, w, exe_, s.work);
    s.started = Clock::now();
    s.timed_out = false;
    s.pid = spawn_child(s.argv, s.work + "/log");
  }

  void reap() {
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) return;
      for (auto it = slots_.begin(); it != slots_.end(); ++it) {
        if (it->pid != pid) continue;
        if (g_stop) {  // interrupted: drop the point, a rerun does it
          slots_.erase(it);
          break;
        }
        if (workload_finished(*it, status)) slots_.erase(it);
        break;
      }
    }
  }

  // Returns true when the slot's point is complete and written.
  bool workload_finished(Slot& s, int status) {
    const WorkloadSpec& w = plan_.spec().workloads[s.workload];
    WorkloadResult r;
    r.name = w.name;
    r.command = display_command(s.argv);
    r.proc_wall_seconds = std::chrono::duration<double>(Clock::now() - s.started).count();
    const std::string stats_path = s.work + "/stats.json";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(stats_path)) {
      try {
        std::ifstream in(stats_path);
        const auto j = nlohmann::json::parse(in);
        r.stats = key_stats(j);
        r.sim_wall_seconds = j.at("total").value("wall_seconds", 0.0);
        r.ok = true;
      } catch (const std::exception& e) {
        r.error = "unreadable stats.json: " + std::string(e.what());
      }
    } else {
      const std::string why =
          s.timed_out ? "timed out after " + format_duration(opt_.timeout_s) + " (--timeout)"
                      : describe_wait_status(status);
      const std::string log = read_tail(s.work + "/log", 2000);
      r.error = log.empty() ? why : why + ": " + log;
    }
    std::error_code ec;
    fs::remove_all(s.work, ec);
    s.record.workloads.push_back(std::move(r));
    if (++s.workload < plan_.spec().workloads.size()) {
      start_workload(s);
      return false;
    }
    write_point(dir_.points_dir(), s.record);
    ++done_;
    if (!s.record.ok()) ++failed_;
    return true;
  }

  void enforce_timeouts() {
    if (opt_.timeout_s <= 0) return;
    const auto now = Clock::now();
    for (auto& s : slots_)
      if (!s.timed_out && std::chrono::duration<double>(now - s.started).count() > opt_.timeout_s) {
        s.timed_out = true;
        kill(s.pid, SIGKILL);
      }
  }

  void stop_children() {
    for (auto& s : slots_)
      if (s.pid > 0) kill(s.pid, SIGTERM);
  }

  const SweepPlan& plan_;
  const RunOptions& opt_;
  SweepDir& dir_;
  std::string exe_;
  std::deque<std::int64_t> todo_;
  std::deque<Slot> slots_;
  std::int64_t done_ = 0, failed_ = 0;
};

}  // namespace

RunSummary run_sweep(const SweepPlan& plan, const RunOptions& opt) {
  if (opt.jobs < 1) throw InputError("-j " + std::to_string(opt.jobs) + ": need at least 1 job");
  SweepDir dir(opt.out);
  dir.lock();
  dir.adopt_plan(plan.to_json());
  RunSummary s = Runner(plan, opt, dir).run();
  std::error_code ec;
  fs::remove_all(dir.work_dir(), ec);
  return s;
}

}  // namespace stcsim::sweep
