// Where the vendor libraries are looked for, in order (the first that loads wins):
//   1. the file an override variable names (STCSIM_CUBLAS_LIB, STCSIM_CUBLASLT_LIB,
//      STCSIM_CUSPARSELT_LIB);
//   2. the sonames, through the dynamic loader's own path;
//   3. files of those names under Python's site-packages, where pip's nvidia-* wheels
//      put them (nvidia/*/lib, nvidia/cu13/lib, torch/lib): the folders in
//      STCSIM_PYTHON_SITE_PACKAGES (colon-separated), then the usual system, user, conda
//      and virtual-environment locations.
// No CUDA here: tested on the CPU with a fake site-packages tree.
#pragma once
#include <string>
#include <vector>

namespace stcsim::validation {

std::vector<std::string> site_packages_dirs();
// Files under `site` (nvidia/ and torch/lib, at most 4 levels deep) named one of `sonames`.
std::vector<std::string> find_in_site_packages(const std::string& site,
                                               const std::vector<std::string>& sonames);
// The ordered candidates (duplicates removed); `env_var` may be null.
std::vector<std::string> library_candidates(const char* env_var,
                                            const std::vector<std::string>& sonames);

// dlopen of the first candidate that loads; the handle and the file it came from
// (resolved through dladdr of `probe_symbol` when given), or nullptr and `why`
// ("absent: tried ...").
struct LoadedLibrary {
  void* handle = nullptr;
  std::string path;
};
LoadedLibrary load_first(const std::vector<std::string>& candidates, const char* probe_symbol,
                         std::string& why);

}  // namespace stcsim::validation
