#include "sim/sweep/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace stcsim::sweep {

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw std::runtime_error("cannot find the stcsim executable (/proc/self/exe): " + ec.message());
  return p.string();
}

pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid > 0) return pid;
  // Child: only async-signal-safe calls until exec.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the sweep died before prctl took effect
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);  // exec keeps the mask; SIGCHLD was blocked
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  const int in = open("/dev/null", O_RDONLY);
  const int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0) _exit(126);
  dup2(in, 0);
  dup2(out, 1);
  dup2(out, 2);
  execv(args[0], args.data());
  _exit(127);
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) {
    const int c = WEXITSTATUS(status);
    if (c == 127) return "exit status 127 (could not start stcsim)";
    return "exit status " + std::to_string(c);
  }
  if (WIFSIGNALED(status)) {
    const int s = WTERMSIG(status);
    return "killed by signal " + std::to_string(s) + " (" + strsignal(s) + ")";
  }
  return "stopped";
}

static_assert(sizeof(sigset_t) <= 128, "sigset_t larger than the saved buffer");

ChildSignalScope::ChildSignalScope() {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, reinterpret_cast<sigset_t*>(old_mask_));
}

ChildSignalScope::~ChildSignalScope() {
  sigprocmask(SIG_SETMASK, reinterpret_cast<sigset_t*>(old_mask_), nullptr);
}

void wait_for_child_event(int timeout_ms) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  timespec ts{timeout_ms / 1000, long(timeout_ms % 1000) * 1000000L};
  sigtimedwait(&chld, nullptr, &ts);
}

}  // namespace stcsim::sweep
