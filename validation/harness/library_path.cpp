#include "validation/harness/library_path.h"

#include <dlfcn.h>
#include <glob.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace stcsim::validation {

namespace fs = std::filesystem;

namespace {
std::vector<std::string> glob_dirs(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (::glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}
}  // namespace

std::vector<std::string> site_packages_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("STCSIM_PYTHON_SITE_PACKAGES")) {
    std::stringstream ss(env);
    for (std::string d; std::getline(ss, d, ':');) add_unique(dirs, d);
  }
  std::vector<std::string> patterns = {
      "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
      "/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
      "/opt/conda/lib/python3*/site-packages"};
  if (const char* home = std::getenv("HOME"))
    patterns.push_back(std::string(home) + "/.local/lib/python3*/site-packages");
  if (const char* venv = std::getenv("VIRTUAL_ENV"))
    patterns.push_back(std::string(venv) + "/lib/python3*/site-packages");
  if (const char* conda = std::getenv("CONDA_PREFIX"))
    patterns.push_back(std::string(conda) + "/lib/python3*/site-packages");
  for (const std::string& p : patterns)
    for (const std::string& d : glob_dirs(p)) add_unique(dirs, d);
  return dirs;
}

std::vector<std::string> find_in_site_packages(const std::string& site,
                                               const std::vector<std::string>& sonames) {
  std::vector<std::string> found;
  for (const char* sub : {"nvidia", "torch/lib"}) {
    const fs::path root = fs::path(site) / sub;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) continue;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec),
        end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it.depth() > 4) {
        it.disable_recursion_pending();
        continue;
      }
      const std::string name = it->path().filename().string();
      if (std::find(sonames.begin(), sonames.end(), name) != sonames.end())
        found.push_back(it->path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::string> library_candidates(const char* env_var,
                                            const std::vector<std::string>& sonames) {
  std::vector<std::string> c;
  if (env_var)
    if (const char* v = std::getenv(env_var)) add_unique(c, v);
  for (const std::string& s : sonames) add_unique(c, s);
  for (const std::string& site : site_packages_dirs())
    for (const std::string& f : find_in_site_packages(site, sonames)) add_unique(c, f);
  return c;
}

LoadedLibrary load_first(const std::vector<std::string>& candidates, const char* probe_symbol,
                         std::string& why) {
  std::string tried;
  for (const std::string& c : candidates) {
    if (void* h = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      LoadedLibrary l{h, c};
      Dl_info info{};
      if (probe_symbol)
        if (void* s = ::dlsym(h, probe_symbol); s && ::dladdr(s, &info) && info.dli_fname)
          l.path = info.dli_fname;
      return l;
    }
    tried += (tried.empty() ? "" : ", ") + c;
  }
  why = "absent: none of " + (tried.empty() ? std::string("(no candidates)") : tried) + " loads";
  return {};
}

}  // namespace stcsim::validation
