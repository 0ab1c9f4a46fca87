#include "sim/sweep/model_workloads.h"

#include <unistd.h>

#include <cctype>
#include <filesystem>

#include "models/common/dtype.h"
#include "sim/core/input_error.h"
#include "sim/driver/workload_ops.h"
#include "sim/sweep/fingerprint.h"

namespace stcsim::sweep {

namespace {

// A workload's name as a file name: letters, digits, '.', '-' and '_' kept.
std::string file_stem(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return s;
}

}  // namespace

void trace_model_workloads(SweepSpec& spec, const std::string& dir) {
  bool any = false;
  for (const auto& w : spec.workloads) any = any || !w.model.empty();
  if (!any) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create: " + ec.message());
  for (auto& w : spec.workloads) {
    if (w.model.empty()) continue;
    try {
      ModelRunOptions opt;
      opt.lowering = default_lowering(w.model);
      if (w.batch > 0) opt.lowering.batch = w.batch;
      if (w.tokens > 0) opt.lowering.seq_len = w.tokens;
      opt.dtype = parse_dtype(w.dtype.empty() ? spec.dtype : w.dtype);
      // Named by what defines it, so a file of that name always holds the same trace: a
      // resumed sweep reuses it and nothing of another sweep's is overwritten.
      const std::string def = w.model + "|" + w.prune + "|" + std::to_string(opt.lowering.batch) +
                              "|" + std::to_string(opt.lowering.seq_len) + "|" +
                              to_string(opt.dtype) + "|" +
                              (std::filesystem::is_regular_file(w.model) ? fingerprint_file(w.model)
                                                                         : std::string("-"));
      const std::string stem = file_stem(w.name) + "-" + hex(fnv1a(def.data(), def.size()));
      w.trace = dir + "/" + stem + ".trace";
      const workloads::Model model = load_any_model(w.model);
      const auto built = build_model_trace(model, w.prune, opt, false);
      workloads::write_trace(w.trace, built.trace);
    } catch (const std::filesystem::filesystem_error& e) {
      throw InputError(dir + ": cannot write the trace of workload '" + w.name + "': " + e.what());
    } catch (const InputError& e) {
      throw InputError(w.where.str() + ": workload '" + w.name + "' (model " + w.model +
                       "): " + e.what());
    }
  }
}

void install_model_traces(SweepSpec& spec, const std::string& dir) {
  namespace fs = std::filesystem;
  for (auto& w : spec.workloads) {
    if (w.model.empty()) continue;
    const fs::path from(w.trace);
    const std::string to = dir + "/" + from.filename().string();
    try {
      fs::create_directories(dir);
      if (!fs::exists(to)) {
        // The payload first, then the trace that names it, each copied beside and renamed
        // into place: a reader never finds half a file.
        for (const fs::path& f : {fs::path(w.trace + ".bin"), from}) {
          if (!fs::exists(f)) continue;
          const std::string dst = dir + "/" + f.filename().string();
          const std::string part = dst + ".part-" + std::to_string(::getpid());
          fs::copy_file(f, part, fs::copy_options::overwrite_existing);
          fs::rename(part, dst);
        }
      }
    } catch (const fs::filesystem_error& e) {
      throw InputError(dir + ": cannot write the trace of workload '" + w.name + "': " + e.what());
    }
    w.trace = to;
  }
}

}  // namespace stcsim::sweep
