// Kernel isolation: each kernel family runs in a child process (fork, before the parent
// ever touches CUDA), so a fault, a sticky CUDA error or a hang costs that child only.
// The child reports progress through a file (the index of the GEMM it is measuring);
// the parent kills a child whose progress has not moved for `stall_timeout_s` seconds.
// POSIX only, no CUDA: tested on the CPU (tests/validation/test_result_writer.cpp).
#pragma once
#include <functional>
#include <string>

namespace stcsim::validation {

struct ChildOutcome {
  bool exited = false;           // normal exit (see status)
  int status = 0;                // exit status when exited
  int signal = 0;                // terminating signal otherwise
  bool timed_out = false;        // killed by the watchdog (signal = SIGKILL)
  int last_progress = -1;        // the last index the child wrote to the progress file, -1 none
  std::string describe() const;  // "exit 0", "signal 11 (Segmentation fault)", "timeout ..."
};

// Runs `body` in a forked child; its return value is the child's exit status (an escaping
// exception: status 70). The child calls report_progress(file, i) as it goes.
ChildOutcome run_isolated(const std::function<int()>& body, const std::string& progress_file,
                          double stall_timeout_s);

// Written by the child: the index of the item it starts now (atomically).
void report_progress(const std::string& progress_file, int index);
int read_progress(const std::string& progress_file);  // -1 when absent or unreadable

}  // namespace stcsim::validation
