#include "sim/sweep/child_command.h"

namespace stcsim::sweep {

std::vector<std::string> child_argv(const SweepPlan& plan, const Point& p, const WorkloadSpec& w,
                                    const std::string& exe, const std::string& out_dir) {
  std::vector<std::string> a{exe, "run", "--arch", plan.base_for(p)};
  for (const auto& [k, v] : plan.spec().set) a.insert(a.end(), {"-p", k + "=" + v});
  for (const auto& [k, v] : p.values)
    if (!is_run_option(k)) a.insert(a.end(), {"-p", k + "=" + v});
  a.insert(a.end(), {"--dtype", plan.dtype_for(p, w), "--sparsity", plan.sparsity_for(p), "--l2",
                     plan.l2_for(p)});
  if (plan.mode_for(p) != "cycle") a.insert(a.end(), {"--mode", plan.mode_for(p)});
  if (!w.gemm.empty())
    a.insert(a.end(), {"--gemm", w.gemm});
  else
    a.insert(a.end(), {"--trace", w.trace});
  a.insert(a.end(), {"-q", "--out", out_dir});
  return a;
}

namespace {
std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/=+@%") ==
          std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

std::string display_command(const std::vector<std::string>& argv) {
  std::string s = "stcsim";
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "--out") break;
    s += " " + shell_quote(argv[i]);
  }
  return s;
}

}  // namespace stcsim::sweep
