// Starting and reaping the per-point `stcsim run` processes. SystemC allows one
// simulation per process, so every run is its own child. Children die with the sweep
// (PR_SET_PDEATHSIG): a killed sweep leaves no orphan simulations writing behind it.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace stcsim::sweep {

// The path of the running executable, so children run the very same stcsim.
std::string self_executable();

// Fork and exec argv[0] with argv, stdout and stderr appended to `log_path`, stdin
// from /dev/null. Returns the child's pid; throws std::runtime_error if fork fails.
pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log_path);

// "exit status 2", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

// Blocks SIGCHLD so that wait_for_child_event can sleep until a child exits (no
// polling); restores the mask on destruction.
class ChildSignalScope {
 public:
  ChildSignalScope();
  ~ChildSignalScope();
  ChildSignalScope(const ChildSignalScope&) = delete;
  ChildSignalScope& operator=(const ChildSignalScope&) = delete;

 private:
  unsigned char old_mask_[128];
};
// Sleeps up to `timeout_ms` or until a child changes state (or another signal arrives).
void wait_for_child_event(int timeout_ms);

}  // namespace stcsim::sweep
