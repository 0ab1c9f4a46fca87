#include "validation/harness/isolation.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "validation/harness/result_writer.h"

namespace stcsim::validation {

std::string ChildOutcome::describe() const {
  if (timed_out) return "timeout: no progress, killed (signal " + std::to_string(signal) + ")";
  if (exited) return "exit " + std::to_string(status);
  return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
}

void report_progress(const std::string& progress_file, int index) {
  write_file_atomic(progress_file, std::to_string(index) + "\n");
}

int read_progress(const std::string& progress_file) {
  std::ifstream in(progress_file);
  int i = -1;
  return in >> i ? i : -1;
}

ChildOutcome run_isolated(const std::function<int()>& body, const std::string& progress_file,
                          double stall_timeout_s) {
  std::remove(progress_file.c_str());
  std::cout.flush();
  std::cerr.flush();
  ChildOutcome o;
  const pid_t pid = ::fork();
  if (pid < 0) {
    o.exited = true;
    o.status = 71;
    return o;
  }
  if (pid == 0) {
    int rc = 70;
    try {
      rc = body();
    } catch (const std::exception& e) {
      std::cerr << "stcsim_validate_gpu: child: " << e.what() << "\n";
    }
    std::cout.flush();
    std::cerr.flush();
    ::_exit(rc);
  }
  using clock = std::chrono::steady_clock;
  int progress = -1;
  auto last_move = clock::now();
  for (;;) {
    int wstatus = 0;
    const pid_t r = ::waitpid(pid, &wstatus, WNOHANG);
    if (r == pid) {
      o.exited = WIFEXITED(wstatus);
      o.status = o.exited ? WEXITSTATUS(wstatus) : 0;
      o.signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
      break;
    }
    const int p = read_progress(progress_file);
    if (p != progress) progress = p, last_move = clock::now();
    if (std::chrono::duration<double>(clock::now() - last_move).count() > stall_timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &wstatus, 0);
      o.timed_out = true;
      o.signal = SIGKILL;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  o.last_progress = read_progress(progress_file);
  return o;
}

}  // namespace stcsim::validation
